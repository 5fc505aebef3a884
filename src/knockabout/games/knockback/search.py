"""Search support: a full KNOCKBACK state sampled from what one seat knows.

Once the line-ups are known nothing is hidden, so a sample is the position itself with
a fresh RNG; during a draft the opponent's hand and kept cards are dealt again from
the cards the seat cannot place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from knockabout.core.rng import Rng
from knockabout.games.knockback.phases import DRAFT

if TYPE_CHECKING:
    from knockabout.games.knockback.state import KnockbackState


def determinize(state: KnockbackState, player: int, rng: Rng) -> KnockbackState:
    """Only a draft hides anything: the opponent's hand and kept cards are re-dealt
    from the cards ``player`` does not hold."""
    s = state.clone()
    s._legal = None
    if s.phase == DRAFT:
        o = 1 - player
        unknown = s.hands[o] + s.kept[o]
        rng.shuffle(unknown)
        n = len(s.hands[o])
        s.hands[o] = unknown[:n]
        s.kept[o] = unknown[n:]
    s.rng = Rng(rng.next64())
    return s
