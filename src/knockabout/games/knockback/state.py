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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from knockabout.core.actions import Action
from knockabout.core.events import Event
from knockabout.core.protocol import Decision, Game, Outcome, State
from knockabout.core.rng import Rng
from knockabout.games.knockback import actions as A
from knockabout.games.knockback import view as V
from knockabout.games.knockback.actions import LABELS
from knockabout.games.knockback.cards import DIRS, MOVE, PUNCH, SYMBOL_NAMES, Card, compile_card
from knockabout.games.knockback.effects import (
    after_move,
    after_punch,
    attack_value,
    heart_value,
    knockback_cells,
    may_shove,
    stopper,
)
from knockabout.games.knockback.grid import DELTA, HALF, OPP, STEP, STRIDE, cell, coords
from knockabout.games.knockback.phases import (
    ALL_SIX,
    BEST_OF,
    DECISIONS,
    DRAFT,
    EDGE,
    MIDDLE,
    OVER,
    PLACE,
    SCORING_NAMES,
    SEAT_MASK,
    SPEED,
    SYMBOL,
    SYMBOL_DECISIONS,
    TUG,
    TURN,
    bits,
)

# legal actions of a battle turn, by the mask of the current player's rested cards on the grid
_TURN_ACTIONS: Final = {
    mask: (*(A.ACTIVATE[i] for i in bits(mask)), A.REST) for mask in range(64)
}
_FORCED_REST: Final = (A.REST,)
_MASK_LABELS: Final = tuple(tuple(LABELS[i] for i in bits(mask)) for mask in range(64))
_EMPTY: tuple[Action, ...] = ()


class KnockbackState(State):
    """A position of a KNOCKBACK match. Build with ``KnockbackGame.new_state``."""

    __slots__ = (
        "active",
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

    whole_line: bool
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

    # ------------------------------------------------------------------ setup
    @classmethod
    def start(
        cls,
        *,
        pool: Sequence[Card],
        lineup: Sequence[Sequence[int]] | None,
        whole_line: bool,
        scoring: str,
        best_of: int,
        max_turns: int,
        max_rounds: int,
        rng: Rng,
    ) -> KnockbackState:
        """A new match. ``lineup`` gives each seat's three pool indices, or None for a
        draft of the whole pool (each seat is dealt half; drafting stops once each seat
        has kept three cards, so a 12-card pool leaves three in each hand)."""
        s = cls.__new__(cls)
        s._legal = None
        s.whole_line = whole_line
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
            s._set_lineup()
            s.phase = DRAFT
            s.current = 0
        else:
            s.hands = [[], []]
            s.kept = [[], []]
            s.lineup = [list(lineup[0]), list(lineup[1])]
            s._set_lineup()
            s.phase = PLACE
        return s

    def _set_lineup(self) -> None:
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
            return self._symbol_options()
        if ph == PLACE:
            return self._placements()
        if ph == EDGE:
            return tuple(A.HIT[d] for d in self.edge_options())
        if ph == DRAFT:
            return A.KEEP[: len(self.hands[self.current])]
        return _EMPTY

    # -- placement
    def _placements(self) -> tuple[Action, ...]:
        base = 3 * self.current
        unplaced = [x for x in range(base, base + 3) if not self.placed >> x & 1]
        if not self.placed:
            return tuple(A.PLACE_FIRST[x] for x in unplaced)
        grid = self.grid
        pos = self.pos
        seen: set[int] = set()
        spots: list[tuple[int, int]] = []
        for y in range(6):
            if self.onboard >> y & 1:
                here = pos[y]
                for d in range(4):
                    c = here + DELTA[d]
                    if c not in grid and c not in seen:
                        seen.add(c)
                        spots.append((y, d))
        at = A.PLACE_AT
        return tuple(at[x][y][d] for x in unplaced for y, d in spots)  # type: ignore[misc]

    # -- activation
    def _others(self) -> list[tuple[int, int]]:
        a = self.active
        on = self.onboard
        pos = self.pos
        out = []
        for i in range(6):
            if on >> i & 1 and i != a:
                k = pos[i]
                x = (k + HALF) >> 32
                out.append((x, k - x * STRIDE))
        return out

    def _symbol_options(self) -> tuple[Action, ...]:
        """Moves, punches and skip for the active card's current symbol.

        A move is offered when the card can still end next to another card with the
        MOVE symbols left after it. Every cell nearer than the closest other card is
        empty, so a shortest path to that card is free: the card can end next to one
        exactly when some other card is at most (moves left + 1) steps away.
        """
        a = self.active
        card = self.lab[a]
        sym = card.symbols[self.sym]
        lim = self.rest_moves[a][self.sym] + 1
        grid = self.grid
        here = self.pos[a]
        hx = (here + HALF) >> 32
        hy = here - hx * STRIDE
        others = self._others()
        skip_ok = False
        for x, y in others:
            if abs(x - hx) + abs(y - hy) <= lim:
                skip_ok = True
                break
        out: list[Action] = []
        if sym & MOVE:
            free: list[Action] = []
            for d in range(4):
                nb = here + DELTA[d]
                if nb in grid:
                    # a shove always ends next to the card it pushed
                    if may_shove(self, a) and stopper(self, self._beyond(nb, d)) < 0:
                        out.append(A.MOVE[d])
                    continue
                dx, dy = STEP[d]
                cx = hx + dx
                cy = hy + dy
                for x, y in others:
                    if abs(x - cx) + abs(y - cy) <= lim:
                        out.append(A.MOVE[d])
                        break
                else:
                    free.append(A.MOVE[d])
            if not out and not skip_ok:
                # no way left to end next to a card: the requirement lapses
                out = free
                skip_ok = True
        if sym & PUNCH:
            for d in range(4):
                if here + DELTA[d] in grid:
                    out.append(A.PUNCH[d])
        if skip_ok or not (sym & MOVE):
            out.append(A.SKIP)
        return tuple(out)

    def edge_options(self) -> list[int]:
        """The sides of the exhausted target that may take the punch: the one facing the
        attacker, and every free side (no card next to it)."""
        t = self.p_target
        facing = OPP[self.p_dir]
        tp = self.pos[t]
        grid = self.grid
        return [d for d in range(4) if d == facing or tp + DELTA[d] not in grid]

    # -- lines of cards
    def _beyond(self, start: int, d: int) -> list[int]:
        """Labels on the grid in ``start``'s row/column at or beyond ``start`` towards ``d``."""
        out = []
        pos = self.pos
        on = self.onboard
        if d == 0 or d == 2:
            xc = (start + HALF) >> 32
            for i in range(6):
                if on >> i & 1:
                    k = pos[i]
                    if (k + HALF) >> 32 == xc and (k >= start if d == 0 else k <= start):
                        out.append(i)
        else:
            for i in range(6):
                if on >> i & 1:
                    k = pos[i]
                    if (k - start) % STRIDE == 0 and (k >= start if d == 1 else k <= start):
                        out.append(i)
        return out

    def _whole_line(self, start: int, d: int) -> list[int]:
        """Every label on the grid in ``start``'s column (d = N/S) or row (d = E/W)."""
        pos = self.pos
        on = self.onboard
        if d == 0 or d == 2:
            xc = (start + HALF) >> 32
            return [i for i in range(6) if on >> i & 1 and (pos[i] + HALF) >> 32 == xc]
        return [i for i in range(6) if on >> i & 1 and (pos[i] - start) % STRIDE == 0]

    def _shift(self, group: list[int], d: int, cells: int) -> None:
        grid = self.grid
        pos = self.pos
        delta = DELTA[d] * cells
        for i in group:
            del grid[pos[i]]
        for i in group:
            k = pos[i] + delta
            pos[i] = k
            grid[k] = i

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
            self._set_lineup()
            ev.append(
                Event(
                    "draft_done",
                    {"lineups": [[self.lab[3 * p + j].name for j in range(3)] for p in (0, 1)]},
                )
            )
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
        ev.append(
            Event("place", {"player": self.current, "card": LABELS[x], "name": self.lab[x].name, "x": cx, "y": cy})
        )
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
        self._end_turn(ev)

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
            opts = self._symbol_options()
            if opts != _ONLY_SKIP:
                self.phase = SYMBOL
                self._legal = opts
                return
            ev.append(
                Event(
                    "skip",
                    {"player": self.current, "card": LABELS[a], "symbol": SYMBOL_NAMES[symbols[self.sym]],
                     "forced": True},
                )
            )

    def _take_symbol(self, action: Action, ev: list[Event]) -> None:
        a = self.active
        if action is A.SKIP:
            ev.append(
                Event(
                    "skip",
                    {"player": self.current, "card": LABELS[a],
                     "symbol": SYMBOL_NAMES[self.lab[a].symbols[self.sym]], "forced": False},
                )
            )
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
            group = self._beyond(nb, d)
            self._shift(group, d, 1)
            ev.append(Event("shove", {"card": LABELS[a], "dir": DIRS[d], "cards": [LABELS[i] for i in group]}))
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
            if len(self.edge_options()) > 1:
                self.p_attack = attack
                self.phase = EDGE
                return
        self._resolve(a, t, d, OPP[d], attack, ev)

    def _resolve(self, a: int, t: int, d: int, side: int, attack: int, ev: list[Event]) -> None:
        self.p_target = self.p_dir = self.p_attack = -1
        heart = heart_value(self, t, side)
        ko = attack > heart
        me = self.current
        lab = self.lab
        ev.append(
            Event(
                "punch",
                {"player": me, "card": LABELS[a], "name": lab[a].name, "target": LABELS[t],
                 "target_name": lab[t].name, "dir": DIRS[d], "side": DIRS[side],
                 "attack": attack, "heart": heart, "ko": ko},
            )
        )
        tcell = self.pos[t]
        if ko:
            self.onboard &= ~(1 << t)
            self.exhausted &= ~(1 << t)
            del self.grid[tcell]
            ev.append(Event("knockout", {"card": LABELS[t], "name": lab[t].name, "owner": int(t >= 3)}))
        cells = knockback_cells(self, a)
        if cells:
            group = self._whole_line(tcell, d) if self.whole_line else self._beyond(tcell, d)
            if group:
                held = stopper(self, group)
                if held >= 0:
                    ev.append(Event("knockback_held", {"card": LABELS[held], "name": lab[held].name}))
                else:
                    self._shift(group, d, cells)
                    ev.append(
                        Event("knockback", {"cards": [LABELS[i] for i in group], "dir": DIRS[d], "cells": cells})
                    )
        after_punch(self, a, t, ko, ev)
        if ko:
            on = self.onboard
            for seat in (0, 1):
                if not on & SEAT_MASK[seat]:
                    self._end_round(1 - seat, "no cards left", ev)
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
        self._end_turn(ev)

    def _end_turn(self, ev: list[Event]) -> None:
        self.turn += 1
        if self.turn >= self.max_turns:
            on = self.onboard
            left = (bin(on & 7).count("1"), bin(on >> 3).count("1"))
            winner = -1 if left[0] == left[1] else int(left[1] > left[0])
            self._end_round(winner, f"turn limit ({self.max_turns}) reached", ev)
            return
        self.current ^= 1
        self.phase = TURN
        ev.append(Event("turn", {"player": self.current, "turn": self.turn}))

    # -- rounds and the match
    def _end_round(self, winner: int, reason: str, ev: list[Event]) -> None:
        self.active = -1
        self.sym = 0
        self.moved = 0
        self.stay_ready = False
        if winner >= 0:
            self.wins[winner] += 1
        done = -2  # -2: match goes on; -1: drawn; else the match winner
        if self.scoring == SPEED:
            done = winner
        elif self.scoring == BEST_OF:
            if winner >= 0 and self.wins[winner] >= self.need:
                done = winner
        elif winner >= 0:
            if self.token == winner:
                done = winner
            elif self.token == MIDDLE:
                self.token = winner
            else:
                self.token = MIDDLE
        ev.append(
            Event(
                "round_over",
                {"round": self.round, "winner": None if winner < 0 else winner, "reason": reason,
                 "token": None if self.token == MIDDLE else self.token, "wins": list(self.wins)},
            )
        )
        why = ""
        if done == -2 and self.round >= self.max_rounds:
            if self.scoring == TUG:
                done = self.token
            else:
                done = -1 if self.wins[0] == self.wins[1] else int(self.wins[1] > self.wins[0])
            why = f"round limit ({self.max_rounds}) reached"
        if done >= 0:
            how = {TUG: "won with the score token", SPEED: "won the round", BEST_OF: "won the most rounds"}
            self.result = Outcome.win(done, 2, why or how[self.scoring])
        elif done == -1:
            self.result = Outcome.shared((0, 1), 2, why or "drawn round")
        if self.result is not None:
            self.phase = OVER
            ev.append(
                Event(
                    "game_over",
                    {"winners": list(self.result.winners), "draw": self.result.draw, "reason": self.result.reason},
                )
            )
            return
        self.starter = (1 - winner) if winner >= 0 else (1 - self.starter)
        self.round += 1
        self.pos = [0] * 6
        self.grid = {}
        self.placed = self.onboard = self.exhausted = 0
        self.turn = 0
        self.phase = PLACE
        self.current = self.starter
        ev.append(Event("round_start", {"round": self.round, "starter": self.starter}))

    # ------------------------------------------------------------------ views
    def observe(self, player: int | None) -> V.KnockbackView:
        return V.observe(self, player)

    # ------------------------------------------------------------------ search
    def turns(self) -> int | None:
        return self.turn

    def clone(self) -> KnockbackState:
        s = KnockbackState.__new__(KnockbackState)
        s._legal = self._legal
        s.whole_line = self.whole_line
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
        r = Rng.__new__(Rng)
        r.state = self.rng.state
        s.rng = r
        return s

    def determinize(self, player: int, rng: Rng) -> KnockbackState:
        """Only a draft hides anything: the opponent's hand and kept cards are re-dealt
        from the cards ``player`` does not hold."""
        s = self.clone()
        s._legal = None
        if self.phase == DRAFT:
            o = 1 - player
            unknown = s.hands[o] + s.kept[o]
            rng.shuffle(unknown)
            n = len(s.hands[o])
            s.hands[o] = unknown[:n]
            s.kept[o] = unknown[n:]
        s.rng = Rng(rng.next64())
        return s

    # ------------------------------------------------------------------ serde
    def to_dict(self) -> dict[str, Any]:
        return {
            "whole_line": self.whole_line,
            "scoring": SCORING_NAMES[self.scoring],
            "best_of": self.best_of,
            "max_turns": self.max_turns,
            "max_rounds": self.max_rounds,
            "cards": [c.data for c in self.cards],
            "hands": [list(h) for h in self.hands],
            "kept": [list(k) for k in self.kept],
            "pick": self.pick,
            "lineup": [list(x) for x in self.lineup],
            "pos": [list(coords(k)) for k in self.pos],
            "placed": self.placed,
            "onboard": self.onboard,
            "exhausted": self.exhausted,
            "phase": self.phase,
            "current": self.current,
            "turn": self.turn,
            "round": self.round,
            "starter": self.starter,
            "token": self.token,
            "wins": list(self.wins),
            "active": self.active,
            "sym": self.sym,
            "moved": self.moved,
            "stay_ready": self.stay_ready,
            "p_target": self.p_target,
            "p_dir": self.p_dir,
            "p_attack": self.p_attack,
            "result": None if self.result is None else self.result.to_dict(),
            "rng": self.rng.state,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> KnockbackState:
        s = cls.__new__(cls)
        s._legal = None
        s.whole_line = bool(d["whole_line"])
        s.scoring = SCORING_NAMES.index(d["scoring"])
        s.best_of = int(d["best_of"])
        s.need = (s.best_of + 1) // 2
        s.max_turns = int(d["max_turns"])
        s.max_rounds = int(d["max_rounds"])
        s.cards = tuple(compile_card(c) for c in d["cards"])
        s.hands = [[int(x) for x in h] for h in d["hands"]]
        s.kept = [[int(x) for x in k] for k in d["kept"]]
        s.lineup = [[int(x) for x in seat] for seat in d["lineup"]]
        s._set_lineup()
        s.pos = [cell(int(x), int(y)) for x, y in d["pos"]]
        for name in (
            "pick", "placed", "onboard", "exhausted", "phase", "current", "turn", "round", "starter",
            "token", "active", "sym", "moved", "p_target", "p_dir", "p_attack",
        ):
            setattr(s, name, int(d[name]))
        s.grid = {s.pos[i]: i for i in range(6) if s.onboard >> i & 1}
        s.wins = [int(x) for x in d["wins"]]
        s.stay_ready = bool(d["stay_ready"])
        r = d["result"]
        s.result = (
            None
            if r is None
            else Outcome(tuple(r["winners"]), tuple(r["payoffs"]), bool(r["draw"]), r["reason"])
        )
        s.rng = Rng(int(d["rng"]))
        if s.phase == SYMBOL:
            s._legal = None
        return s


_ONLY_SKIP: Final = (A.SKIP,)
