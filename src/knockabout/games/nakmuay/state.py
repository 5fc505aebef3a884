"""The rules of Nak Muay Knockout as a :class:`~knockabout.core.protocol.State`.

Representation (chosen for fast legal-action generation, apply and clone):

* a hand is a list of counts per card kind (see :mod:`.cards`);
* the draw pile is a list of ints, top card last; each entry is
  ``kind | (known_by << 4)`` where ``known_by`` is a bit mask of the seats that
  know exactly which card lies there (seen with Scout or placed when hiding a KO);
* every pending reaction is a phase with one deciding seat (see :mod:`.phases`).

This module holds the turn's structure: the action phase, draws and KOs, knock-outs
and the end of a turn. The answers to a play resolve in :mod:`.reactions`; the view
is built in :mod:`.view`, determinizations in :mod:`.search`, the saved form in
:mod:`.serde`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from knockabout.core.actions import Action
from knockabout.core.events import Event, private, public
from knockabout.core.protocol import Decision, Game, Outcome, State
from knockabout.core.rng import Rng
from knockabout.games.nakmuay import actions as A
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay import reactions, search, serde
from knockabout.games.nakmuay import view as V
from knockabout.games.nakmuay.phases import (
    ACTION,
    ATTACK_REACT,
    BUSY,
    COUNTDOWN,
    DECISIONS,
    HIDE_KO,
    KIND_MASK,
    KO_BLOCK,
    ONLY,
    OVER,
    PHASE_NAMES,
    PHASE_PROMPTS,
    SCOUT_ORDER,
    SCOUT_TAKE,
    STEAL_PAIR,
    STEAL_TARGET,
    STEAL_TRIPLE,
    SWEEP_DIR,
    THEN_ATTACKER_DRAW,
    THEN_END_TURN,
    TRIPLE_NAME,
)

__all__ = [  # the phases are re-exported: tests and tools build positions by them
    "ACTION", "ATTACK_REACT", "BUSY", "COUNTDOWN", "HIDE_KO", "KO_BLOCK", "OVER", "PHASE_NAMES", "PHASE_PROMPTS",
    "SCOUT_ORDER", "SCOUT_TAKE", "STEAL_PAIR", "STEAL_TARGET", "STEAL_TRIPLE", "SWEEP_DIR", "THEN_ATTACKER_DRAW",
    "THEN_END_TURN", "TRIPLE_NAME", "NakMuayState",
]

_EMPTY: Final[tuple[Action, ...]] = ()
_MOVES_CACHE: Final[dict[tuple[int, ...], tuple[Action, ...]]] = {}
# the Countdown's decisions, shared by seat and length (the others: phases.DECISIONS)
_TIMED_DECISIONS: Final[dict[tuple[int, float | None], Decision]] = {}
# the cards dealt from (all but the KOs and Countdowns), in kind order: built once, not at every deal
_BASE_DECK: Final[tuple[int, ...]] = tuple(
    k for k in range(C.NUM_KINDS) if k not in (C.KO, C.COUNTDOWN) for _ in range(C.COPIES[k])
)
# a draw's two events (a third of all events), by seat and card kind: events are immutable,
# so each is built once and shared instead of made at every draw
_DRAW: Final[tuple[Event, ...]] = tuple(public("draw", player=p) for p in range(A.MAX_SEATS))
_DREW: Final[tuple[tuple[Event, ...], ...]] = tuple(
    tuple(private(ONLY[p], "drew", player=p, card=C.NAMES[k]) for k in range(C.NUM_KINDS)) for p in range(A.MAX_SEATS)
)


def _moves_for_hand(hand: list[int]) -> tuple[Action, ...]:
    moves = [A.DRAW]
    if hand[C.ATTACK1]:
        moves.append(A.ATTACK[C.ATTACK1])
    if hand[C.ATTACK2]:
        moves.append(A.ATTACK[C.ATTACK2])
    if hand[C.ATTACK3]:
        moves.append(A.ATTACK[C.ATTACK3])
    if hand[C.COUNTDOWN]:
        moves.append(A.COUNTDOWN)
    if hand[C.DODGE]:
        moves.append(A.DODGE)
    if hand[C.SCOUT]:
        moves.append(A.SCOUT)
    if hand[C.SWEEP]:
        moves.append(A.SWEEP)
    held = [h for h in C.HOLDS if hand[h]]
    for h in held:
        if hand[h] >= 2:
            moves.append(A.PAIR[h])
    if len(held) >= 3:
        for combo, act in A.TRIPLE.items():
            if hand[combo[0]] and hand[combo[1]] and hand[combo[2]]:
                moves.append(act)
    return tuple(moves)


class NakMuayState(State):
    """A position of Nak Muay Knockout. Build with ``NakMuayGame.new_state``."""

    __slots__ = (
        "absent", "active", "attack_value", "countdown_live", "current", "decider", "direction", "discard",
        "draw_player", "draws_left", "hands", "in_play", "limbo_ko", "max_turns", "n", "n_active", "named",
        "phase", "pile", "result", "rng", "scout_cards", "seconds", "sizes", "steal_kind", "steal_target",
        "strict", "target", "then", "turn",
    )

    game: ClassVar[Game[Any]]
    shared_on_clone: ClassVar[frozenset[str]] = frozenset({"in_play"})  # never changed after the deal

    n: int
    strict: bool
    seconds: float | None  # the Countdown's window; None: the target has the table's time per move
    max_turns: int
    in_play: list[int]
    hands: list[list[int]]
    sizes: list[int]
    pile: list[int]
    discard: list[int]
    active: list[bool]
    n_active: int
    current: int
    direction: int
    turn: int
    phase: int
    decider: int
    target: int
    attack_value: int
    draw_player: int
    draws_left: int
    then: int
    limbo_ko: bool
    countdown_live: bool
    scout_cards: list[int]
    steal_kind: int
    steal_target: int
    named: int
    absent: list[int]
    result: Outcome | None
    rng: Rng

    def __init__(self) -> None:
        """An empty shell that the constructors below fill in (a plain constructor, not
        ``cls.__new__``, so that the mypyc build compiles the same source); its cache of
        legal actions starts empty."""
        self._legal = None

    # ------------------------------------------------------------------ setup
    @classmethod
    def deal(
        cls, players: int, strict: bool, seconds: float | None, max_turns: int, seed: int, starting_block: bool = False,
        hand_size: int = C.HAND_SIZE, extra_kos: int = 0,
    ) -> NakMuayState:
        """A fresh game (``starting_block``: the house rule, a Block for everyone out of the deck;
        ``hand_size``: the house rule, how many cards each is dealt; ``extra_kos``: the house
        rule, more KO cards in the pile)."""
        s = cls()
        s.n = players
        s.strict = strict
        s.seconds = seconds
        s.max_turns = max_turns
        s.rng = Rng(seed)
        s.in_play = C.in_play_counts(players)
        s.in_play[C.KO] += extra_kos  # (saved with the game, so a reload needs no option)
        base = list(_BASE_DECK)
        for _ in range(players if starting_block else 0):
            base.remove(C.BLOCK)
        s.rng.shuffle(base)
        s.hands = [[0] * C.NUM_KINDS for _ in range(players)]
        for p in range(players):
            for _ in range(hand_size):
                s.hands[p][base.pop()] += 1
            s.hands[p][C.BLOCK] += starting_block
        base += [C.KO] * s.in_play[C.KO] + [C.COUNTDOWN] * s.in_play[C.COUNTDOWN]
        s.rng.shuffle(base)
        s.pile = base
        s.sizes = [hand_size + starting_block] * players
        s.discard = []
        s.active = [True] * players
        s.n_active = players
        s.current = s.rng.below(players)
        s.direction = 1
        s.turn = 1
        s.phase = ACTION
        s.decider = s.current
        s.target = -1
        s.attack_value = 0
        s.draw_player = -1
        s.draws_left = 0
        s.then = THEN_END_TURN
        s.limbo_ko = False
        s.countdown_live = False
        s.scout_cards = []
        s.steal_kind = 0
        s.steal_target = -1
        s.named = 0
        s.absent = [0] * players
        s.result = None
        return s

    def _num_players(self) -> int:
        return self.n

    # --------------------------------------------------------------- protocol
    def to_act(self) -> Decision | None:
        phase = self.phase
        if phase == OVER:
            return None
        if phase == COUNTDOWN:  # the only decision with a time limit: the table's Countdown length (or none)
            timed = (self.decider, self.seconds)
            decision = _TIMED_DECISIONS.get(timed)
            if decision is None:
                if len(_TIMED_DECISIONS) > 10_000:
                    _TIMED_DECISIONS.clear()
                decision = _TIMED_DECISIONS[timed] = Decision(
                    self.decider, "countdown_response", self.seconds, A.NO_RESPONSE, PHASE_PROMPTS[phase]
                )
            return decision
        return DECISIONS[phase][self.decider]

    def outcome(self) -> Outcome | None:
        return self.result

    def _legal_actions(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase == ACTION:
            return self._action_phase_moves()
        if phase == ATTACK_REACT:
            if self.hands[self.decider][C.DODGE]:
                return (A.DODGE, A.TAKE)
            return (A.TAKE,)
        if phase == KO_BLOCK:
            return (A.BLOCK,)
        if phase == HIDE_KO:
            return A.HIDE[: len(self.pile) + 1]
        if phase == COUNTDOWN:
            hand = self.hands[self.decider]
            moves = [A.NO_RESPONSE]
            if hand[C.BLOCK]:
                moves.append(A.BLOCK)
            if hand[C.DODGE]:
                moves.append(A.DODGE)
            for h in C.HOLDS:
                if hand[h]:
                    moves.append(A.CLINCH[h])
            return tuple(moves)
        if phase == SCOUT_TAKE:
            takes = tuple(A.SCOUT_TAKE[i] for i, k in enumerate(self.scout_cards) if k != C.KO)
            return takes or (A.SCOUT_TAKE_NONE,)
        if phase == SCOUT_ORDER:
            return A.ORDER[len(self.scout_cards)]
        if phase == SWEEP_DIR:
            return (A.KEEP, A.REVERSE)
        if phase == STEAL_TARGET:
            me = self.current
            act = self.active
            return tuple(A.TARGET[p] for p in range(self.n) if p != me and act[p])
        if phase == TRIPLE_NAME:
            named = self.named
            return (*tuple(A.NAME[k] for k in C.NAMEABLE if not named >> k & 1), A.TAKE_RANDOM)
        return _EMPTY

    def _action_phase_moves(self) -> tuple[Action, ...]:
        hand = self.hands[self.current]
        key = tuple(hand)
        moves = _MOVES_CACHE.get(key)
        if moves is None:
            if len(_MOVES_CACHE) > 200_000:
                _MOVES_CACHE.clear()
            moves = _MOVES_CACHE[key] = _moves_for_hand(hand)
        return moves

    # ------------------------------------------------------------------ apply
    def _apply(self, action: Action) -> list[Event]:
        ev: list[Event] = []
        phase = self.phase
        self.phase = BUSY
        if phase == ACTION:
            self._act(action, ev)
        elif phase == ATTACK_REACT:
            reactions.attack_reply(self, action, ev)
        elif phase == KO_BLOCK:
            p = self.draw_player
            self.lose(p, C.BLOCK)
            ev.append(public("block_ko", player=p))
            self.set_phase(HIDE_KO, p)
        elif phase == HIDE_KO:
            self._hide_ko(A.HIDE_DEPTH[action], ev)
        elif phase == COUNTDOWN:
            reactions.countdown_reply(self, action, ev)
        elif phase == SCOUT_TAKE:
            reactions.scout_take(self, action, ev)
        elif phase == SCOUT_ORDER:
            reactions.scout_return(self, A.ORDER_PERM[action], ev)
        elif phase == SWEEP_DIR:
            reactions.sweep_direction(self, action, ev)
        elif phase == STEAL_TARGET:
            reactions.steal_target(self, A.TARGET_SEAT[action], ev)
        elif phase == TRIPLE_NAME:
            reactions.triple_name(self, action, ev)
        else:  # pragma: no cover - apply() never reaches here for a finished game
            raise AssertionError(f"no decision pending in phase {phase}")
        return ev

    # -- small moves the rules are made of
    def set_phase(self, phase: int, decider: int) -> None:
        """Ask ``decider`` the decision of ``phase`` next."""
        self.phase = phase
        self.decider = decider

    def lose(self, p: int, kind: int) -> None:
        """Move one card of ``kind`` from p's hand to the discard pile."""
        self.hands[p][kind] -= 1
        self.sizes[p] -= 1
        self.discard.append(kind)

    def gain(self, p: int, kind: int) -> None:
        """Put one card of ``kind`` in p's hand (its public "no" answers are void)."""
        self.hands[p][kind] += 1
        self.sizes[p] += 1
        self.absent[p] = 0

    def next_active(self, p: int) -> int:
        """The next seat still in the fight after ``p``, in the direction of play."""
        n = self.n
        d = self.direction
        q = (p + d) % n
        active = self.active
        while not active[q]:
            q = (q + d) % n
        return q

    # -- action phase
    def _act(self, action: Action, ev: list[Event]) -> None:
        me = self.current
        if action is A.DRAW:
            self._draw_phase(ev)
            return
        kind = A.ATTACK_KIND.get(action)
        if kind is not None:
            self.lose(me, kind)
            target = self.next_active(me)
            self.target = target
            self.attack_value = C.ATTACK_VALUE[kind]
            ev.append(public("attack", player=me, target=target, value=self.attack_value))
            self.set_phase(ATTACK_REACT, target)
        elif action is A.COUNTDOWN:
            self.hands[me][C.COUNTDOWN] -= 1
            self.sizes[me] -= 1
            self.countdown_live = True
            target = self.next_active(me)
            self.target = target
            ev.append(public("countdown", player=me, target=target, seconds=self.seconds))
            self.set_phase(COUNTDOWN, target)
        elif action is A.DODGE:
            self.lose(me, C.DODGE)
            ev.append(public("dodge_turn", player=me))
            self.end_turn(ev)
        elif action is A.SCOUT:
            self.lose(me, C.SCOUT)
            pile = self.pile
            m = min(3, len(pile))
            self.scout_cards = [pile.pop() & KIND_MASK for _ in range(m)]
            ev.append(public("scout", player=me, seen=m))
            if m:
                ev.append(private(ONLY[me], "scouted", player=me, cards=[C.NAMES[k] for k in self.scout_cards]))
                self.set_phase(SCOUT_TAKE, me)
            else:
                self.after_major(ev)
        elif action is A.SWEEP:
            self.lose(me, C.SWEEP)
            self._shuffle_pile()
            ev.append(public("sweep", player=me, pile=len(self.pile)))
            self.set_phase(SWEEP_DIR, me)
        else:
            hold = A.PAIR_HOLD.get(action)
            if hold is not None:
                self.lose(me, hold)
                self.lose(me, hold)
                self.steal_kind = STEAL_PAIR
                ev.append(public("clinch_pair", player=me, hold=C.NAMES[hold]))
            else:
                holds = A.TRIPLE_HOLDS[action]
                for h in holds:
                    self.lose(me, h)
                self.steal_kind = STEAL_TRIPLE
                ev.append(public("clinch_triple", player=me, holds=[C.NAMES[h] for h in holds]))
            self.set_phase(STEAL_TARGET, me)

    def after_major(self, ev: list[Event]) -> None:
        """After a major action resolves: the draw phase, or the turn's end when strict."""
        if self.phase == OVER:
            return
        if self.strict:
            self.end_turn(ev)
        else:
            self._draw_phase(ev)

    # -- draws and KOs
    def _draw_phase(self, ev: list[Event]) -> None:
        self.draw_player = self.current
        self.draws_left = 1
        self.then = THEN_END_TURN
        if self.draw_sequence(ev):
            self.after_draws(ev)

    def _pop_card(self, ev: list[Event]) -> int:
        pile = self.pile
        if not pile:
            if not self.discard:
                return -1
            pile.extend(self.discard)
            self.discard.clear()
            self.rng.shuffle(pile)
            ev.append(public("reshuffle", pile=len(pile)))
        return pile.pop() & KIND_MASK

    def draw_sequence(self, ev: list[Event]) -> bool:
        """Draw ``draws_left`` cards for ``draw_player``. Returns False when suspended
        (a Block decision is pending) or the game ended."""
        p = self.draw_player
        hand = self.hands[p]
        while self.draws_left > 0:
            self.draws_left -= 1
            card = self._pop_card(ev)
            if card < 0:
                ev.append(public("draw_nothing", player=p))
                self.draws_left = 0
                break
            if card == C.KO:
                ev.append(public("draw_ko", player=p))
                if hand[C.BLOCK]:
                    self.limbo_ko = True
                    self.set_phase(KO_BLOCK, p)
                    return False
                self.eliminate(p, "ko", ev)
                self.draws_left = 0
                return self.phase != OVER
            hand[card] += 1
            self.sizes[p] += 1
            self.absent[p] = 0
            ev.append(_DRAW[p])
            ev.append(_DREW[p][card])
        return True

    def after_draws(self, ev: list[Event]) -> None:
        """Once a sequence of draws is complete: the attacker's own draw, or the turn's end."""
        if self.then == THEN_ATTACKER_DRAW:
            self.after_major(ev)
        else:
            self.end_turn(ev)

    def _hide_ko(self, depth: int, ev: list[Event]) -> None:
        p = self.draw_player
        keep = KIND_MASK | (1 << (p + 4))
        pile = self.pile
        # nobody else can tell where the KO went, so their exact knowledge of
        # positions in the pile is gone; the hider keeps theirs
        for i, e in enumerate(pile):
            if e & ~keep:
                pile[i] = e & keep
        pile.insert(len(pile) - depth, C.KO | (1 << (p + 4)))
        self.limbo_ko = False
        ev.append(public("hide_ko", player=p))
        ev.append(private(ONLY[p], "hid_ko", player=p, depth=depth))
        self.phase = BUSY
        if self.draw_sequence(ev):
            self.after_draws(ev)

    def eliminate(self, p: int, reason: str, ev: list[Event]) -> None:
        """Knock ``p`` out (``reason``: ``ko`` or ``countdown``): its hand is shown and
        discarded; the last fighter standing wins."""
        hand = self.hands[p]
        shown = [C.NAMES[k] for k in range(C.NUM_KINDS) for _ in range(hand[k])]
        for k in range(C.NUM_KINDS):
            if hand[k]:
                self.discard.extend([k] * hand[k])
                hand[k] = 0
        self.sizes[p] = 0
        self.absent[p] = 0
        self.active[p] = False
        self.n_active -= 1
        if reason == "ko":
            pile = self.pile
            for i, e in enumerate(pile):
                if e > KIND_MASK:
                    pile[i] = e & KIND_MASK
            pile.insert(self.rng.below(len(pile) + 1), C.KO)
        ev.append(public("eliminated", player=p, reason=reason, hand=shown))
        if self.n_active == 1:
            winner = self.active.index(True)
            self.result = Outcome.win(winner, self.n, "last fighter standing")
            self.phase = OVER
            self.decider = -1
            ev.append(public("game_over", winners=[winner], draw=False))

    def end_turn(self, ev: list[Event]) -> None:
        """Pass the turn to the next fighter (or end the game at the turn limit)."""
        if self.phase == OVER:
            return
        if self.turn >= self.max_turns:
            alive = [p for p in range(self.n) if self.active[p]]
            self.result = Outcome.shared(alive, self.n, f"turn limit ({self.max_turns}) reached")
            self.phase = OVER
            self.decider = -1
            ev.append(public("game_over", winners=alive, draw=True))
            return
        nxt = self.next_active(self.current)
        self.current = nxt
        self.turn += 1
        self.set_phase(ACTION, nxt)
        ev.append(public("turn", player=nxt, turn=self.turn))

    def _shuffle_pile(self) -> None:
        pile = [e & KIND_MASK for e in self.pile]
        self.rng.shuffle(pile)
        self.pile = pile

    # ------------------------------------------------------------------ views
    def observe(self, player: int | None) -> V.NakMuayView:
        return V.observe(self, player)

    # ------------------------------------------------------------------ search
    def turns(self) -> int | None:
        return self.turn

    def clone(self) -> NakMuayState:
        s = NakMuayState()
        s._legal = self._legal
        s.n = self.n
        s.strict = self.strict
        s.seconds = self.seconds
        s.max_turns = self.max_turns
        s.in_play = self.in_play  # never mutated
        s.hands = [h[:] for h in self.hands]
        s.sizes = self.sizes[:]
        s.pile = self.pile[:]
        s.discard = self.discard[:]
        s.active = self.active[:]
        s.n_active = self.n_active
        s.current = self.current
        s.direction = self.direction
        s.turn = self.turn
        s.phase = self.phase
        s.decider = self.decider
        s.target = self.target
        s.attack_value = self.attack_value
        s.draw_player = self.draw_player
        s.draws_left = self.draws_left
        s.then = self.then
        s.limbo_ko = self.limbo_ko
        s.countdown_live = self.countdown_live
        s.scout_cards = self.scout_cards[:]
        s.steal_kind = self.steal_kind
        s.steal_target = self.steal_target
        s.named = self.named
        s.absent = self.absent[:]
        s.result = self.result
        s.rng = self.rng.copy()
        return s

    def determinize(self, player: int, rng: Rng) -> NakMuayState:
        return search.determinize(self, player, rng)

    # ------------------------------------------------------------------ serde
    def to_dict(self) -> dict[str, Any]:
        return serde.to_dict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> NakMuayState:
        return serde.from_dict(cls, d)
