"""KNOCKBACK's observation written straight from the state (the batched environment's path).

The same numbers as :class:`~knockabout.games.knockback.encoding.KnockbackEncoder` gives for
``state.observe(seat)``: everything on the board is public, and of a draft only the sizes of
the hands and of what was kept, and the seat's own counts. Each write below names the view
field the view encoder reads (:mod:`knockabout.games.knockback.view`).
"""

from __future__ import annotations

from typing import Final

from knockabout.core.protocol import State
from knockabout.core.state_encoding import Block, Scatter, StateEncoder
from knockabout.games.knockback.encoding import CARD as _CARD
from knockabout.games.knockback.encoding import DECISION, LABELS, PAIRS, KnockbackEncoder
from knockabout.games.knockback.encoding import REACH as _REACH
from knockabout.games.knockback.grid import HALF
from knockabout.games.knockback.legal import edge_options
from knockabout.games.knockback.ops import Kind
from knockabout.games.knockback.phases import DRAFT, EDGE, MIDDLE, OVER, SYMBOL
from knockabout.games.knockback.state import KnockbackState

# names of other modules copied as this module's Final ones: compiled, a Final is read
# statically, any other name from the module's dictionary at every use (docs/speed.md)
CARD: Final[int] = _CARD
REACH: Final[int] = _REACH
N_LABELS: Final = 6
_LINEUPS_KEPT: Final = 1024
STAT: Final = 6
"""Attack and heart values are divided by this (the view encoder's ``STAT``)."""
_ABILITY: Final[dict[Kind, int]] = {Kind.PASSIVE: 0, Kind.PUNCHING: 1, Kind.MOVING: 2}
"""Index of an ability kind in the view encoder's ``ABILITIES``."""
_PAIR_I: Final[tuple[int, ...]] = tuple(i for i, _ in PAIRS)
_PAIR_J: Final[tuple[int, ...]] = tuple(j for _, j in PAIRS)

assert len(LABELS) == N_LABELS


class KnockbackStateEncoder(StateEncoder):
    lineups: dict[int, tuple[tuple[tuple[int, ...], ...], Block]]
    """Per line-up (by its edge table ``KnockbackState.atk``): that table and the numbers of
    the six cards that never change in a match (owner, rotation, edges, symbols, ability)."""
    phase: int
    round: int
    turn: int
    scoring: int
    best_of: int
    whole_line: int
    token: int
    wins: int
    starter: int
    current: int
    cards: int
    adjacent: int
    activation: int
    punch: int
    draft: int

    def __init__(self) -> None:
        enc = KnockbackEncoder()
        super().__init__(enc, enc.legal_scale, DECISION)
        self.lineups = {}
        self.phase = self.offset("phase")
        self.round = self.offset("round")
        self.turn = self.offset("turn")
        self.scoring = self.offset("scoring")
        self.best_of = self.offset("best_of")
        self.whole_line = self.offset("whole_line")
        self.token = self.offset("token")
        self.wins = self.offset("wins")
        self.starter = self.offset("starter")
        self.current = self.offset("current")
        self.cards = self.offset("cards")
        self.adjacent = self.offset("adjacent")
        self.activation = self.offset("activation")
        self.punch = self.offset("punch")
        self.draft = self.offset("draft")

    def write(self, state: State, seat: int, out: Scatter) -> None:
        assert isinstance(state, KnockbackState)
        s = state
        phase = s.phase
        if phase < OVER:  # the view encoder's PHASES are the phases but "over", in order
            out.one(self.phase + phase)
        out.ratio(self.round, s.round, 9)
        out.ratio(self.turn, s.turn, s.max_turns)
        out.one(self.scoring + s.scoring)
        out.ratio(self.best_of, s.best_of, 9)
        out.flag(self.whole_line, s.whole_line)
        out.one(self.token + (0 if s.token == MIDDLE else 1 + s.token))
        wins = s.wins
        out.ratio(self.wins, wins[0], 5)
        out.ratio(self.wins + 1, wins[1], 5)
        out.one(self.starter + s.starter)
        if phase != OVER:
            out.one(self.current + s.current)
        if s.lab:
            self._cards(s, out)
        if phase in (SYMBOL, EDGE):
            a = s.active
            out.one(self.activation + a)
            out.ratio(self.activation + N_LABELS, s.sym, 2)
            out.ratio(self.activation + N_LABELS + 1, s.moved, 3)
            if phase == EDGE:
                at = self.punch
                out.one(at + a)
                out.one(at + N_LABELS + s.p_target)
                out.one(at + 2 * N_LABELS + s.p_dir)
                for d in edge_options(s):
                    out.one(at + 2 * N_LABELS + 4 + d)
                out.ratio(at + 2 * N_LABELS + 8, s.p_attack, 2 * STAT)
        elif phase == DRAFT:
            at = self.draft
            hands = s.hands
            kept = s.kept
            out.ratio(at, len(s.cards), 12)
            out.ratio(at + 1, len(hands[0]), 6)
            out.ratio(at + 2, len(hands[1]), 6)
            out.ratio(at + 3, len(kept[0]), 3)
            out.ratio(at + 4, len(kept[1]), 3)
            out.ratio(at + 5, len(hands[seat]), 6)
            out.ratio(at + 6, len(kept[seat]), 3)

    def _lineup(self, s: KnockbackState) -> Block:
        """The line-up's unchanging numbers (made at its first observation)."""
        atk = s.atk
        found = self.lineups.get(id(atk))
        if found is not None and found[0] is atk:
            return found[1]
        out = Scatter()
        hrt = s.hrt
        for i in range(N_LABELS):
            o = self.cards + i * CARD
            out.flag(o, i >= 3)  # owner: seat 1
            out.one(o + 5 + (2 if i >= 3 else 0))  # rotation 0 or 180
            a = atk[i]
            h = hrt[i]
            for d in range(4):
                out.ratio(o + 9 + 2 * d, a[d], STAT)
                out.ratio(o + 10 + 2 * d, h[d], STAT)
            card = s.lab[i]
            symbols = card.symbols
            for k in range(min(2, len(symbols))):  # codes move 1, punch 2, either 3: SYMBOLS' order
                out.one(o + 17 + 3 * k + symbols[k] - 1)
            out.one(o + 23 + _ABILITY[card.kind])
        block = out.take()
        if len(self.lineups) >= _LINEUPS_KEPT:
            self.lineups.clear()
        self.lineups[id(atk)] = (atk, block)
        return block

    def _cards(self, s: KnockbackState, out: Scatter) -> None:
        """The view's ``cards`` and the encoder's ``adjacent`` field."""
        onboard = s.onboard
        pos = s.pos
        xs = [0] * N_LABELS
        ys = [0] * N_LABELS
        sx = sy = placed = 0
        for i in range(N_LABELS):
            if onboard >> i & 1:
                k = pos[i]
                x = (k + HALF) >> 32
                xs[i] = x
                ys[i] = k - (x << 32)
                sx += x
                sy += ys[i]
                placed += 1
        mx = my = 0
        if placed:
            mx = round(sx / placed)
            my = round(sy / placed)
        out.block(self._lineup(s))
        exhausted = s.exhausted
        placed_bits = s.placed
        for i in range(N_LABELS):
            o = self.cards + i * CARD
            bit = 1 << i
            on = onboard & bit
            out.one(o + 1 + (1 if on else 2 if placed_bits & bit else 0))  # status: hand, board, out
            out.flag(o + 4, bool(exhausted & bit))
            if on:
                out.ratio(o + 26, xs[i] - mx + REACH, 2 * REACH)
                out.ratio(o + 27, ys[i] - my + REACH, 2 * REACH)
        at = self.adjacent
        for k in range(len(_PAIR_I)):
            i = _PAIR_I[k]
            j = _PAIR_J[k]
            if onboard >> i & 1 and onboard >> j & 1:
                dx = xs[j] - xs[i]
                dy = ys[j] - ys[i]
                # the view encoder's steps: N (0, -1), E (1, 0), S (0, 1), W (-1, 0)
                if dx == 0 and dy == -1:
                    out.one(at + 4 * k)
                elif dx == 1 and dy == 0:
                    out.one(at + 4 * k + 1)
                elif dx == 0 and dy == 1:
                    out.one(at + 4 * k + 2)
                elif dx == -1 and dy == 0:
                    out.one(at + 4 * k + 3)
