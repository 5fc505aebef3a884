"""Nak Muay's observation written straight from the state (the batched environment's path).

The same numbers as :class:`~knockabout.games.nakmuay.encoding.NakMuayEncoder` gives for
``state.observe(seat)``, read from the state's own fields for ``seat`` alone: its hand, the
pile positions it knows, the cards it scouts, and what everyone sees. Each write below
names the view field the view encoder reads.
"""

from __future__ import annotations

from typing import Final

from knockabout.core.protocol import State
from knockabout.core.state_encoding import Scatter, StateEncoder
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay.encoding import DECISION, NakMuayEncoder
from knockabout.games.nakmuay.encoding import KNOWN_DEPTHS as _KNOWN_DEPTHS
from knockabout.games.nakmuay.phases import (
    ATTACK_REACT,
    COUNTDOWN,
    HIDE_KO,
    KIND_MASK,
    KO_BLOCK,
    SCOUT_ORDER,
    SCOUT_TAKE,
    STEAL_PAIR,
    STEAL_TARGET,
    TRIPLE_NAME,
)
from knockabout.games.nakmuay.state import NakMuayState

# names of other modules copied as this module's Final ones: compiled, a Final is read
# statically, any other name from the module's dictionary at every use (docs/speed.md)
K: Final = C.NUM_KINDS
KO: Final = C.KO
KNOWN_DEPTHS: Final[int] = _KNOWN_DEPTHS
_COPIES: Final[tuple[int, ...]] = C.COPIES
_NAMEABLE: Final[tuple[int, ...]] = C.NAMEABLE


class NakMuayStateEncoder(StateEncoder):
    players: int
    turn: int
    strict: int
    current: int
    clockwise: int
    active: int
    hand_sizes: int
    draw_pile: int
    ko_in_pile: int
    discard_counts: int
    discard_top: int
    attacker: int
    target: int
    attack_value: int
    countdown: int
    drawer: int
    ko: int
    draws_left: int
    scout: int
    scout_count: int
    scout_seen: int
    thief: int
    steal: int
    named: int
    no_answers: int
    hand: int
    known_pile: int

    def __init__(self) -> None:
        enc = NakMuayEncoder()
        super().__init__(enc, enc.legal_scale, DECISION)
        self.players = self.offset("players")
        self.turn = self.offset("turn")
        self.strict = self.offset("strict_end_turn")
        self.current = self.offset("current")
        self.clockwise = self.offset("clockwise")
        self.active = self.offset("active")
        self.hand_sizes = self.offset("hand_sizes")
        self.draw_pile = self.offset("draw_pile")
        self.ko_in_pile = self.offset("ko_in_pile")
        self.discard_counts = self.offset("discard_counts")
        self.discard_top = self.offset("discard_top")
        self.attacker = self.offset("attacker")
        self.target = self.offset("target")
        self.attack_value = self.offset("attack_value")
        self.countdown = self.offset("countdown")
        self.drawer = self.offset("drawer")
        self.ko = self.offset("ko")
        self.draws_left = self.offset("draws_left")
        self.scout = self.offset("scout")
        self.scout_count = self.offset("scout_count")
        self.scout_seen = self.offset("scout_seen")
        self.thief = self.offset("thief")
        self.steal = self.offset("steal")
        self.named = self.offset("named")
        self.no_answers = self.offset("no_answers")
        self.hand = self.offset("hand")
        self.known_pile = self.offset("known_pile")

    def write(self, state: State, seat: int, out: Scatter) -> None:
        assert isinstance(state, NakMuayState)
        s = state
        n = s.n
        out.one(self.players + n - 2)
        out.ratio(self.turn, s.turn, s.max_turns)
        out.flag(self.strict, s.strict)
        out.one(self.current + s.current)
        out.flag(self.clockwise, s.direction == 1)
        active = s.active
        sizes = s.sizes
        for p in range(n):
            out.flag(self.active + p, active[p])
            out.ratio(self.hand_sizes + p, sizes[p], 45)
        pile = s.pile
        out.ratio(self.draw_pile, len(pile), 45)
        out.ratio(self.ko_in_pile, s.in_play[KO] - (1 if s.limbo_ko else 0), 4)
        discard = s.discard
        if discard:
            counts = [0] * K
            for k in discard:
                counts[k] += 1
            for k in range(K):
                out.ratio(self.discard_counts + k, counts[k], _COPIES[k])
            out.one(self.discard_top + discard[-1])
        self._pending(s, seat, out)
        absent = s.absent
        for p in range(n):
            bits = absent[p]
            if bits:
                for k in _NAMEABLE:
                    if bits >> k & 1:
                        out.one(self.no_answers + p * K + k)
        hand = s.hands[seat]
        for k in range(K):
            out.ratio(self.hand + k, hand[k], _COPIES[k])
        bit = 1 << (seat + 4)
        top = len(pile) - 1
        for i in range(len(pile)):
            e = pile[i]
            if e & bit:
                depth = top - i
                if depth < KNOWN_DEPTHS:
                    out.one(self.known_pile + depth * K + (e & KIND_MASK))

    def _pending(self, s: NakMuayState, seat: int, out: Scatter) -> None:
        """The view's ``pending`` part (``view._pending``)."""
        phase = s.phase
        if phase == ATTACK_REACT:
            out.one(self.attacker + s.current)
            out.one(self.target + s.target)
            out.ratio(self.attack_value, s.attack_value, 3)
        elif phase == COUNTDOWN:
            out.one(self.attacker + s.current)
            out.one(self.target + s.target)
            out.one(self.countdown)
        elif phase in (KO_BLOCK, HIDE_KO):
            out.one(self.drawer + s.draw_player)
            out.one(self.ko)
            out.ratio(self.draws_left, s.draws_left, 3)
        elif phase in (SCOUT_TAKE, SCOUT_ORDER):
            out.one(self.scout + s.current)
            cards = s.scout_cards
            out.ratio(self.scout_count, len(cards), 3)
            if seat == s.current:
                for i in range(len(cards)):
                    out.one(self.scout_seen + i * K + cards[i])
        elif phase == STEAL_TARGET:
            out.one(self.thief + s.current)
            out.one(self.steal + (0 if s.steal_kind == STEAL_PAIR else 1))
        elif phase == TRIPLE_NAME:
            out.one(self.thief + s.current)
            out.one(self.target + s.steal_target)
            named = s.named
            for k in _NAMEABLE:
                if named >> k & 1:
                    out.one(self.named + k)
