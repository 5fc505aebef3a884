"""What one seat (or a spectator) sees of a High Card game: a typed view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from knockabout.core.view import View


@dataclass(frozen=True, slots=True, kw_only=True)
class PendingDecision(View):
    player: int
    kind: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Result(View):
    winners: tuple[int, ...]
    draw: bool
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HighCardView(View):
    game_id: ClassVar[str] = "high-card"

    seat: int | None
    round: int
    rounds: int
    wins: tuple[int, int]
    leader: int
    led: int | None
    """The card the leader played this round (None until they play)."""
    hand_sizes: tuple[int, int]
    hand: tuple[int, ...] | None = None
    """The seat's own cards (None for a spectator)."""
    decision: PendingDecision | None = None
    legal: tuple[str, ...] | None = None
    outcome: Result | None = None
