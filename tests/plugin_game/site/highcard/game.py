"""The High Card game object: what knockabout learns about the game, all in one place."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from highcard.actions import SPACE
from highcard.config import HighCardConfig
from highcard.state import HighCardState
from highcard.view import HighCardView
from knockabout.core.errors import ConfigError, ReplayError
from knockabout.core.events import Event
from knockabout.core.plugins import GameFacts, HeuristicPlugin, ObservationEncoder, TerminalRenderer
from knockabout.core.protocol import Game
from knockabout.core.view import View


class HighCardGame(Game[HighCardConfig]):
    id: ClassVar[str] = "high-card"
    name: ClassVar[str] = "High Card"
    rules_version: ClassVar[str] = "1.0"
    facts: ClassVar[GameFacts] = GameFacts(
        min_players=2,
        max_players=2,
        default_players=2,
        hidden_information=True,
        chance="seeded",
        timed_decisions=False,
        decision_kinds=frozenset({"lead", "answer"}),
        outcome_reasons=frozenset({"most rounds", "tie"}),
        length_unit="turns",
    )
    view_type: ClassVar[type[View]] = HighCardView
    config_model: ClassVar[type[BaseModel]] = HighCardConfig
    web_renderer: ClassVar[str | None] = "web/renderer.js"

    def __init__(self) -> None:
        self.actions = SPACE

    def new_state(
        self, config: Mapping[str, Any] | BaseModel | None = None, seed: int = 0, *, players: int | None = None
    ) -> HighCardState:
        if players not in (None, 2):
            raise ConfigError(f"high-card: {players} players given; High Card is for exactly 2")
        cfg = self.make_config(config)
        return HighCardState.deal(cfg.rounds, seed)

    def state_from_dict(self, data: Mapping[str, Any]) -> HighCardState:
        try:
            return HighCardState.from_dict(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"high-card: not a saved state ({exc!r})") from None

    def heuristic(self) -> HeuristicPlugin:
        from highcard.heuristic import HighCardBot, rollout_policy

        return HeuristicPlugin(bot=HighCardBot, rollout_policy=rollout_policy)

    def terminal_renderer(self) -> TerminalRenderer:
        from highcard.terminal import RENDERER

        return RENDERER

    def encoder(self) -> ObservationEncoder:
        from highcard.encoding import HighCardEncoder

        return HighCardEncoder()

    def narrate(self, event: Event, names: Sequence[str]) -> str | None:
        who = names[event.data["player"]] if "player" in event.data else ""
        if event.type == "played":
            return f"{who} plays the {event.data['card']}."
        if event.type == "round_won":
            return f"{who} wins round {event.data['round']}."
        if event.type == "game_over":
            return f"Game over: {event.data['reason']}."
        return None


GAME = HighCardGame()
HighCardState.game = GAME
