"""The Nak Muay Knockout game object (registered as ``nak-muay``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from knockabout.core.errors import ConfigError
from knockabout.core.plugins import (
    GameFacts,
    HeuristicPlugin,
    TurnBasedRules,
)
from knockabout.core.protocol import Game, State
from knockabout.core.view import View
from knockabout.games.nakmuay import actions as A
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
    plug_ins: ClassVar[Mapping[str, str]] = {  # where each plug-in lives (see Game.plug_ins)
        "lobby": "lobby:lobby_info()",
        "terminal_renderer": "terminal:RENDERER",
        "guide": "guide:GUIDE",
        "encoder": "encoding:NakMuayEncoder()",
        "state_encoder": "state_encoding:NakMuayStateEncoder()",
        "narrate": "narration:narrate",
    }

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
        return self.arranged(NakMuayArrangement, arrangement, lambda arr: arranged_state(cfg, arr, seed))

    def turn_based(self) -> TurnBasedRules:
        return TurnBasedRules(options={"countdown": "move_time"}, refusal=turn_based_refusal)

    def heuristic(self) -> HeuristicPlugin:
        from knockabout.games.nakmuay import heuristic as h

        return HeuristicPlugin(bot=h.HeuristicBot, rollout_policy=h.rollout_policy)


GAME = NakMuayGame()
NakMuayState.game = GAME
