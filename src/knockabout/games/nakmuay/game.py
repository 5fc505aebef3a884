"""The Nak Muay Knockout game object (registered as ``nak-muay``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from knockabout.core.errors import ConfigError
from knockabout.core.events import Event
from knockabout.core.plugins import (
    GameFacts,
    Guide,
    HeuristicPlugin,
    LobbyInfo,
    ObservationEncoder,
    TerminalRenderer,
    TurnBasedRules,
)
from knockabout.core.protocol import Game, State
from knockabout.core.state_encoding import StateEncoder
from knockabout.core.view import View
from knockabout.games.nakmuay import actions as A
from knockabout.games.nakmuay import narration
from knockabout.games.nakmuay.config import NakMuayConfig, deal_problem, turn_based_refusal
from knockabout.games.nakmuay.state import NakMuayState
from knockabout.games.nakmuay.view import NakMuayView


class NakMuayGame(Game[NakMuayConfig]):
    id: ClassVar[str] = "nak-muay"
    name: ClassVar[str] = "Nak Muay Knockout"
    rules_version: ClassVar[str] = "1.0"
    web_renderer: ClassVar[str | None] = "web/renderer.js"
    tutorial: ClassVar[str | None] = "tutorial.toml"
    learned_policy: ClassVar[str | None] = "learned.npz"  # the learned level's network (docs/bots.md)
    facts: ClassVar[GameFacts] = GameFacts(
        min_players=2,
        max_players=5,
        default_players=2,
        hidden_information=True,
        chance="seeded",
        timed_decisions=True,
        decision_kinds=frozenset({
            "action", "attack_response", "countdown_response", "hide_ko", "ko_block", "scout_order",
            "scout_take", "steal_target", "sweep_direction", "triple_name",
        }),
        outcome_reasons=frozenset({"last fighter standing", "turn limit"}),
        length_unit="turns",
    )
    view_type: ClassVar[type[View]] = NakMuayView
    state_type: ClassVar[type[State] | None] = NakMuayState
    config_model: ClassVar[type[BaseModel]] = NakMuayConfig

    def __init__(self) -> None:
        self.actions = A.SPACE

    def new_state(
        self, config: Mapping[str, Any] | BaseModel | None = None, seed: int = 0, *, players: int | None = None
    ) -> NakMuayState:
        cfg = self.make_config(config)
        self.check_players(players)
        n = cfg.players if players is None else players
        problem = deal_problem(n, cfg.hand_size, cfg.starting_block)
        if problem:
            raise ConfigError(f"{self.id}: {problem}")
        return NakMuayState.deal(
            n,
            cfg.end_turn == "strict_end_turn",
            cfg.countdown_window(),
            cfg.max_turns,
            seed,
            cfg.starting_block,
            cfg.hand_size,
            cfg.extra_kos,
        )

    def arrange(
        self, config: Mapping[str, Any] | BaseModel | None, arrangement: Mapping[str, Any], seed: int = 0
    ) -> NakMuayState:
        from knockabout.games.nakmuay.arrange import NakMuayArrangement, arranged_state

        cfg = self.make_config(config)
        arr = self.read_arrangement(NakMuayArrangement, arrangement)
        try:
            return arranged_state(cfg, arr, seed)
        except ValueError as exc:
            raise ConfigError(f"{self.id}: invalid arrangement: {exc}") from None

    def turn_based(self) -> TurnBasedRules:
        return TurnBasedRules(options={"countdown": "move_time"}, refusal=turn_based_refusal)

    def lobby(self) -> LobbyInfo:
        from knockabout.games.nakmuay.lobby import lobby_info

        return lobby_info()

    def heuristic(self) -> HeuristicPlugin:
        from knockabout.games.nakmuay import heuristic as h

        return HeuristicPlugin(bot=h.HeuristicBot, rollout_policy=h.rollout_policy)

    def terminal_renderer(self) -> TerminalRenderer:
        from knockabout.games.nakmuay.terminal import RENDERER

        return RENDERER

    def guide(self) -> Guide:
        from knockabout.games.nakmuay.guide import GUIDE

        return GUIDE

    def encoder(self) -> ObservationEncoder:
        from knockabout.games.nakmuay.encoding import NakMuayEncoder

        return NakMuayEncoder()

    def state_encoder(self) -> StateEncoder:
        from knockabout.games.nakmuay.state_encoding import NakMuayStateEncoder

        return NakMuayStateEncoder()

    def narrate(self, event: Event, names: Sequence[str]) -> str | None:
        return narration.narrate(event, names)


GAME = NakMuayGame()
NakMuayState.game = GAME
