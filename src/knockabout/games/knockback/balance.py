"""KNOCKBACK's balance plug-in: every pack against every other.

``knockabout balance knockback`` pits the packs against each other (the built-in set plus
any ``pack_files``), all in one matrix. Every table option but ``packs`` may be given
(``scoring``, ``max_turns``…) and holds for every match. Besides the matrix, the report
gives the first-player edge: a match's first player is the first round's starter (who
places first and fights first), and each round's first player is that round's starter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from knockabout.core.events import Event
from knockabout.core.plugins import BalancePlugin, EntrantGroup, MatchMetrics
from knockabout.core.protocol import State
from knockabout.games.knockback.config import KnockbackConfig
from knockabout.games.knockback.state import KnockbackState

if TYPE_CHECKING:
    from knockabout.games.knockback.game import KnockbackGame


class _Watcher:
    """Who starts the match and each round, and who wins each round."""

    def __init__(self, state: State) -> None:
        assert isinstance(state, KnockbackState)
        self.first = self.starter = state.starter
        self.rounds: list[tuple[int, int | None]] = []

    def see(self, state: State, events: Sequence[Event]) -> None:
        for e in events:
            if e.type == "round_over":
                winner = e.data["winner"]
                self.rounds.append((self.starter, None if winner is None else int(winner)))
            elif e.type == "round_start":
                self.starter = int(e.data["starter"])

    def metrics(self) -> MatchMetrics:
        return MatchMetrics(first=self.first, rounds=self.rounds)


class KnockbackBalance(BalancePlugin):
    entrant_kind: ClassVar[str] = "pack"
    options: ClassVar[Mapping[str, str]] = {
        name: f.description or name for name, f in KnockbackConfig.model_fields.items() if name != "packs"
    }

    def __init__(self, game: KnockbackGame) -> None:
        self.game = game

    def groups(self, options: Mapping[str, Any]) -> list[EntrantGroup]:
        config = dict(options)
        cfg = self.game.make_config(config)  # a bad scoring mode is one clear error
        packs = self.game.packs(cfg.pack_files)  # and so is a bad pack file
        return [EntrantGroup("", tuple(p.id for p in packs), config)]

    def pairing_config(self, group: EntrantGroup, a: str, b: str) -> dict[str, Any]:
        return {**group.config, "packs": [a, b]}

    def watch(self, state: State) -> _Watcher:
        return _Watcher(state)

    def label(self, entrant: str) -> str:
        return entrant.split("-")[0]

