"""Copies of a Knockdown position for search: a full clone, and a determinization that
re-deals what one seat cannot know (the deck order and the opponent's hidden skills)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from knockabout.core.rng import Rng

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState


def clone(self: KnockdownState) -> KnockdownState:
    cls = type(self)
    s = cls()
    s._legal = self._legal
    s.setup = self.setup
    s.cfg = self.cfg
    s.rng = self.rng.copy()
    s.phase = self.phase
    s.decider = self.decider
    s.pend = self.pend
    s.tasks = self.tasks[:]  # immutable records
    s.dealt = self.dealt  # never mutated in place after the deal
    s.keep1 = self.keep1[:]
    s.recv = self.recv  # replaced, never mutated in place
    s.keep2 = self.keep2[:]
    s.up = self.up[:]
    s.revealed = self.revealed[:]
    s.reveal_done = self.reveal_done
    s.symtab = self.symtab[:]
    s.sums = self.sums[:]
    s.victories = self.victories[:]
    s.round_no = self.round_no
    s.first = self.first
    s.current = self.current
    s.turn = self.turn
    s.actions_done = self.actions_done
    s.actions_allowed = self.actions_allowed
    s.heavy = self.heavy[:]
    s.light = self.light[:]
    s.pos = self.pos[:]
    h = self.hands
    s.hands = [h[0][:], h[1][:]]
    t = self.tokens
    s.tokens = [t[0][:], t[1][:]]
    s.traps = self.traps[:]
    s.contam_left = self.contam_left
    s.row = self.row[:]
    s.deck = self.deck[:]
    s.discard = self.discard[:]
    s.candle = self.candle
    s.combo_used = self.combo_used
    s.reacted = self.reacted[:]
    s.move_cancel = self.move_cancel
    s.atk_by = self.atk_by
    s.atk_src = self.atk_src
    s.atk_type = self.atk_type
    s.atk_h = self.atk_h
    s.atk_l = self.atk_l
    s.atk_fx = self.atk_fx
    s.atk_ko = self.atk_ko
    s.atk_hits = self.atk_hits
    s.atk_blockfx = self.atk_blockfx
    s.atk_void = self.atk_void
    s.result = self.result
    return s


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
