"""The rules of KNOCKBACK 'til they croak as a :class:`~knockabout.core.protocol.State`.

Representation (chosen for fast legal-action generation, apply and clone):

* the six cards of a match are *labels* 0-5 (``A1``-``A3`` for seat 0, ``B1``-``B3``
  for seat 1); card data lives in shared, immutable tables (``lab``, ``atk``, ``hrt``)
  with edge values already turned to face their owner (seat 1 is rotated 180°);
* a cell of the boundless grid is one int, ``x * 2**32 + y`` (so a neighbour is one
  addition away); ``grid`` maps occupied cells to labels, ``pos`` labels to cells;
* which cards are placed, on the grid and exhausted are three bit masks;
* an activation is the active label, the index of the symbol being taken and the
  number of steps moved so far; a punch on an exhausted card waits for the attacker's
  choice of edge in its own phase.

This module holds the state, its set-up and the turn's rules (draft, placement,
activation, moves and punches); the rest is split by concern: :mod:`.legal` (legal
actions), :mod:`.lines` (pushes), :mod:`.effects` (card abilities), :mod:`.scoring`
(rounds and the match), :mod:`.view`, :mod:`.search` and :mod:`.serde`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from knockabout.core.actions import Action
from knockabout.core.events import Event
from knockabout.core.protocol import Decision, Game, Outcome, State
from knockabout.core.rng import Rng
from knockabout.games.knockback import actions as A
from knockabout.games.knockback import search, serde
from knockabout.games.knockback import view as V
from knockabout.games.knockback.actions import LABELS
from knockabout.games.knockback.cards import DIRS, MOVE, SYMBOL_NAMES, Card
from knockabout.games.knockback.effects import after_move, after_punch, attack_value, heart_value
from knockabout.games.knockback.grid import DELTA, OPP, coords
from knockabout.games.knockback.legal import edge_options, placements, symbol_options
from knockabout.games.knockback.lines import knock_back, shove
from knockabout.games.knockback.phases import (
    ALL_SIX,
    DECISIONS,
    DRAFT,
    EDGE,
    MIDDLE,
    OVER,
    PLACE,
    SCORING_NAMES,
    SEAT_MASK,
    SYMBOL,
    SYMBOL_DECISIONS,
    TURN,
    bits,
)
from knockabout.games.knockback.scoring import end_round, end_turn

# legal actions of a battle turn, by the mask of the current player's rested cards on the grid
_TURN_ACTIONS: Final = {
    mask: (*(A.ACTIVATE[i] for i in bits(mask)), A.REST) for mask in range(64)
}
_FORCED_REST: Final[tuple[Action, ...]] = (A.REST,)
_MASK_LABELS: Final = tuple(tuple(LABELS[i] for i in bits(mask)) for mask in range(64))
_EMPTY: Final[tuple[Action, ...]] = ()


class KnockbackState(State):
    """A position of a KNOCKBACK match. Build with ``KnockbackGame.new_state``."""

    __slots__ = (
        "active",
        "alternate_starts",
        "atk",
        "best_of",
        "cards",
        "current",
        "exhausted",
        "grid",
        "hands",
        "has_aura_attack",
        "has_aura_heart",
        "hrt",
        "kept",
        "knockout_on_tie",
        "lab",
        "lineup",
        "max_rounds",
        "max_turns",
        "moved",
        "need",
        "onboard",
        "p_attack",
        "p_dir",
        "p_target",
        "phase",
        "pick",
        "placed",
        "pos",
        "rest_moves",
        "result",
        "rng",
        "round",
        "scoring",
        "starter",
        "stay_ready",
        "sym",
        "token",
        "turn",
        "whole_line",
        "wins",
    )

    game: ClassVar[Game[Any]]
    # the line-ups are replaced, never changed in place; the draft hands and what was kept
    # change only in a draft, where clone() copies them
    shared_on_clone: ClassVar[frozenset[str]] = frozenset({"lineup", "hands", "kept"})

    whole_line: bool
    knockout_on_tie: bool
    alternate_starts: bool
    scoring: int
    best_of: int
    need: int
    max_turns: int
    max_rounds: int
    cards: tuple[Card, ...]
    hands: list[list[int]]
    kept: list[list[int]]
    pick: int
    lineup: list[list[int]]
    lab: tuple[Card, ...]
    atk: tuple[tuple[int, ...], ...]
    hrt: tuple[tuple[int, ...], ...]
    rest_moves: tuple[tuple[int, ...], ...]
    has_aura_attack: bool
    has_aura_heart: bool
    pos: list[int]
    grid: dict[int, int]
    placed: int
    onboard: int
    exhausted: int
    phase: int
    current: int
    turn: int
    round: int
    starter: int
    token: int
    wins: list[int]
    active: int
    sym: int
    moved: int
    stay_ready: bool
    p_target: int
    p_dir: int
    p_attack: int
    result: Outcome | None
    rng: Rng

    def __init__(self) -> None:
        """An empty shell that the constructors below fill in (a plain constructor, not
        ``cls.__new__``, so that the mypyc build compiles the same source); its cache of
        legal actions starts empty."""
        self._legal = None

    # ------------------------------------------------------------------ setup
    @classmethod
    def start(
        cls,
        *,
        pool: Sequence[Card],
        lineup: Sequence[Sequence[int]] | None,
        whole_line: bool,
        scoring: str,
        knockout_on_tie: bool = False,
        alternate_starts: bool = False,
        best_of: int,
        max_turns: int,
        max_rounds: int,
        rng: Rng,
    ) -> KnockbackState:
        """A new match. ``lineup`` gives each seat's three pool indices, or None for a
        draft of the whole pool (each seat is dealt half; drafting stops once each seat
        has kept three cards, so a 12-card pool leaves three in each hand)."""
        s = cls()
        s.whole_line = whole_line
        s.knockout_on_tie = knockout_on_tie
        s.alternate_starts = alternate_starts
        s.scoring = SCORING_NAMES.index(scoring)
        s.best_of = best_of
        s.need = (best_of + 1) // 2
        s.max_turns = max_turns
        s.max_rounds = max_rounds
        s.cards = tuple(pool)
        s.rng = rng
        s.pos = [0] * 6
        s.grid = {}
        s.placed = s.onboard = s.exhausted = 0
        s.turn = 0
        s.round = 1
        s.token = MIDDLE
        s.wins = [0, 0]
        s.active = -1
        s.sym = 0
        s.moved = 0
        s.stay_ready = False
        s.p_target = s.p_dir = s.p_attack = -1
        s.result = None
        s.pick = -1
        s.starter = rng.below(2)
        s.current = s.starter
        if lineup is None:
            deal = list(range(len(pool)))
            rng.shuffle(deal)
            half = len(deal) // 2
            s.hands = [deal[:half], deal[half:]]
            s.kept = [[], []]
            s.lineup = [[], []]
            s.set_lineup()
            s.phase = DRAFT
            s.current = 0
        else:
            s.hands = [[], []]
            s.kept = [[], []]
            s.lineup = [list(lineup[0]), list(lineup[1])]
            s.set_lineup()
            s.phase = PLACE
        return s

    def set_lineup(self) -> None:
        """Build the per-label tables (cards turned to face their owner)."""
        if not self.lineup[0]:
            self.lab = ()
            self.atk = self.hrt = self.rest_moves = ()
            self.has_aura_attack = self.has_aura_heart = False
            return
        lab = tuple(self.cards[i] for seat in (0, 1) for i in self.lineup[seat])
        self.lab = lab
        # seat 1's cards are turned 180°: its printed north edge faces board south
        self.atk = tuple(tuple(c.attack[(d + 2 * (i >= 3)) % 4] for d in range(4)) for i, c in enumerate(lab))
        self.hrt = tuple(tuple(c.heart[(d + 2 * (i >= 3)) % 4] for d in range(4)) for i, c in enumerate(lab))
        self.rest_moves = tuple(
            tuple(sum(1 for s in c.symbols[j + 1 :] if s & MOVE) for j in range(len(c.symbols))) for c in lab
        )
        self.has_aura_attack = any(c.behaviour.aura_attack for c in lab)
        self.has_aura_heart = any(c.behaviour.aura_heart for c in lab)

    def _num_players(self) -> int:
        return 2

    # --------------------------------------------------------------- protocol
    def to_act(self) -> Decision | None:
        ph = self.phase
        if ph == SYMBOL:
            return SYMBOL_DECISIONS[self.lab[self.active].symbols[self.sym]][self.current]
        if ph == OVER:
            return None
        return DECISIONS[ph][self.current]

    def outcome(self) -> Outcome | None:
        return self.result

    def _legal_actions(self) -> tuple[Action, ...]:
        ph = self.phase
        if ph == TURN:
            mask = self.onboard & ~self.exhausted & SEAT_MASK[self.current]
            return _TURN_ACTIONS[mask] if mask else _FORCED_REST
        if ph == SYMBOL:
            return symbol_options(self)
        if ph == PLACE:
            return placements(self)
        if ph == EDGE:
            return tuple(A.HIT[d] for d in edge_options(self))
        if ph == DRAFT:
            return A.KEEP[: len(self.hands[self.current])]
        return _EMPTY

    # ------------------------------------------------------------------ apply
    def _apply(self, action: Action) -> list[Event]:
        ev: list[Event] = []
        ph = self.phase
        if ph == SYMBOL:
            self._take_symbol(action, ev)
        elif ph == TURN:
            if action is A.REST:
                self._rest(ev)
            else:
                self._activate(A.ACTIVATE_LABEL[action], ev)
        elif ph == PLACE:
            self._place(action, ev)
        elif ph == EDGE:
            self.phase = SYMBOL
            self._resolve(self.active, self.p_target, self.p_dir, A.HIT_SIDE[action], self.p_attack, ev)
        elif ph == DRAFT:
            self._keep(A.KEEP_INDEX[action], ev)
        else:  # pragma: no cover - apply() never reaches here for a finished game
            raise AssertionError(f"no decision pending in phase {ph}")
        return ev

    # -- draft
    def _keep(self, i: int, ev: list[Event]) -> None:
        me = self.current
        name = self.cards[self.hands[me][i]].name
        ev.append(Event("draft_keep", {"player": me, "name": name}, frozenset((me,))))
        ev.append(Event("draft_pick", {"player": me}))
        if me == 0:
            self.pick = i
            self.current = 1
            return
        self.kept[0].append(self.hands[0].pop(self.pick))
        self.kept[1].append(self.hands[1].pop(i))
        self.pick = -1
        if len(self.kept[0]) == 3:
            self.lineup = [self.kept[0][:], self.kept[1][:]]
            self.hands = [[], []]
            self.kept = [[], []]
            self.set_lineup()
            ev.append(Event("draft_done", {"lineups": [[self.lab[3 * p + j].name for j in range(3)] for p in (0, 1)]}))
            self.phase = PLACE
            self.current = self.starter
            ev.append(Event("round_start", {"round": self.round, "starter": self.starter}))
            return
        self.hands = [self.hands[1], self.hands[0]]
        self.current = 0
        ev.append(Event("draft_pass", {"hand_size": len(self.hands[0])}))

    # -- placement
    def _place(self, action: Action, ev: list[Event]) -> None:
        first = A.PLACE_FIRST_LABEL.get(action)
        if first is not None:
            x, k = first, 0
        else:
            x, y, d = A.PLACE_AT_ARGS[action]
            k = self.pos[y] + DELTA[d]
        self.pos[x] = k
        self.grid[k] = x
        bit = 1 << x
        self.placed |= bit
        self.onboard |= bit
        cx, cy = coords(k)
        ev.append(Event("place", {"player": self.current, "card": LABELS[x], "name": self.lab[x].name,
                                  "x": cx, "y": cy}))
        if self.placed == ALL_SIX:
            self.phase = TURN
            self.current = self.starter
            ev.append(Event("battle", {"player": self.current}))
        else:
            self.current ^= 1

    # -- battle turn
    def _rest(self, ev: list[Event]) -> None:
        me = self.current
        mine = self.exhausted & SEAT_MASK[me]
        self.exhausted &= ~mine
        ev.append(Event("rest", {"player": me, "cards": list(_MASK_LABELS[mine])}))
        end_turn(self, ev)

    def _activate(self, a: int, ev: list[Event]) -> None:
        self.active = a
        self.sym = -1
        self.moved = 0
        self.stay_ready = False
        ev.append(Event("activate", {"player": self.current, "card": LABELS[a], "name": self.lab[a].name}))
        self._next_symbol(ev)

    def _next_symbol(self, ev: list[Event]) -> None:
        """Advance to the next symbol that offers a real choice, or end the activation."""
        a = self.active
        symbols = self.lab[a].symbols
        while True:
            self.sym += 1
            if self.sym >= len(symbols):
                self._end_activation(ev)
                return
            opts = symbol_options(self)
            if opts != _ONLY_SKIP:
                self.phase = SYMBOL
                self._legal = opts
                return
            ev.append(Event("skip", {"player": self.current, "card": LABELS[a],
                                     "symbol": SYMBOL_NAMES[symbols[self.sym]], "forced": True}))

    def _take_symbol(self, action: Action, ev: list[Event]) -> None:
        a = self.active
        if action is A.SKIP:
            ev.append(Event("skip", {"player": self.current, "card": LABELS[a],
                                     "symbol": SYMBOL_NAMES[self.lab[a].symbols[self.sym]], "forced": False}))
            self._next_symbol(ev)
            return
        d = A.MOVE_DIR.get(action)
        if d is not None:
            self._move(a, d, ev)
            return
        self._punch(a, A.PUNCH_DIR[action], ev)

    def _move(self, a: int, d: int, ev: list[Event]) -> None:
        grid = self.grid
        here = self.pos[a]
        nb = here + DELTA[d]
        if nb in grid:
            shove(self, a, nb, d, ev)
        del grid[here]
        grid[nb] = a
        self.pos[a] = nb
        self.moved += 1
        x, y = coords(nb)
        ev.append(Event("move", {"player": self.current, "card": LABELS[a], "dir": DIRS[d], "x": x, "y": y}))
        after_move(self, a, ev)
        self._next_symbol(ev)

    def _punch(self, a: int, d: int, ev: list[Event]) -> None:
        t = self.grid[self.pos[a] + DELTA[d]]
        attack = attack_value(self, a, t, d)
        if self.exhausted >> t & 1:
            self.p_target = t
            self.p_dir = d
            if len(edge_options(self)) > 1:
                self.p_attack = attack
                self.phase = EDGE
                return
        self._resolve(a, t, d, OPP[d], attack, ev)

    def knocks_out(self, attack: int, heart: int) -> bool:
        """Whether a punch of ``attack`` against ``heart`` knocks the card out: a higher attack,
        or an equal one under the ``knockout_on_tie`` house rule."""
        return attack > heart or (attack == heart and self.knockout_on_tie)

    def _resolve(self, a: int, t: int, d: int, side: int, attack: int, ev: list[Event]) -> None:
        self.p_target = self.p_dir = self.p_attack = -1
        heart = heart_value(self, t, side)
        ko = self.knocks_out(attack, heart)
        me = self.current
        lab = self.lab
        ev.append(Event("punch", {"player": me, "card": LABELS[a], "name": lab[a].name, "target": LABELS[t],
                                  "target_name": lab[t].name, "dir": DIRS[d], "side": DIRS[side], "attack": attack,
                                  "heart": heart, "ko": ko}))
        tcell = self.pos[t]
        if ko:
            self.onboard &= ~(1 << t)
            self.exhausted &= ~(1 << t)
            del self.grid[tcell]
            ev.append(Event("knockout", {"card": LABELS[t], "name": lab[t].name, "owner": int(t >= 3)}))
        knock_back(self, a, tcell, d, ev)
        after_punch(self, a, t, ko, ev)
        if ko:
            on = self.onboard
            for seat in (0, 1):
                if not on & SEAT_MASK[seat]:
                    end_round(self, 1 - seat, "no cards left", ev)
                    return
        self._next_symbol(ev)

    def _end_activation(self, ev: list[Event]) -> None:
        a = self.active
        if self.stay_ready:
            ev.append(Event("stays_ready", {"card": LABELS[a], "name": self.lab[a].name}))
        else:
            self.exhausted |= 1 << a
        self.active = -1
        self.sym = 0
        self.moved = 0
        self.stay_ready = False
        end_turn(self, ev)

    # ------------------------------------------------------------------ views
    def observe(self, player: int | None) -> V.KnockbackView:
        return V.observe(self, player)

    # ------------------------------------------------------------------ search
    def turns(self) -> int | None:
        return self.turn

    def clone(self) -> KnockbackState:
        s = KnockbackState()
        s._legal = self._legal
        s.whole_line = self.whole_line
        s.knockout_on_tie = self.knockout_on_tie
        s.alternate_starts = self.alternate_starts
        s.scoring = self.scoring
        s.best_of = self.best_of
        s.need = self.need
        s.max_turns = self.max_turns
        s.max_rounds = self.max_rounds
        s.cards = self.cards
        s.hands = self.hands if self.phase != DRAFT else [self.hands[0][:], self.hands[1][:]]
        s.kept = self.kept if self.phase != DRAFT else [self.kept[0][:], self.kept[1][:]]
        s.pick = self.pick
        s.lineup = self.lineup  # replaced, never mutated
        s.lab = self.lab
        s.atk = self.atk
        s.hrt = self.hrt
        s.rest_moves = self.rest_moves
        s.has_aura_attack = self.has_aura_attack
        s.has_aura_heart = self.has_aura_heart
        s.pos = self.pos[:]
        s.grid = self.grid.copy()
        s.placed = self.placed
        s.onboard = self.onboard
        s.exhausted = self.exhausted
        s.phase = self.phase
        s.current = self.current
        s.turn = self.turn
        s.round = self.round
        s.starter = self.starter
        s.token = self.token
        s.wins = self.wins[:]
        s.active = self.active
        s.sym = self.sym
        s.moved = self.moved
        s.stay_ready = self.stay_ready
        s.p_target = self.p_target
        s.p_dir = self.p_dir
        s.p_attack = self.p_attack
        s.result = self.result
        s.rng = self.rng.copy()
        return s

    def determinize(self, player: int, rng: Rng) -> KnockbackState:
        return search.determinize(self, player, rng)

    # ------------------------------------------------------------------ serde
    def to_dict(self) -> dict[str, Any]:
        return serde.to_dict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> KnockbackState:
        return serde.from_dict(cls, d)


_ONLY_SKIP: Final[tuple[Action, ...]] = (A.SKIP,)
