"""A Knockdown position re-dealt for search: a determinization gives one seat a copy in which
what it cannot know (the deck order and the opponent's hidden skills) is dealt again
(the copy itself is ``KnockdownState.clone``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from knockabout.core.rng import Rng

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState


def determinize(self: KnockdownState, player: int, rng: Rng) -> KnockdownState:
    s = self.clone()
    s._legal = None
    rng.shuffle(s.deck)
    o = 1 - player
    n = len(self.setup.skills)
    if not self.recv[player]:
        pool = [i for i in range(n) if i not in self.dealt[player]]
        rng.shuffle(pool)
        s.dealt = [s.dealt[0][:], s.dealt[1][:]]
        s.dealt[o] = sorted(pool[:3])
        if self.keep1[o] >= 0:
            s.keep1[o] = s.dealt[o][rng.below(3)]
    elif not self.revealed[o]:
        pool = [i for i in range(n) if i not in self.dealt[player] and i not in self.recv[player]]
        keep1 = pool[rng.below(len(pool))]
        keep2 = self.keep2[o]
        up = self.up[o]
        if keep2 >= 0:
            keep2 = self.recv[o][rng.below(2)]
        if self.reveal_done:
            face = self.active_skills(o)[0]
            if self.up[o] == 0:
                keep1 = face
            else:
                keep2 = face
        elif up >= 0:
            up = rng.below(2)
        s.keep1[o] = keep1
        s.keep2[o] = keep2
        s.up[o] = up
        s.dealt = [s.dealt[0][:], s.dealt[1][:]]
        s.dealt[o] = sorted([keep1, *self.recv[player]])
    s.rng = Rng(rng.next64())
    return s
