"""The rules of Nak Muay Knockout as a :class:`~knockabout.core.protocol.State`.

Representation (chosen for fast legal-action generation, apply and clone):

* a hand is a list of counts per card kind (see :mod:`.cards`);
* the draw pile is a list of ints, top card last; each entry is
  ``kind | (known_by << 4)`` where ``known_by`` is a bit mask of the seats that
  know exactly which card lies there (seen with Scout or placed when hiding a KO);
* every pending reaction (Dodge-or-take, Block on a KO, where to hide it, the
  Countdown window, Scout's take and order, Sweep's direction, steal targets, the
  naming loop) is a phase with one deciding seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from knockabout.core.actions import Action
from knockabout.core.events import Event
from knockabout.core.protocol import Decision, Game, Outcome, State
from knockabout.core.rng import Rng
from knockabout.core.view import DictView
from knockabout.games.nakmuay import actions as A
from knockabout.games.nakmuay import cards as C

# phases (who decides is stored in ``decider``)
ACTION = 0
ATTACK_REACT = 1
KO_BLOCK = 2
HIDE_KO = 3
COUNTDOWN = 4
SCOUT_TAKE = 5
SCOUT_ORDER = 6
SWEEP_DIR = 7
STEAL_TARGET = 8
TRIPLE_NAME = 9
OVER = 10
BUSY = 11  # transient, never visible between actions

PHASE_NAMES = (
    "action",
    "attack_response",
    "ko_block",
    "hide_ko",
    "countdown_response",
    "scout_take",
    "scout_order",
    "sweep_direction",
    "steal_target",
    "triple_name",
    "over",
    "busy",
)
PHASE_PROMPTS = (
    "Your turn: play a card or draw.",
    "You are attacked: Dodge or take the draws.",
    "You drew a KO: you must play a Block.",
    "Hide the KO in the draw pile: choose how deep.",
    "Countdown! Answer with Block, Dodge or a Clinch card before time runs out.",
    "Scout: take one of the cards you see (not a KO).",
    "Scout: put the other cards back in the order you like (first listed goes on top).",
    "Sweep: keep or reverse the direction of play.",
    "Clinch: choose whom to steal from.",
    "Clinch triple: name a card, or take one at random.",
    "",
    "",
)

# what happens once a sequence of draws completes
THEN_END_TURN = 0
THEN_ATTACKER_DRAW = 1

STEAL_PAIR = 1
STEAL_TRIPLE = 2

_KIND = 15
_EMPTY: tuple[Action, ...] = ()


def _pub(type_: str, **data: Any) -> Event:
    return Event(type_, data)


def _priv(players: frozenset[int], type_: str, **data: Any) -> Event:
    return Event(type_, data, players)


_ONLY = tuple(frozenset((p,)) for p in range(A.MAX_SEATS))


_MOVES_CACHE: dict[tuple[int, ...], tuple[Action, ...]] = {}
_DECISIONS: dict[tuple[int, int, float], Decision] = {}  # decisions are immutable: shared


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
        "absent",
        "active",
        "attack_value",
        "countdown_live",
        "current",
        "decider",
        "direction",
        "discard",
        "draw_player",
        "draws_left",
        "hands",
        "in_play",
        "limbo_ko",
        "max_turns",
        "n",
        "n_active",
        "named",
        "phase",
        "pile",
        "result",
        "rng",
        "scout_cards",
        "seconds",
        "sizes",
        "steal_kind",
        "steal_target",
        "strict",
        "target",
        "then",
        "turn",
    )

    game: ClassVar[Game[Any]]

    n: int
    strict: bool
    seconds: float
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

    # ------------------------------------------------------------------ setup
    @classmethod
    def deal(
        cls, players: int, strict: bool, seconds: float, max_turns: int, seed: int
    ) -> NakMuayState:
        s = cls.__new__(cls)
        s._legal = None
        s.n = players
        s.strict = strict
        s.seconds = seconds
        s.max_turns = max_turns
        s.rng = Rng(seed)
        s.in_play = C.in_play_counts(players)
        base = [
            k for k in range(C.NUM_KINDS) if k not in (C.KO, C.COUNTDOWN) for _ in range(C.COPIES[k])
        ]
        s.rng.shuffle(base)
        s.hands = [[0] * C.NUM_KINDS for _ in range(players)]
        for p in range(players):
            for _ in range(C.HAND_SIZE):
                s.hands[p][base.pop()] += 1
        base += [C.KO] * s.in_play[C.KO] + [C.COUNTDOWN] * s.in_play[C.COUNTDOWN]
        s.rng.shuffle(base)
        s.pile = base
        s.sizes = [C.HAND_SIZE] * players
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
        key = (phase, self.decider, self.seconds)
        decision = _DECISIONS.get(key)
        if decision is None:
            if phase == COUNTDOWN:
                decision = Decision(
                    self.decider, "countdown_response", self.seconds, A.NO_RESPONSE, PHASE_PROMPTS[phase]
                )
            else:
                decision = Decision(self.decider, PHASE_NAMES[phase], None, None, PHASE_PROMPTS[phase])
            if len(_DECISIONS) > 10_000:
                _DECISIONS.clear()
            _DECISIONS[key] = decision
        return decision

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
            self._attack_reply(action, ev)
        elif phase == KO_BLOCK:
            p = self.draw_player
            self._lose(p, C.BLOCK)
            ev.append(_pub("block_ko", player=p))
            self._set(HIDE_KO, p)
        elif phase == HIDE_KO:
            self._hide_ko(A.HIDE_DEPTH[action], ev)
        elif phase == COUNTDOWN:
            self._countdown_reply(action, ev)
        elif phase == SCOUT_TAKE:
            self._scout_take(action, ev)
        elif phase == SCOUT_ORDER:
            self._scout_return(A.ORDER_PERM[action], ev)
        elif phase == SWEEP_DIR:
            if action is A.REVERSE:
                self.direction = -self.direction
            ev.append(
                _pub(
                    "direction",
                    player=self.current,
                    reversed=action is A.REVERSE,
                    direction=self.direction,
                )
            )
            self._after_major(ev)
        elif phase == STEAL_TARGET:
            self._steal_target(A.TARGET_SEAT[action], ev)
        elif phase == TRIPLE_NAME:
            self._triple_name(action, ev)
        else:  # pragma: no cover - apply() never reaches here for a finished game
            raise AssertionError(f"no decision pending in phase {phase}")
        return ev

    def _set(self, phase: int, decider: int) -> None:
        self.phase = phase
        self.decider = decider

    def _lose(self, p: int, kind: int) -> None:
        """Move one card of ``kind`` from p's hand to the discard pile."""
        self.hands[p][kind] -= 1
        self.sizes[p] -= 1
        self.discard.append(kind)

    def _gain(self, p: int, kind: int) -> None:
        self.hands[p][kind] += 1
        self.sizes[p] += 1
        self.absent[p] = 0

    def _next_active(self, p: int) -> int:
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
            self._lose(me, kind)
            target = self._next_active(me)
            self.target = target
            self.attack_value = C.ATTACK_VALUE[kind]
            ev.append(_pub("attack", player=me, target=target, value=self.attack_value))
            self._set(ATTACK_REACT, target)
        elif action is A.COUNTDOWN:
            self.hands[me][C.COUNTDOWN] -= 1
            self.sizes[me] -= 1
            self.countdown_live = True
            target = self._next_active(me)
            self.target = target
            ev.append(_pub("countdown", player=me, target=target, seconds=self.seconds))
            self._set(COUNTDOWN, target)
        elif action is A.DODGE:
            self._lose(me, C.DODGE)
            ev.append(_pub("dodge_turn", player=me))
            self._end_turn(ev)
        elif action is A.SCOUT:
            self._lose(me, C.SCOUT)
            pile = self.pile
            m = min(3, len(pile))
            self.scout_cards = [pile.pop() & _KIND for _ in range(m)]
            ev.append(_pub("scout", player=me, seen=m))
            if m:
                ev.append(
                    _priv(
                        _ONLY[me],
                        "scouted",
                        player=me,
                        cards=[C.NAMES[k] for k in self.scout_cards],
                    )
                )
                self._set(SCOUT_TAKE, me)
            else:
                self._after_major(ev)
        elif action is A.SWEEP:
            self._lose(me, C.SWEEP)
            self._shuffle_pile()
            ev.append(_pub("sweep", player=me, pile=len(self.pile)))
            self._set(SWEEP_DIR, me)
        else:
            hold = A.PAIR_HOLD.get(action)
            if hold is not None:
                self._lose(me, hold)
                self._lose(me, hold)
                self.steal_kind = STEAL_PAIR
                ev.append(_pub("clinch_pair", player=me, hold=C.NAMES[hold]))
            else:
                holds = A.TRIPLE_HOLDS[action]
                for h in holds:
                    self._lose(me, h)
                self.steal_kind = STEAL_TRIPLE
                ev.append(_pub("clinch_triple", player=me, holds=[C.NAMES[h] for h in holds]))
            self._set(STEAL_TARGET, me)

    def _after_major(self, ev: list[Event]) -> None:
        """After a major action resolves: the draw phase, or the turn's end when strict."""
        if self.phase == OVER:
            return
        if self.strict:
            self._end_turn(ev)
        else:
            self._draw_phase(ev)

    # -- draws and KOs
    def _draw_phase(self, ev: list[Event]) -> None:
        self.draw_player = self.current
        self.draws_left = 1
        self.then = THEN_END_TURN
        if self._draw_sequence(ev):
            self._after_draws(ev)

    def _pop_card(self, ev: list[Event]) -> int:
        pile = self.pile
        if not pile:
            if not self.discard:
                return -1
            pile.extend(self.discard)
            self.discard.clear()
            self.rng.shuffle(pile)
            ev.append(_pub("reshuffle", pile=len(pile)))
        return pile.pop() & _KIND

    def _draw_sequence(self, ev: list[Event]) -> bool:
        """Draw ``draws_left`` cards for ``draw_player``. Returns False when suspended
        (a Block decision is pending) or the game ended."""
        p = self.draw_player
        hand = self.hands[p]
        while self.draws_left > 0:
            self.draws_left -= 1
            card = self._pop_card(ev)
            if card < 0:
                ev.append(_pub("draw_nothing", player=p))
                self.draws_left = 0
                break
            if card == C.KO:
                ev.append(_pub("draw_ko", player=p))
                if hand[C.BLOCK]:
                    self.limbo_ko = True
                    self._set(KO_BLOCK, p)
                    return False
                self._eliminate(p, "ko", ev)
                self.draws_left = 0
                return self.phase != OVER
            hand[card] += 1
            self.sizes[p] += 1
            self.absent[p] = 0
            ev.append(_pub("draw", player=p))
            ev.append(_priv(_ONLY[p], "drew", player=p, card=C.NAMES[card]))
        return True

    def _after_draws(self, ev: list[Event]) -> None:
        if self.then == THEN_ATTACKER_DRAW:
            self._after_major(ev)
        else:
            self._end_turn(ev)

    def _hide_ko(self, depth: int, ev: list[Event]) -> None:
        p = self.draw_player
        keep = _KIND | (1 << (p + 4))
        pile = self.pile
        # nobody else can tell where the KO went, so their exact knowledge of
        # positions in the pile is gone; the hider keeps theirs
        for i, e in enumerate(pile):
            if e & ~keep:
                pile[i] = e & keep
        pile.insert(len(pile) - depth, C.KO | (1 << (p + 4)))
        self.limbo_ko = False
        ev.append(_pub("hide_ko", player=p))
        ev.append(_priv(_ONLY[p], "hid_ko", player=p, depth=depth))
        self.phase = BUSY
        if self._draw_sequence(ev):
            self._after_draws(ev)

    def _eliminate(self, p: int, reason: str, ev: list[Event]) -> None:
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
                if e > _KIND:
                    pile[i] = e & _KIND
            pile.insert(self.rng.below(len(pile) + 1), C.KO)
        ev.append(_pub("eliminated", player=p, reason=reason, hand=shown))
        if self.n_active == 1:
            winner = self.active.index(True)
            self.result = Outcome.win(winner, self.n, "last fighter standing")
            self.phase = OVER
            self.decider = -1
            ev.append(_pub("game_over", winners=[winner], draw=False))

    def _end_turn(self, ev: list[Event]) -> None:
        if self.phase == OVER:
            return
        if self.turn >= self.max_turns:
            alive = [p for p in range(self.n) if self.active[p]]
            self.result = Outcome.shared(alive, self.n, f"turn limit ({self.max_turns}) reached")
            self.phase = OVER
            self.decider = -1
            ev.append(_pub("game_over", winners=alive, draw=True))
            return
        nxt = self._next_active(self.current)
        self.current = nxt
        self.turn += 1
        self._set(ACTION, nxt)
        ev.append(_pub("turn", player=nxt, turn=self.turn))

    def _shuffle_pile(self) -> None:
        pile = [e & _KIND for e in self.pile]
        self.rng.shuffle(pile)
        self.pile = pile

    # -- reactions
    def _attack_reply(self, action: Action, ev: list[Event]) -> None:
        t = self.target
        if action is A.DODGE:
            self._lose(t, C.DODGE)
            ev.append(_pub("dodge", player=t, against="attack"))
            self._after_major(ev)
            return
        ev.append(_pub("take", player=t, count=self.attack_value))
        self.draw_player = t
        self.draws_left = self.attack_value
        self.then = THEN_ATTACKER_DRAW
        if self._draw_sequence(ev):
            self._after_draws(ev)
        elif self.phase != OVER and self.phase != KO_BLOCK:
            # the target was knocked out: the rest of its draws are cancelled
            self._after_major(ev)

    def _countdown_reply(self, action: Action, ev: list[Event]) -> None:
        t = self.target
        self.countdown_live = False
        if action is A.NO_RESPONSE:
            self.discard.append(C.COUNTDOWN)
            ev.append(_pub("countdown_expired", player=t))
            self._eliminate(t, "countdown", ev)
        else:
            if action is A.BLOCK:
                kind = C.BLOCK
            elif action is A.DODGE:
                kind = C.DODGE
            else:
                kind = A.CLINCH_HOLD[action]
            self._lose(t, kind)
            self.discard.append(C.COUNTDOWN)
            ev.append(_pub("countdown_answered", player=t, card=C.NAMES[kind]))
        self._after_major(ev)

    # -- scout
    def _scout_take(self, action: Action, ev: list[Event]) -> None:
        me = self.current
        seen = self.scout_cards
        if action is not A.SCOUT_TAKE_NONE:
            i = A.SCOUT_INDEX[action]
            kind = seen.pop(i)
            self._gain(me, kind)
            ev.append(_pub("scout_take", player=me))
            ev.append(_priv(_ONLY[me], "scout_took", player=me, card=C.NAMES[kind]))
        if len(seen) >= 2:
            self._set(SCOUT_ORDER, me)
        else:
            self._scout_return((0,) if seen else (), ev)

    def _scout_return(self, order: tuple[int, ...], ev: list[Event]) -> None:
        me = self.current
        seen = self.scout_cards
        mark = 1 << (me + 4)
        for i in reversed(order):
            self.pile.append(seen[i] | mark)
        if order:
            ev.append(_pub("scout_return", player=me, count=len(order)))
            ev.append(
                _priv(
                    _ONLY[me],
                    "scout_order",
                    player=me,
                    top_first=[C.NAMES[seen[i]] for i in order],
                )
            )
        self.scout_cards = []
        self._after_major(ev)

    # -- clinch steals
    def _take_random(self, thief: int, victim: int, ev: list[Event]) -> None:
        size = self.sizes[victim]
        if size == 0:
            ev.append(_pub("steal_nothing", player=thief, target=victim))
            return
        r = self.rng.below(size)
        hand = self.hands[victim]
        kind = 0
        for kind in range(C.NUM_KINDS):
            r -= hand[kind]
            if r < 0:
                break
        hand[kind] -= 1
        self.sizes[victim] -= 1
        self._gain(thief, kind)
        ev.append(_pub("steal", player=thief, target=victim, named=False))
        ev.append(
            _priv(
                frozenset((thief, victim)),
                "stolen_card",
                player=thief,
                target=victim,
                card=C.NAMES[kind],
            )
        )

    def _steal_target(self, victim: int, ev: list[Event]) -> None:
        me = self.current
        self.steal_target = victim
        ev.append(_pub("steal_target", player=me, target=victim))
        if self.steal_kind == STEAL_PAIR:
            self._take_random(me, victim, ev)
            self._after_major(ev)
        else:
            self.named = 0
            self._set(TRIPLE_NAME, me)

    def _triple_name(self, action: Action, ev: list[Event]) -> None:
        me = self.current
        victim = self.steal_target
        if action is A.TAKE_RANDOM:
            self._take_random(me, victim, ev)
            self._after_major(ev)
            return
        kind = A.NAME_KIND[action]
        has = self.hands[victim][kind] > 0
        ev.append(_pub("name", player=me, target=victim, card=C.NAMES[kind], answer=has))
        if has:
            self.hands[victim][kind] -= 1
            self.sizes[victim] -= 1
            self._gain(me, kind)
            self._after_major(ev)
        else:
            self.named |= 1 << kind
            self.absent[victim] |= 1 << kind
            self._set(TRIPLE_NAME, me)

    # ------------------------------------------------------------------ views
    def known_pile(self, player: int) -> list[tuple[int, int]]:
        """``(depth from top, kind)`` for every pile card ``player`` knows exactly."""
        bit = 1 << (player + 4)
        top = len(self.pile) - 1
        return [(top - i, e & _KIND) for i, e in enumerate(self.pile) if e & bit]

    def observe(self, player: int | None) -> DictView:
        return DictView(self._observe_dict(player))

    def _observe_dict(self, player: int | None) -> dict[str, Any]:
        decision = self.to_act()
        view: dict[str, Any] = {
            "game": "nak-muay",
            "seat": player,
            "players": self.n,
            "turn": self.turn,
            "max_turns": self.max_turns,
            "end_turn": "strict_end_turn" if self.strict else "draw_after",
            "countdown_seconds": self.seconds,
            "current": self.current,
            "direction": "clockwise" if self.direction == 1 else "counterclockwise",
            "active": list(self.active),
            "hand_sizes": list(self.sizes),
            "draw_pile": len(self.pile),
            "discard": [C.NAMES[k] for k in self.discard],
            "ko_in_pile": self.in_play[C.KO] - (1 if self.limbo_ko else 0),
            "decision": None if decision is None else decision.to_dict(),
            "pending": self._public_pending(),
            "no_answers": {
                str(p): [C.NAMES[k] for k in C.NAMEABLE if self.absent[p] >> k & 1]
                for p in range(self.n)
                if self.absent[p]
            },
            "outcome": None if self.result is None else self.result.to_dict(),
        }
        if player is not None:
            hand = self.hands[player]
            view["hand"] = [C.NAMES[k] for k in range(C.NUM_KINDS) for _ in range(hand[k])]
            view["known_pile"] = [
                {"depth": d, "card": C.NAMES[k]} for d, k in self.known_pile(player)
            ]
            if self.phase in (SCOUT_TAKE, SCOUT_ORDER) and self.current == player:
                view["pending"]["seen"] = [C.NAMES[k] for k in self.scout_cards]
            if decision is not None and decision.player == player:
                view["legal"] = [a.text for a in self.legal_actions()]
        return view

    def _public_pending(self) -> dict[str, Any]:
        phase = self.phase
        if phase == ATTACK_REACT:
            return {"attacker": self.current, "target": self.target, "value": self.attack_value}
        if phase == COUNTDOWN:
            return {"attacker": self.current, "target": self.target, "countdown": True}
        if phase in (KO_BLOCK, HIDE_KO):
            return {"drawer": self.draw_player, "ko": True, "draws_left": self.draws_left}
        if phase in (SCOUT_TAKE, SCOUT_ORDER):
            return {"scout": self.current, "count": len(self.scout_cards)}
        if phase == STEAL_TARGET:
            return {"thief": self.current, "steal": "pair" if self.steal_kind == 1 else "triple"}
        if phase == TRIPLE_NAME:
            return {
                "thief": self.current,
                "target": self.steal_target,
                "named": [C.NAMES[k] for k in C.NAMEABLE if self.named >> k & 1],
            }
        return {}

    # ------------------------------------------------------------------ search
    def turns(self) -> int | None:
        return self.turn

    def clone(self) -> NakMuayState:
        s = NakMuayState.__new__(NakMuayState)
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
        r = Rng.__new__(Rng)
        r.state = self.rng.state
        s.rng = r
        return s

    def determinize(self, player: int, rng: Rng) -> NakMuayState:
        s = self.clone()
        s._legal = None
        bit = 1 << (player + 4)
        # cards whose identity the player knows
        unknown = list(self.in_play)
        for k in range(C.NUM_KINDS):
            unknown[k] -= self.hands[player][k]
        for k in self.discard:
            unknown[k] -= 1
        if self.limbo_ko:
            unknown[C.KO] -= 1
        if self.countdown_live:
            unknown[C.COUNTDOWN] -= 1
        for e in self.pile:
            if e & bit:
                unknown[e & _KIND] -= 1
        scout_known = self.phase in (SCOUT_TAKE, SCOUT_ORDER) and self.current == player
        if scout_known:
            for k in self.scout_cards:
                unknown[k] -= 1
        assert min(unknown) >= 0, "determinize: card accounting broken"
        pool = [k for k in range(1, C.NUM_KINDS) for _ in range(unknown[k])]
        rng.shuffle(pool)
        # deal the other hands (most constrained first), honouring public "no" answers
        others = [p for p in range(self.n) if p != player and self.sizes[p]]
        others.sort(key=lambda p: -bin(self.absent[p]).count("1"))
        for p in others:
            need = self.sizes[p]
            banned = self.absent[p]
            hand = [0] * C.NUM_KINDS
            picked: list[int] = []
            rest: list[int] = []
            for k in pool:
                if len(picked) < need and not banned >> k & 1:
                    picked.append(k)
                else:
                    rest.append(k)
            if len(picked) < need:  # cannot honour every answer; fill anyway
                picked += rest[: need - len(picked)]
                rest = rest[need - len(picked) :]
            for k in picked:
                hand[k] += 1
            s.hands[p] = hand
            pool = rest
        pool += [C.KO] * unknown[C.KO]
        rng.shuffle(pool)
        pile = s.pile
        for i, e in enumerate(pile):
            if not e & bit:
                pile[i] = pool.pop() | (e & ~_KIND)
        if not scout_known and s.scout_cards:
            s.scout_cards = [pool.pop() for _ in s.scout_cards]
        assert not pool, "determinize: slots and cards differ"
        s.rng = Rng(rng.next64())
        return s

    # ------------------------------------------------------------------ serde
    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.n,
            "strict": self.strict,
            "seconds": self.seconds,
            "max_turns": self.max_turns,
            "in_play": list(self.in_play),
            "hands": [list(h) for h in self.hands],
            "sizes": list(self.sizes),
            "pile": list(self.pile),
            "discard": list(self.discard),
            "active": list(self.active),
            "n_active": self.n_active,
            "current": self.current,
            "direction": self.direction,
            "turn": self.turn,
            "phase": self.phase,
            "decider": self.decider,
            "target": self.target,
            "attack_value": self.attack_value,
            "draw_player": self.draw_player,
            "draws_left": self.draws_left,
            "then": self.then,
            "limbo_ko": self.limbo_ko,
            "countdown_live": self.countdown_live,
            "scout_cards": list(self.scout_cards),
            "steal_kind": self.steal_kind,
            "steal_target": self.steal_target,
            "named": self.named,
            "absent": list(self.absent),
            "result": None if self.result is None else self.result.to_dict(),
            "rng": self.rng.state,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> NakMuayState:
        s = cls.__new__(cls)
        s._legal = None
        s.n = int(d["players"])
        s.strict = bool(d["strict"])
        s.seconds = float(d["seconds"])
        s.max_turns = int(d["max_turns"])
        s.in_play = [int(x) for x in d["in_play"]]
        s.hands = [[int(x) for x in h] for h in d["hands"]]
        s.sizes = [int(x) for x in d["sizes"]]
        s.pile = [int(x) for x in d["pile"]]
        s.discard = [int(x) for x in d["discard"]]
        s.active = [bool(x) for x in d["active"]]
        for name in (
            "n_active", "current", "direction", "turn", "phase", "decider", "target",
            "attack_value", "draw_player", "draws_left", "then", "steal_kind",
            "steal_target", "named",
        ):
            setattr(s, name, int(d[name]))
        s.limbo_ko = bool(d["limbo_ko"])
        s.countdown_live = bool(d["countdown_live"])
        s.scout_cards = [int(x) for x in d["scout_cards"]]
        s.absent = [int(x) for x in d["absent"]]
        r = d["result"]
        s.result = (
            None
            if r is None
            else Outcome(tuple(r["winners"]), tuple(r["payoffs"]), bool(r["draw"]), r["reason"])
        )
        s.rng = Rng(int(d["rng"]))
        return s
