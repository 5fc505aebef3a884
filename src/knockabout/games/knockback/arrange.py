"""A KNOCKBACK match that starts from an arranged position (what the tutorial plays).

The packs come from the table's options as in any match; the arrangement says who starts
the round (places first and acts first), where the score token lies, how many rounds each
seat has won and the round's number, so a lesson can open on the round that decides a match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from knockabout.games.knockback.phases import MIDDLE, PLACE

if TYPE_CHECKING:
    from knockabout.games.knockback.state import KnockbackState


class KnockbackArrangement(BaseModel):
    """The round about to be placed (see the module)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    starter: int = Field(0, ge=0, le=1, description="the seat that places first and acts first")
    token: Literal["middle", 0, 1] = Field(
        "middle", description="where the score token lies: 'middle' or the seat it is in front of")
    wins: tuple[int, int] = Field((0, 0), description="rounds each seat has won so far")
    round: int = Field(1, ge=1, description="the number of the round that begins")


def arrange_round(s: KnockbackState, arr: KnockbackArrangement) -> KnockbackState:
    """``s``, a new match of the table's packs, as the arranged round's start. Errors are
    ``ValueError`` naming the field."""
    if s.phase != PLACE:
        raise ValueError("lineup: only a match of packs (lineup = packs) can be arranged")
    token = MIDDLE if arr.token == "middle" else arr.token
    if min(arr.wins) < 0 or sum(arr.wins) >= arr.round:
        raise ValueError(f"wins: {list(arr.wins)} rounds won cannot come before round {arr.round}")
    s.starter = s.current = arr.starter
    s.token = token
    s.wins = list(arr.wins)
    s.round = arr.round
    s._legal = None
    return s
