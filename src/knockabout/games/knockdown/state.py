"""The rules of Knockdown as a :class:`~knockabout.core.protocol.State`.

How it runs: every rule step that may need a player's choice is a *task* on a stack
(``tasks``, a list of small tuples, top last). :meth:`KnockdownState._run` pops tasks
until one of them sets a pending decision (``phase``/``decider``/``pend``); the next
action answers it and the loop goes on. The Attack Sequence, Combos, reactions,
effects and turn/round ends are all tasks, so any of them can stop for a decision in
the middle and a clone is just a copy of a few lists.

Information: Attack cards only ever reach a hand from the face-up Attack Row, so every
hand is open information (shown to both players; a player with a perfect memory would
know it anyway). Hidden are the deck order and the skill draft: the cards dealt to the
opponent, the opponent's picks and their face-down Skill card until it is revealed.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from knockabout.core.actions import Action
from knockabout.core.events import Event
from knockabout.core.protocol import Decision, Game, Outcome, State
from knockabout.core.rng import Rng
from knockabout.games.knockdown import actions as A
from knockabout.games.knockdown.content import (
    SYMBOL_INDEX,
    TOKENS,
    PoolBonus,
    PoolReduction,
    Skill,
)
from knockabout.games.knockdown.match import (
    NTOK,
    RANGE_ANY,
    RANGE_PROJECTILE,
    TOKEN_INDEX,
    MatchSetup,
    Picks,
    build_setup,
)

if TYPE_CHECKING:
    from knockabout.games.knockdown.view import KnockdownView

# phases
DRAFT1: Final = 0
DRAFT2: Final = 1
FACEUP: Final = 2
OPENING: Final = 3
TURN: Final = 4
COMBO: Final = 5
PAY: Final = 6
STEP: Final = 7
BLINK: Final = 8
CARD: Final = 9
BLOCK: Final = 10
REACT: Final = 11
KO: Final = 12
TOWER: Final = 13
COUNT: Final = 14
ROW: Final = 15
OVER: Final = 16
BUSY: Final = 17

PHASE_KINDS: Final = (
    "skill_draft", "skill_draft", "skill_face_up", "opening_pick", "turn", "combo", "pay", "move_step",
    "blink", "choose_card", "block", "reaction", "knockdown", "tower_challenge", "token_count",
    "take_from_row", "over", "busy",
)
PHASE_PROMPTS: Final = (
    "Skill draft: keep one of the three Skill cards dealt to you (the other two go to your opponent).",
    "Skill draft: keep one of the two Skill cards your opponent passed you (the other leaves the game).",
    "Skill draft: choose which of your two Skill cards is face up (active).",
    "Opening pick: take a card from the Attack Row into your hand.",
    "Your turn: take an action (Move, Attack or Combo).",
    "Combo: perform a Special Attack, Dash, or end the Combo.",
    "Pay the cost: choose the hand cards to discard.",
    "Move: choose a direction.",
    "Blink: choose the space to place the fighter on.",
    "Choose a card.",
    "You are hit by a Strike: Block or not.",
    "Your opponent's move gives you a chance to use a Reaction.",
    "Your attack has a K.O. effect: start a Knockdown Test?",
    "Knockdown Test: build the tower from all your wound cubes before the time runs out.",
    "How many tokens do you spend?",
    "Take a card from the Attack Row.",
    "",
    "",
)

# tasks
T_DONE: Final = 0
T_COMBO: Final = 1
T_SEQ: Final = 2
T_SEQ_BLOCK: Final = 3
T_SEQ_WOUNDS: Final = 4
T_SEQ_KO: Final = 5
T_OPS: Final = 6
T_TAKE: Final = 7
T_LIMIT: Final = 8
T_END_TURN: Final = 9
T_START_TURN: Final = 10
T_MOVE: Final = 11
T_STEPS: Final = 12
T_TEST: Final = 13
T_TURN_READY: Final = 14
T_ROWPICK: Final = 15
T_AFTER_OPENING: Final = 16

# card-choice purposes
C_LIMIT: Final = 0
C_DISCARD: Final = 1
C_REVEAL: Final = 2
C_REVEAL_PICK: Final = 3
C_FOR_TOKENS: Final = 4
C_BLOCK: Final = 5

PAY_COMBO: Final = 0
PAY_REACT: Final = 1

TRIG_MOVE: Final = 0
TRIG_ATTACKED: Final = 1
TRIGGERS: Final = ("opponent_moves", "attacked")

CANDLE: Final = -2
_TOKNAME: Final = TOKENS
_SYMIDX: Final = SYMBOL_INDEX
HEAVY_TYPES: Final = {"strike": 0, "ability": 1, "reaction": 2}

TK_CURSE, TK_STUN, TK_POISON, TK_MIST, TK_POTION, TK_AMMO, TK_FLAME, TK_TRAP, TK_CONTAM = range(9)

_PAY_CACHE: dict[tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]], tuple[int, ...]] = {}


def _covers(cards: list[tuple[int, ...]], slots: tuple[int, ...]) -> bool:
    """Whether these cards can pay every slot, each card paying at least one slot and each
    symbol paying at most one slot."""
    n = len(cards)
    if n > len(slots):
        return False
    used: set[tuple[int, int]] = set()
    count = [0] * n

    def bt(si: int, unpaid_cards: int) -> bool:
        if unpaid_cards > len(slots) - si:
            return False
        if si == len(slots):
            return True
        m = slots[si]
        for c in range(n):
            for j, s in enumerate(cards[c]):
                if m >> s & 1 and (c, j) not in used:
                    used.add((c, j))
                    count[c] += 1
                    if bt(si + 1, unpaid_cards - (count[c] == 1)):
                        return True
                    count[c] -= 1
                    used.discard((c, j))
        return False

    return bt(0, n)


def payments(hand: tuple[int, ...], syms: tuple[tuple[int, ...], ...], slots: tuple[int, ...]) -> tuple[int, ...]:
    """Every way (as a bit mask of hand positions) to pay ``slots`` from a sorted hand.

    Identical cards are interchangeable, so only the first copies are offered.
    """
    key = (hand, syms, slots)
    found = _PAY_CACHE.get(key)
    if found is not None:
        return found
    n = len(hand)
    out: list[int] = []
    for mask in range(1, 1 << n):
        if bin(mask).count("1") > len(slots):
            continue
        ok = True
        for i in range(1, n):
            if mask >> i & 1 and hand[i] == hand[i - 1] and not mask >> (i - 1) & 1:
                ok = False
                break
        if not ok:
            continue
        if _covers([syms[i] for i in range(n) if mask >> i & 1], slots):
            out.append(mask)
    res = tuple(out)
    if len(_PAY_CACHE) > 50_000:
        _PAY_CACHE.clear()
    _PAY_CACHE[key] = res
    return res


def _pub(type_: str, **data: Any) -> Event:
    return Event(type_, data)


def _priv(seat: int, type_: str, **data: Any) -> Event:
    return Event(type_, data, frozenset((seat,)))


class KnockdownState(State):
    """A position of Knockdown. Build with ``KnockdownGame.new_state``."""

    __slots__ = (
        "actions_allowed",
        "actions_done",
        "atk_blockfx",
        "atk_by",
        "atk_fx",
        "atk_h",
        "atk_hits",
        "atk_ko",
        "atk_l",
        "atk_src",
        "atk_type",
        "atk_void",
        "candle",
        "cfg",
        "combo_used",
        "contam_left",
        "current",
        "dealt",
        "decider",
        "deck",
        "discard",
        "first",
        "hands",
        "heavy",
        "keep1",
        "keep2",
        "light",
        "move_cancel",
        "pend",
        "phase",
        "pos",
        "reacted",
        "recv",
        "result",
        "reveal_done",
        "revealed",
        "rng",
        "round_no",
        "row",
        "setup",
        "symtab",
        "tasks",
        "tokens",
        "traps",
        "turn",
        "up",
        "victories",
    )

    game: ClassVar[Game[Any]]

    setup: MatchSetup
    cfg: tuple[str, float, float, int]  # knockdown_test, tower_skill, tower_decay, max_turns
    rng: Rng
    phase: int
    decider: int
    pend: tuple[Any, ...]
    tasks: list[tuple[Any, ...]]
    dealt: list[list[int]]
    keep1: list[int]
    recv: list[list[int]]
    keep2: list[int]
    up: list[int]
    revealed: list[bool]
    reveal_done: bool
    symtab: list[tuple[tuple[int, ...], ...]]
    victories: list[int]
    round_no: int
    first: int
    current: int
    turn: int
    actions_done: int
    actions_allowed: int
    heavy: list[int]
    light: list[int]
    pos: list[int]
    hands: list[list[int]]
    tokens: list[list[int]]
    traps: list[int]
    contam_left: int
    row: list[int]
    deck: list[int]
    discard: list[int]
    candle: int
    combo_used: int
    reacted: list[int]
    move_cancel: bool
    atk_by: int
    atk_src: int
    atk_type: int
    atk_h: int
    atk_l: int
    atk_fx: int
    atk_ko: bool
    atk_hits: bool
    atk_blockfx: bool
    atk_void: bool
    result: Outcome | None

    # ------------------------------------------------------------------ setup
    @classmethod
    def start(cls, setup: MatchSetup, cfg: tuple[str, float, float, int], rng: Rng) -> KnockdownState:
        s = cls.__new__(cls)
        s._legal = None
        s.setup = setup
        s.cfg = cfg
        s.rng = rng
        nskills = len(setup.skills)
        pool = list(range(nskills))
        rng.shuffle(pool)
        s.dealt = [sorted(pool[:3]), sorted(pool[3:6])]
        s.keep1 = [-1, -1]
        s.recv = [[], []]
        s.keep2 = [-1, -1]
        s.up = [-1, -1]
        s.revealed = [False, False]
        s.reveal_done = False
        plain = setup.symbol_table(())
        s.symtab = [plain, plain]
        s.victories = [0, 0]
        s.round_no = 1
        s.first = 0
        s.current = 0
        s.turn = 0
        s.actions_done = 0
        s.actions_allowed = 2
        s.heavy = [0, 0]
        s.light = [0, 0]
        s.pos = [setup.arena.starts[0], setup.arena.starts[1]]
        s.hands = [[], []]
        s.tokens = [list(setup.start_tokens[0]), list(setup.start_tokens[1])]
        s.traps = []
        s.contam_left = setup.contamination_count
        s.deck = list(setup.deck)
        rng.shuffle(s.deck)
        s.row = [s.deck.pop() for _ in range(4)]
        s.discard = []
        s.candle = 0
        s.combo_used = 0
        s.reacted = [0, 0]
        s.move_cancel = False
        s._clear_attack()
        s.result = None
        s.tasks = []
        s.pend = ()
        s.phase = DRAFT1
        s.decider = 0
        return s

    def _clear_attack(self) -> None:
        self.atk_by = -1
        self.atk_src = 0
        self.atk_type = 0
        self.atk_h = 0
        self.atk_l = 0
        self.atk_fx = 0
        self.atk_ko = False
        self.atk_hits = False
        self.atk_blockfx = False
        self.atk_void = False

    def _num_players(self) -> int:
        return 2

    # ------------------------------------------------------------------ skills
    def active_skills(self, p: int) -> tuple[int, ...]:
        if self.up[p] < 0 or not self.reveal_done:
            return ()
        if self.revealed[p]:
            return (self.keep1[p], self.keep2[p]) if self.up[p] == 0 else (self.keep2[p], self.keep1[p])
        return (self.keep1[p],) if self.up[p] == 0 else (self.keep2[p],)

    def _skills(self, p: int) -> list[Skill]:
        sk = self.setup.skills
        return [sk[i] for i in self.active_skills(p)]

    def hand_limit(self, p: int) -> int:
        return 6 + self.setup.skill_sums(self.active_skills(p))[0]

    def _range_bonus(self, p: int) -> int:
        return self.setup.skill_sums(self.active_skills(p))[1]

    def _refresh_symbols(self, p: int) -> None:
        self.symtab[p] = self.setup.symbol_table(self.active_skills(p))

    # ------------------------------------------------------------------ geometry
    def in_range(self, rng: tuple[int, int, int], a: int, b: int, bonus: int) -> bool:
        kind = rng[0]
        if kind == RANGE_ANY:
            return True
        arena = self.setup.arena
        if kind == RANGE_PROJECTILE:
            return arena.line[a][b]
        d = arena.dist[a][b]
        return rng[1] <= d <= rng[2] + bonus

    def _place(self, p: int, s: int, ev: list[Event], how: str) -> None:
        self.pos[p] = s
        ev.append(_pub("moved", player=p, to=s, at=self.setup.arena.labels[s], how=how))
        traps = self.traps
        mark = s * 2 + (1 - p)
        if mark in traps:
            traps.remove(mark)
            self.heavy[p] += 1
            ev.append(_pub("trap_sprung", player=p, space=s))

    def _away(self, a: int, b: int) -> int:
        """Direction index pointing from space a away from space b (along x; along y in one column)."""
        ar = self.setup.arena
        dx = ar.xs[a] - ar.xs[b]
        if dx > 0:
            return 3
        if dx < 0:
            return 2
        return 1 if ar.ys[a] > ar.ys[b] else 0

    # ------------------------------------------------------------------ protocol
    def to_act(self) -> Decision | None:
        phase = self.phase
        if phase == OVER:
            return None
        if phase == TOWER:
            return Decision(self.decider, "tower_challenge", 10.0, A.TOWER_FAIL, PHASE_PROMPTS[TOWER])
        return Decision(self.decider, PHASE_KINDS[phase], None, None, PHASE_PROMPTS[phase])

    def outcome(self) -> Outcome | None:
        return self.result

    def _legal_actions(self) -> tuple[Action, ...]:
        ph = self.phase
        if ph == TURN:
            return self._turn_actions()
        if ph == COMBO:
            return self._combo_actions()
        if ph == PAY:
            _purpose, p, k = self.pend
            sp = self.setup.specials[p][k]
            hand = tuple(self.hands[p])
            return tuple(A.PAY[m] for m in payments(hand, tuple(self.symtab[p][d] for d in hand), sp.slots))
        if ph == STEP:
            mover = self.pend[0]
            out = [A.MOVE[d] for d in self._free_dirs(mover)]
            if self.pend[2]:
                out.append(A.STOP)
            return tuple(out)
        if ph == BLINK:
            return tuple(A.PLACE[s] for s in self.pend[2])
        if ph == CARD:
            return self._card_actions()
        if ph == BLOCK:
            return self._block_actions()
        if ph == REACT:
            return (*(A.REACT[k] for k in self.pend[2]), A.REACT_NONE)
        if ph == KO:
            return (A.KO_TEST, A.KO_SKIP)
        if ph == TOWER:
            return (A.TOWER_PASS, A.TOWER_FAIL)
        if ph == COUNT:
            actor, tok = self.pend
            return A.COUNT[: min(self.tokens[actor][tok], A.MAX_COUNT) + 1]
        if ph in (ROW, OPENING):
            return tuple(A.ROW[i] for i in range(4) if self.row[i] >= 0)
        if ph == DRAFT1:
            return A.SKILL
        if ph == DRAFT2:
            return A.SKILL[:2]
        if ph == FACEUP:
            return A.FACEUP
        return ()

    def _free_dirs(self, p: int) -> list[int]:
        nb = self.setup.arena.neighbors[self.pos[p]]
        other = self.pos[1 - p]
        return [d for d in range(4) if nb[d] >= 0 and nb[d] != other]

    def _turn_actions(self) -> tuple[Action, ...]:
        me = self.current
        out = [A.MOVE[d] for d in self._free_dirs(me)]
        out += [A.ATTACK[i] for i in range(4) if self.row[i] >= 0]
        if self._combo_options(me, 0):
            out.append(A.COMBO)
        if not out:
            out.append(A.PASS)
        ar = self.setup.arena
        here = self.pos[me]
        if ar.corridors and here in ar.corridors:
            other = self.pos[1 - me]
            out += [A.CORRIDOR[s] for s in ar.corridors if s != here and s != other]
        if self.tokens[me][TK_POTION] and self.light[me]:
            out.append(A.POTION)
        return tuple(out)

    def _special_ready(self, p: int, k: int) -> bool:
        sp = self.setup.specials[p][k]
        toks = self.tokens[p]
        for t, n in sp.token_cost:
            if toks[t] < n:
                return False
        hand = tuple(self.hands[p])
        return bool(payments(hand, tuple(self.symtab[p][d] for d in hand), sp.slots))

    def _combo_options(self, p: int, used: int) -> list[Action]:
        # the hot path of every legal-action query on a turn: _special_ready inlined,
        # the hand's symbols read once for all Special Attacks
        out: list[Action] = []
        specials = self.setup.specials[p]
        a, b = self.pos[p], self.pos[1 - p]
        bonus = -1
        hand = self.hands[p]
        syms = self.symtab[p]
        hand_t: tuple[int, ...] | None = None
        hand_syms: tuple[tuple[int, ...], ...] = ()
        toks = self.tokens[p]
        for k, sp in enumerate(specials):
            if used >> k & 1 or sp.type == "reaction":
                continue
            if sp.hits:
                if bonus < 0:
                    bonus = self._range_bonus(p)
                if not self.in_range(sp.rng, a, b, bonus):
                    continue
            if sp.token_cost and any(toks[t] < n for t, n in sp.token_cost):
                continue
            if hand_t is None:
                hand_t = tuple(hand)
                hand_syms = tuple(syms[d] for d in hand_t)
            if payments(hand_t, hand_syms, sp.slots):
                out.append(A.SPECIAL[k])
        for i, d in enumerate(hand):
            if 3 in syms[d] and (i == 0 or hand[i - 1] != d):
                out.append(A.DASH[i])
        return out

    def _combo_actions(self) -> tuple[Action, ...]:
        return (*self._combo_options(self.current, self.combo_used), A.COMBO_END)

    def _card_actions(self) -> tuple[Action, ...]:
        purpose, owner, _chooser, _left, revealed, extra = self.pend
        hand = self.hands[owner]
        out: list[Action] = []
        if purpose == C_REVEAL_PICK:
            seen: set[int] = set()
            for i in revealed:
                if hand[i] not in seen:
                    seen.add(hand[i])
                    out.append(A.CARD[i])
            return tuple(out)
        seen = set()
        syms = self.symtab[owner]
        for i, d in enumerate(hand):
            if d in seen or i in revealed:
                continue
            if purpose == C_FOR_TOKENS and extra[0] not in syms[d]:
                continue
            if purpose == C_BLOCK and 2 not in syms[d]:
                continue
            seen.add(d)
            out.append(A.CARD[i])
        if purpose == C_FOR_TOKENS:
            out.append(A.DONE)
        return tuple(out)

    def _block_cards(self, p: int) -> list[int]:
        """Hand positions of cards with a Block symbol, cheapest first (fewest symbols)."""
        syms = self.symtab[p]
        hand = self.hands[p]
        idx = [i for i, d in enumerate(hand) if 2 in syms[d]]
        idx.sort(key=lambda i: (len(syms[hand[i]]), hand[i], i))
        return idx

    def _block_bonus(self, p: int) -> int:
        return self.setup.skill_sums(self.active_skills(p))[2]

    def block_options(self, d: int, nblock: int) -> list[tuple[int, int]]:
        """(heavy, light) pairs a Block of ``nblock`` cards can ignore (something ignored)."""
        rest = len(self.hands[d]) - nblock
        bonus = self._block_bonus(d)
        out = []
        for h in range(min(self.atk_h, rest // 2, A.MAX_BLOCK_HEAVY) + 1):
            lights = min(self.atk_l, rest - 2 * h + bonus)
            if h or lights:
                out.append((h, lights))
        return out

    def _block_actions(self) -> tuple[Action, ...]:
        d = 1 - self.atk_by
        nb = len(self._block_cards(d))
        out = [A.BLOCK_NONE]
        out += [A.BLOCK_WOUNDS[h] for h, _ in self.block_options(d, 1)]
        if self.atk_fx:
            out.append(A.BLOCK_EFFECT)
            if nb >= 2:
                out += [A.BLOCK_BOTH[h] for h, _ in self.block_options(d, 2)]
        return tuple(out)

    def _reactions(self, p: int, trigger: str) -> tuple[int, ...]:
        out = []
        a, b = self.pos[p], self.pos[1 - p]
        for k, sp in enumerate(self.setup.specials[p]):
            if sp.trigger != trigger or self.reacted[p] >> k & 1:
                continue
            if not self.in_range(sp.rng, a, b, self._range_bonus(p)):
                continue
            if self._special_ready(p, k):
                out.append(k)
        return tuple(out)

    # ------------------------------------------------------------------ apply
    def _apply(self, action: Action) -> list[Event]:
        ev: list[Event] = []
        ph = self.phase
        self.phase = BUSY
        if ph == TURN:
            self._turn(action, ev)
        elif ph == COMBO:
            self._combo(action, ev)
        elif ph == PAY:
            self._pay(A.PAY_MASK[action], ev)
        elif ph == STEP:
            self._step(action, ev)
        elif ph == BLINK:
            mover = self.pend[0]
            self._place(mover, A.INDEX[action], ev, "blink")
        elif ph == CARD:
            self._card(action, ev)
        elif ph == BLOCK:
            self._block(action, ev)
        elif ph == REACT:
            self._react(action, ev)
        elif ph == KO:
            if action is A.KO_TEST:
                att = self.atk_by
                ev.append(_pub("ko_test", player=att, target=1 - att))
                self.tasks.append((T_TEST, 1 - att, att))
                self.tasks.append((T_OPS, self.setup.ko_effect[att], 0, att))
            else:
                ev.append(_pub("ko_skip", player=self.atk_by))
        elif ph == TOWER:
            tested, att = self.pend[0], self.pend[1]
            self._test_result(tested, att, action is A.TOWER_PASS, ev, roll=None)
        elif ph == COUNT:
            actor, tok = self.pend
            n = A.INDEX[action]
            self.tokens[actor][tok] -= n
            ev.append(_pub("tokens_spent", player=actor, token=_TOKNAME[tok], count=n))
            if n:
                self.tasks.append((T_STEPS, actor, n, True, actor, False))
        elif ph in (ROW, OPENING):
            self._row_pick(A.INDEX[action], ev)
        elif ph in (DRAFT1, DRAFT2, FACEUP):
            self._draft(ph, A.INDEX[action], ev)
        else:  # pragma: no cover - apply() never reaches here
            raise AssertionError(f"no decision pending in phase {ph}")
        if self.phase == BUSY:
            self._run(ev)
        return ev

    def _decide(self, phase: int, decider: int, pend: tuple[Any, ...] = ()) -> None:
        self.phase = phase
        self.decider = decider
        self.pend = pend

    # -- the task loop
    def _run(self, ev: list[Event]) -> None:
        tasks = self.tasks
        while self.phase == BUSY:
            t = tasks.pop()
            code = t[0]
            if code == T_OPS:
                self._ops(t[1], t[2], t[3], ev)
            elif code == T_DONE:
                self.actions_done += 1
                if self.actions_done >= self.actions_allowed:
                    tasks.append((T_END_TURN,))
                else:
                    self._decide(TURN, self.current)
            elif code == T_COMBO:
                self._decide(COMBO, self.current)
            elif code == T_SEQ:
                self._seq_start(ev)
            elif code == T_SEQ_BLOCK:
                self._seq_block(ev)
            elif code == T_SEQ_WOUNDS:
                self._seq_wounds(ev)
            elif code == T_SEQ_KO:
                if self.atk_ko and not self.atk_void and self.atk_hits:
                    self._decide(KO, self.atk_by)
            elif code == T_TAKE:
                self._take(t[1], t[2], ev)
            elif code == T_LIMIT:
                p = t[1]
                if len(self.hands[p]) > self.hand_limit(p):
                    tasks.append(t)
                    self._decide(CARD, p, (C_LIMIT, p, p, 1, (), ()))
            elif code == T_END_TURN:
                self._end_turn(ev)
            elif code == T_START_TURN:
                self._start_turn(ev)
            elif code == T_TURN_READY:
                self._decide(TURN, self.current)
            elif code == T_MOVE:
                self._move(t[1], t[2], t[3], ev)
            elif code == T_STEPS:
                mover, left, optional, actor, dash = t[1], t[2], t[3], t[4], t[5]
                if left > 0 and self._free_dirs(mover):
                    self._decide(STEP, actor, (mover, left, optional, dash))
            elif code == T_TEST:
                self._test(t[1], t[2], ev)
            elif code == T_ROWPICK:
                p, left, opening = t[1], t[2], t[3]
                cards = [i for i in range(4) if self.row[i] >= 0]
                if cards and left > 0:
                    if opening and len(cards) == 1:
                        d = self.row[cards[0]]
                        self.row[cards[0]] = -1
                        ev.append(_pub("opening_pick", player=p, card=self.setup.cards[d].name, slot=cards[0]))
                        tasks.append((T_TAKE, p, d))
                    else:
                        self._decide(OPENING if opening else ROW, p, (left, opening))
            elif code == T_AFTER_OPENING:
                self._refill(ev)
                self._shuffle_in_candles(ev)
                self._begin_round_tasks()
            else:  # pragma: no cover
                raise AssertionError(f"unknown task {t!r}")

    # -- draft
    def _draft(self, ph: int, i: int, ev: list[Event]) -> None:
        p = self.decider
        if ph == DRAFT1:
            self.keep1[p] = self.dealt[p][i]
            ev.append(_pub("skill_kept", player=p, step=1))
            ev.append(_priv(p, "skill_kept_card", player=p, skill=self.setup.skills[self.keep1[p]].name))
            if p == 0:
                self._decide(DRAFT1, 1)
                return
            self.recv = [[c for c in self.dealt[1 - q] if c != self.keep1[1 - q]] for q in (0, 1)]
            for q in (0, 1):
                ev.append(_pub("skills_passed", player=1 - q, to=q))
                ev.append(_priv(q, "skills_received", player=q,
                                skills=[self.setup.skills[c].name for c in self.recv[q]]))
            self._decide(DRAFT2, 0)
        elif ph == DRAFT2:
            self.keep2[p] = self.recv[p][i]
            ev.append(_pub("skill_kept", player=p, step=2))
            ev.append(_priv(p, "skill_kept_card", player=p, skill=self.setup.skills[self.keep2[p]].name))
            self._decide(DRAFT2 if p == 0 else FACEUP, 1 if p == 0 else 0)
        else:
            self.up[p] = i
            ev.append(_pub("skill_face_chosen", player=p))
            if p == 0:
                self._decide(FACEUP, 1)
                return
            self.reveal_done = True
            for q in (0, 1):
                self._refresh_symbols(q)
                sid = self.active_skills(q)[0]
                sk = self.setup.skills[sid]
                ev.append(_pub("skill_revealed", player=q, skill=sk.name, initiative=sk.initiative))
            ini = [self.setup.skills[self.active_skills(q)[0]].initiative for q in (0, 1)]
            f = 0 if ini[0] >= ini[1] else 1
            self.first = self.current = f
            ev.append(_pub("first_player", player=f, initiative=ini[f]))
            s = 1 - f
            self.tasks += [(T_AFTER_OPENING,), (T_ROWPICK, f, 1, True), (T_ROWPICK, s, 1, True),
                           (T_ROWPICK, s, 1, True), (T_ROWPICK, f, 1, True)]

    def _row_pick(self, slot: int, ev: list[Event]) -> None:
        p = self.decider
        left, opening = self.pend
        d = self.row[slot]
        self.row[slot] = -1
        ev.append(_pub("opening_pick" if opening else "row_take", player=p, card=self.setup.cards[d].name, slot=slot))
        if left > 1:
            self.tasks.append((T_ROWPICK, p, left - 1, opening))
        self.tasks.append((T_TAKE, p, d))

    # -- turn actions
    def _turn(self, action: Action, ev: list[Event]) -> None:
        me = self.current
        tasks = self.tasks
        if action in A.MOVE:
            dest = self.setup.arena.neighbors[self.pos[me]][A.INDEX[action]]
            ev.append(_pub("action", player=me, action="move", number=self.actions_done + 1))
            tasks.append((T_DONE,))
            tasks.append((T_MOVE, me, dest, True))
        elif action in A.ATTACK:
            slot = A.INDEX[action]
            d = self.row[slot]
            self.row[slot] = -1
            card = self.setup.cards[d]
            ev.append(_pub("action", player=me, action="attack", number=self.actions_done + 1))
            ev.append(_pub("attack", player=me, card=card.name, slot=slot))
            tasks.append((T_DONE,))
            tasks.append((T_TAKE, me, d))
            a, b = self.pos[me], self.pos[1 - me]
            if not card.hits or self.in_range(card.rng, a, b, self._range_bonus(me)):
                self._set_attack(me, d, card.type, card.heavy, card.light, card.effect, card.ko, card.hits)
                tasks.append((T_SEQ,))
            else:
                ev.append(_pub("out_of_range", player=me, card=card.name))
        elif action is A.COMBO:
            ev.append(_pub("action", player=me, action="combo", number=self.actions_done + 1))
            self.combo_used = 0
            tasks.append((T_DONE,))
            self._decide(COMBO, me)
        elif action is A.PASS:
            ev.append(_pub("action", player=me, action="pass", number=self.actions_done + 1))
            tasks.append((T_DONE,))
        elif action is A.POTION:
            self.tokens[me][TK_POTION] -= 1
            healed = min(2, self.light[me])
            self.light[me] -= healed
            ev.append(_pub("potion", player=me, healed=healed))
            self._decide(TURN, me)
        else:
            dest = A.INDEX[action]
            arena = self.setup.arena
            self._place(me, dest, ev, "corridor")
            if arena.corridor_heavy[dest]:
                self.heavy[me] += 1
                ev.append(_pub("wounds", player=me, heavy=1, light=0, source="corridor"))
            else:
                self.light[me] += 1
                ev.append(_pub("wounds", player=me, heavy=0, light=1, source="corridor"))
            self._decide(TURN, me)

    def _set_attack(self, by: int, src: int, typ: str, h: int, lt: int, fx: int, ko: bool, hits: bool) -> None:
        self.atk_by = by
        self.atk_src = src
        self.atk_type = HEAVY_TYPES[typ]
        self.atk_h = h
        self.atk_l = lt
        self.atk_fx = fx
        self.atk_ko = ko
        self.atk_hits = hits
        self.atk_blockfx = False
        self.atk_void = False

    def attack_name(self) -> str:
        src = self.atk_src
        if src >= 0:
            return self.setup.cards[src].name
        return self.setup.specials[self.atk_by][-src - 1].name

    # -- combo
    def _combo(self, action: Action, ev: list[Event]) -> None:
        me = self.current
        if action is A.COMBO_END:
            ev.append(_pub("combo_end", player=me))
            return
        if action in A.SPECIAL:
            self._decide(PAY, me, (PAY_COMBO, me, A.INDEX[action]))
            return
        i = A.INDEX[action]
        d = self.hands[me].pop(i)
        self._to_discard(d)
        n = self.symtab[me][d].count(3)
        ev.append(_pub("dash", player=me, card=self.setup.cards[d].name, moves=n))
        self.tasks.append((T_COMBO,))
        self.tasks.append((T_STEPS, me, n, True, me, True))

    def _to_discard(self, d: int) -> None:
        if d == self.setup.contamination:
            self.contam_left += 1
        else:
            self.discard.append(d)

    def _pay(self, mask: int, ev: list[Event]) -> None:
        purpose, p, k = self.pend
        sp = self.setup.specials[p][k]
        hand = self.hands[p]
        paid = [hand[i] for i in range(len(hand)) if mask >> i & 1]
        self.hands[p] = [hand[i] for i in range(len(hand)) if not mask >> i & 1]
        for d in paid:
            self._to_discard(d)
        for t, n in sp.token_cost:
            self.tokens[p][t] -= n
        names = [self.setup.cards[d].name for d in paid]
        tasks = self.tasks
        if purpose == PAY_REACT:
            self.reacted[p] |= 1 << k
            ev.append(_pub("reaction", player=p, special=sp.name, paid=names))
            tasks.append((T_OPS, sp.effect, 0, p))
            return
        self.combo_used |= 1 << k
        ev.append(_pub("special", player=p, special=sp.name, paid=names))
        tasks.append((T_COMBO,))
        self._set_attack(p, -k - 1, sp.type, sp.heavy, sp.light, sp.effect, sp.ko, sp.hits)
        tasks.append((T_SEQ,))

    # -- movement
    def _step(self, action: Action, ev: list[Event]) -> None:
        mover, left, optional, dash = self.pend
        actor = self.decider
        if action is A.STOP:
            ev.append(_pub("stop", player=actor))
            return
        dest = self.setup.arena.neighbors[self.pos[mover]][A.INDEX[action]]
        self.tasks.append((T_STEPS, mover, left - 1, optional, actor, dash))
        self.tasks.append((T_MOVE, mover, dest, dash))

    def _move(self, mover: int, dest: int, react: bool, ev: list[Event]) -> None:
        if react:
            opp = 1 - mover
            opts = self._reactions(opp, "opponent_moves")
            if opts:
                self.move_cancel = False
                self.tasks.append((T_MOVE, mover, dest, False))
                self._decide(REACT, opp, (TRIG_MOVE, mover, opts))
                return
        if self.move_cancel:
            self.move_cancel = False
            ev.append(_pub("move_cancelled", player=mover))
            return
        if dest == self.pos[1 - mover]:  # pragma: no cover - moves into the opponent are never offered
            return
        self._place(mover, dest, ev, "move")

    def _react(self, action: Action, ev: list[Event]) -> None:
        p = self.decider
        if action is A.REACT_NONE:
            return
        self._decide(PAY, p, (PAY_REACT, p, A.INDEX[action]))

    # -- choosing cards
    def _card(self, action: Action, ev: list[Event]) -> None:
        purpose, owner, chooser, left, revealed, extra = self.pend
        if action is A.DONE:
            return
        i = A.INDEX[action]
        hand = self.hands[owner]
        if purpose == C_BLOCK:
            picked = (*revealed, i)
            if len(picked) < left:
                self._decide(CARD, chooser, (C_BLOCK, owner, chooser, left, picked, extra))
            else:
                self._apply_block(owner, picked, extra[0], extra[1], extra[2], ev)
            return
        if purpose == C_REVEAL:
            revealed = (*revealed, i)
            ev.append(_pub("reveal", player=owner, card=self.setup.cards[hand[i]].name))
            if left > 1:
                self._decide(CARD, chooser, (C_REVEAL, owner, chooser, left - 1, revealed, extra))
            else:
                self._decide(CARD, extra[0], (C_REVEAL_PICK, owner, extra[0], 1, revealed, ()))
            return
        d = hand.pop(i)
        self._to_discard(d)
        name = self.setup.cards[d].name
        if purpose == C_LIMIT:
            ev.append(_pub("discard", player=owner, card=name, reason="hand_limit"))
        elif purpose == C_FOR_TOKENS:
            tok = extra[1]
            gained = self._gain(owner, tok, 1)
            ev.append(_pub("discard", player=owner, card=name, reason="for_tokens"))
            ev.append(_pub("tokens", player=owner, token=_TOKNAME[tok], change=gained))
            if any(extra[0] in self.symtab[owner][x] for x in hand):
                self._decide(CARD, chooser, (C_FOR_TOKENS, owner, chooser, left, (), extra))
        else:
            ev.append(_pub("discard", player=owner, card=name, reason="effect", by=chooser))
            if purpose == C_DISCARD and left > 1 and hand:
                self._decide(CARD, chooser, (C_DISCARD, owner, chooser, left - 1, (), ()))

    def _gain(self, p: int, tok: int, n: int) -> int:
        in_play = self.tokens[0][tok] + self.tokens[1][tok]
        n = max(0, min(n, self.setup.supply[tok] - in_play))
        self.tokens[p][tok] += n
        return n

    # -- the Attack Sequence
    def _seq_start(self, ev: list[Event]) -> None:
        att = self.atk_by
        d = 1 - att
        src = self.atk_src
        if not self.atk_hits:
            self.tasks.append((T_SEQ_WOUNDS,))
            return
        h, lt = self.atk_h, self.atk_l
        arena = self.setup.arena
        adjacent = arena.dist[self.pos[att]][self.pos[d]] == 1
        typ = ("strike", "ability", "reaction")[self.atk_type]
        for sk in self._skills(att):
            for e in sk.effects:
                if isinstance(e, PoolBonus):
                    if e.attack_type is not None and e.attack_type != typ:
                        continue
                    if e.source is not None and (e.source == "card") != (src >= 0):
                        continue
                    if e.adjacent is not None and e.adjacent != adjacent:
                        continue
                    h += e.heavy
                    lt += e.light
        if arena.dangerous[self.pos[d]] and adjacent:
            h += 1
            ev.append(_pub("dangerous_edge", player=d))
        for sk in self._skills(d):
            for e in sk.effects:
                if isinstance(e, PoolReduction) and (e.attack_type is None or e.attack_type == typ):
                    h = max(0, h - e.heavy)
                    lt = max(0, lt - e.light)
        self.atk_h, self.atk_l = h, lt
        ev.append(_pub("sequence", player=att, target=d, attack=self.attack_name(), heavy=h, light=lt))
        self.tasks.append((T_SEQ_BLOCK,))
        opts = self._reactions(d, "attacked")
        if opts:
            self._decide(REACT, d, (TRIG_ATTACKED, att, opts))

    def _seq_block(self, ev: list[Event]) -> None:
        if self.atk_void:
            ev.append(_pub("attack_ignored", player=1 - self.atk_by, attack=self.attack_name()))
            return
        self.tasks.append((T_SEQ_WOUNDS,))
        d = 1 - self.atk_by
        if self.tokens[d][TK_MIST] and self.atk_l:
            self.tokens[d][TK_MIST] -= 1
            self.atk_l -= 1
            ev.append(_pub("mist", player=d))
        if (self.atk_type == 0 and (self.atk_h or self.atk_l or self.atk_fx) and self._block_cards(d)
                and len(self._block_actions()) > 1):
            self._decide(BLOCK, d)

    def _block(self, action: Action, ev: list[Event]) -> None:
        d = 1 - self.atk_by
        if action is A.BLOCK_NONE:
            return
        if action is A.BLOCK_EFFECT:
            n, h, wound = 1, 0, False
        elif action in A.BLOCK_BOTH:
            n, h, wound = 2, A.INDEX[action], True
        else:
            n, h, wound = 1, A.INDEX[action], True
        lights = 0
        if wound:
            for hh, ll in self.block_options(d, n):
                if hh == h:
                    lights = ll
        fx = action is A.BLOCK_EFFECT or n == 2
        cands = self._block_cards(d)
        hand = self.hands[d]
        if len({hand[i] for i in cands}) == 1 or len(cands) == n:
            self._apply_block(d, cands[:n], h, lights, fx, ev)
        else:
            self._decide(CARD, d, (C_BLOCK, d, d, n, (), (h, lights, fx)))

    def _apply_block(self, d: int, idx: list[int] | tuple[int, ...], h: int, lights: int, fx: bool,
                     ev: list[Event]) -> None:
        names = []
        for i in sorted(idx, reverse=True):
            c = self.hands[d].pop(i)
            self._to_discard(c)
            names.append(self.setup.cards[c].name)
        self.atk_h -= h
        self.atk_l -= lights
        if fx:
            self.atk_blockfx = True
        ev.append(_pub("block", player=d, cards=names, heavy=h, light=lights, effect=self.atk_blockfx))

    def _seq_wounds(self, ev: list[Event]) -> None:
        att = self.atk_by
        if self.atk_hits and (self.atk_h or self.atk_l):
            d = 1 - att
            self.heavy[d] += self.atk_h
            self.light[d] += self.atk_l
            ev.append(_pub("wounds", player=d, heavy=self.atk_h, light=self.atk_l, source=self.attack_name()))
        self.tasks.append((T_SEQ_KO,))
        if self.atk_fx and not self.atk_blockfx:
            self.tasks.append((T_OPS, self.atk_fx, 0, att))

    # -- Knockdown Test
    def _test(self, tested: int, att: int, ev: list[Event]) -> None:
        if self.cfg[0] == "tower":
            cubes = self.heavy[tested] + self.light[tested]
            ev.append(_pub("tower_challenge", player=tested, cubes=cubes, seconds=10))
            self._decide(TOWER, tested, (tested, att, cubes))
            return
        rng = self.rng
        roll = [rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)]
        self._test_result(tested, att, sum(roll) >= self.heavy[tested] + self.light[tested], ev, roll)

    def tower_pass_chance(self, cubes: int) -> float:
        _, skill, decay, _ = self.cfg
        return max(0.0, min(1.0, skill - decay * max(0, cubes - 3)))

    def _test_result(self, tested: int, att: int, passed: bool, ev: list[Event], roll: list[int] | None) -> None:
        total = self.heavy[tested] + self.light[tested]
        ev.append(_pub("test_result", player=tested, passed=passed, wounds=total, roll=roll))
        if passed:
            gone = self.light[tested] // 2
            self.light[tested] -= gone
            if gone:
                ev.append(_pub("recover", player=tested, light=gone))
            return
        self._round_over(att, "knockdown", ev)

    # -- hands
    def _take(self, p: int, d: int, ev: list[Event]) -> None:
        insort(self.hands[p], d)
        ev.append(_pub("take", player=p, card=self.setup.cards[d].name))
        on_take = self.setup.cards[d].on_take
        if on_take:
            self.tasks.append((T_OPS, on_take, 0, p))
        self.tasks.append((T_LIMIT, p))

    # -- the effect interpreter
    def _cond(self, op: Any, actor: int) -> bool:
        c = op.when
        if c is None:
            return True
        who = actor if c.on == "self" else 1 - actor
        return bool((self.tokens[who][TOKEN_INDEX[c.has]] > 0) == c.present)

    def _ops(self, prog: int, pc: int, actor: int, ev: list[Event]) -> None:
        ops = self.setup.programs[prog]
        opp = 1 - actor
        tasks = self.tasks
        arena = self.setup.arena
        while pc < len(ops):
            op = ops[pc]
            pc += 1
            if not self._cond(op, actor):
                continue
            kind = op.op
            if kind == "wound":
                who = actor if op.target == "self" else opp
                self.heavy[who] += op.heavy
                self.light[who] += op.light
                ev.append(_pub("wounds", player=who, heavy=op.heavy, light=op.light, source="effect"))
            elif kind == "wound_per_symbol":
                syms = self.symtab[actor]
                want = -1 if op.symbol == "any" else _SYMIDX[op.symbol]
                count = sum(sum(1 for s in syms[d] if want < 0 or s == want) for d in self.hands[actor])
                n = count // op.per
                if n:
                    h, lt = (n, 0) if op.kind == "heavy" else (0, n)
                    self.heavy[opp] += h
                    self.light[opp] += lt
                    ev.append(_pub("wounds", player=opp, heavy=h, light=lt, source="effect"))
            elif kind == "backward" or kind == "forward":
                mover = opp if kind == "backward" else actor
                for _ in range(op.steps):
                    di = self._away(self.pos[opp], self.pos[actor])  # the actor-to-opponent direction
                    nxt = arena.neighbors[self.pos[mover]][di]
                    if nxt < 0 or nxt == self.pos[1 - mover]:
                        break
                    self._place(mover, nxt, ev, kind)
            elif kind == "step":
                mover = actor if op.who == "self" else opp
                tasks.append((T_OPS, prog, pc, actor))
                tasks.append((T_STEPS, mover, op.steps, op.optional, actor, False))
                return
            elif kind == "blink":
                mover = actor if op.who == "self" else opp
                anchor = self.pos[actor] if op.anchor == "actor" else self.pos[mover]
                dist = arena.dist[anchor]
                cands = tuple(s for s in range(arena.size)
                              if op.min <= dist[s] <= op.max and s != self.pos[0] and s != self.pos[1])
                if cands:
                    tasks.append((T_OPS, prog, pc, actor))
                    self._decide(BLINK, actor, (mover, 0, cands))
                    return
            elif kind == "place_token":
                who = actor if op.on == "self" else opp
                tok = TOKEN_INDEX[op.token]
                n = self._gain(who, tok, op.count)
                if n:
                    ev.append(_pub("tokens", player=who, token=op.token, change=n))
            elif kind == "remove_token":
                who = actor if op.source == "self" else opp
                tok = TOKEN_INDEX[op.token]
                n = min(op.count, self.tokens[who][tok])
                if n:
                    self.tokens[who][tok] -= n
                    ev.append(_pub("tokens", player=who, token=op.token, change=-n))
            elif kind == "discard":
                owner = actor if op.who == "self" else opp
                if self.hands[owner]:
                    chooser = owner if op.chooser == "owner" else actor
                    tasks.append((T_OPS, prog, pc, actor))
                    self._decide(CARD, chooser, (C_DISCARD, owner, chooser, op.count, (), ()))
                    return
            elif kind == "reveal_discard":
                hand = self.hands[opp]
                if hand:
                    tasks.append((T_OPS, prog, pc, actor))
                    if len(hand) <= op.reveal:
                        revealed = tuple(range(len(hand)))
                        ev.append(_pub("reveal", player=opp, card=", ".join(self.setup.cards[d].name for d in hand)))
                        self._decide(CARD, actor, (C_REVEAL_PICK, opp, actor, 1, revealed, ()))
                    else:
                        self._decide(CARD, opp, (C_REVEAL, opp, opp, op.reveal, (), (actor,)))
                    return
            elif kind == "take_from_row":
                tasks.append((T_OPS, prog, pc, actor))
                tasks.append((T_ROWPICK, actor, op.count, False))
                return
            elif kind == "heal":
                h = min(op.heavy, self.heavy[actor])
                lt = min(op.light, self.light[actor])
                self.heavy[actor] -= h
                self.light[actor] -= lt
                if h or lt:
                    ev.append(_pub("heal", player=actor, heavy=h, light=lt))
            elif kind == "spend_for_steps":
                tok = TOKEN_INDEX[op.token]
                if self.tokens[actor][tok]:
                    tasks.append((T_OPS, prog, pc, actor))
                    self._decide(COUNT, actor, (actor, tok))
                    return
            elif kind == "discard_for_tokens":
                sym = _SYMIDX[op.symbol]
                tok = TOKEN_INDEX[op.token]
                if any(sym in self.symtab[actor][d] for d in self.hands[actor]):
                    tasks.append((T_OPS, prog, pc, actor))
                    self._decide(CARD, actor, (C_FOR_TOKENS, actor, actor, 99, (), (sym, tok)))
                    return
            elif kind == "transfer_wound":
                for _ in range(op.count):
                    if self.heavy[actor]:
                        self.heavy[actor] -= 1
                        self.heavy[opp] += 1
                        ev.append(_pub("wound_moved", player=actor, to=opp, kind="heavy"))
                    elif self.light[actor]:
                        self.light[actor] -= 1
                        self.light[opp] += 1
                        ev.append(_pub("wound_moved", player=actor, to=opp, kind="light"))
            elif kind == "place_trap":
                mark = self.pos[actor] * 2 + actor
                if mark not in self.traps and len(self.traps) < self.setup.supply[TK_TRAP]:
                    self.traps.append(mark)
                    here = self.pos[actor]
                    ev.append(_pub("trap_set", player=actor, space=here, at=self.setup.arena.labels[here]))
            elif kind == "contaminate":
                if self.contam_left > 0 and self.setup.contamination >= 0:
                    self.contam_left -= 1
                    tasks.append((T_OPS, prog, pc, actor))
                    tasks.append((T_TAKE, opp, self.setup.contamination))
                    return
            elif kind == "cancel_move":
                self.move_cancel = True
            elif kind == "ignore_attack":
                self.atk_void = True

    # -- turns and rounds
    def _refill(self, ev: list[Event]) -> bool:
        """Fill the Attack Row to 4; False when the deck runs out first."""
        row = self.row
        deck = self.deck
        for i in range(4):
            while row[i] < 0:
                if not deck:
                    return False
                d = deck.pop()
                if d == CANDLE:
                    self.candle += 1
                    ar = self.setup.arena
                    ev.append(_pub("candle", count=self.candle, left=ar.minx + self.candle - 1,
                                   right=ar.maxx - self.candle + 1))
                    continue
                row[i] = d
                ev.append(_pub("row_card", slot=i, card=self.setup.cards[d].name))
        return True

    def _shuffle_in_candles(self, ev: list[Event]) -> None:
        if self.setup.candles:
            self.deck += [CANDLE] * self.setup.candles
            self.rng.shuffle(self.deck)
            ev.append(_pub("candles_shuffled", count=self.setup.candles))

    def _begin_round_tasks(self) -> None:
        f = self.first
        self.current = f
        self.tasks.append((T_START_TURN,))
        for p in (1 - f, f):
            for sid in reversed(self.active_skills(p)):
                for prog in reversed(self.setup.round_start[sid]):
                    self.tasks.append((T_OPS, prog, 0, p))

    def candle_columns(self) -> tuple[int, int] | None:
        if not self.candle:
            return None
        ar = self.setup.arena
        return (ar.minx + self.candle - 1, ar.maxx - self.candle + 1)

    def _start_turn(self, ev: list[Event]) -> None:
        me = self.current
        self.turn += 1
        ev.append(_pub("turn", player=me, turn=self.turn, round=self.round_no))
        if not self._refill(ev):
            h, lt = self.heavy, self.light
            if h[0] != h[1]:
                w = 0 if h[0] < h[1] else 1
            elif lt[0] != lt[1]:
                w = 0 if lt[0] < lt[1] else 1
            else:
                w = me
            ev.append(_pub("deck_empty", winner=w))
            self._round_over(w, "deck", ev)
            return
        self.reacted = [0, 0]
        self.actions_done = 0
        self.actions_allowed = 2
        if self.tokens[me][TK_STUN]:
            self.tokens[me][TK_STUN] -= 1
            self.actions_allowed = 1
            ev.append(_pub("stunned", player=me))
        self.tasks.append((T_TURN_READY,))
        for sid in reversed(self.active_skills(me)):
            for prog in reversed(self.setup.turn_start[sid]):
                self.tasks.append((T_OPS, prog, 0, me))

    def _end_turn(self, ev: list[Event]) -> None:
        me = self.current
        cols = self.candle_columns()
        if cols is not None:
            x = self.setup.arena.xs[self.pos[me]]
            if x <= cols[0] or x >= cols[1]:
                self.heavy[me] += 1
                ev.append(_pub("wounds", player=me, heavy=1, light=0, source="menhir"))
        toks = self.tokens[me]
        if toks[TK_POISON]:
            n = toks[TK_POISON]
            self.light[me] += n
            toks[TK_POISON] -= 1
            ev.append(_pub("wounds", player=me, heavy=0, light=n, source="poison"))
        if toks[TK_FLAME]:
            toks[TK_FLAME] = 0
            self.heavy[me] += 1
            ev.append(_pub("wounds", player=me, heavy=1, light=0, source="flame"))
        ev.append(_pub("end_turn", player=me))
        if self.turn >= self.cfg[3]:
            self.result = Outcome.shared((0, 1), 2, f"turn limit ({self.cfg[3]}) reached")
            self._decide(OVER, -1)
            self.tasks.clear()
            ev.append(_pub("game_over", winners=[0, 1], draw=True))
            return
        self.current = 1 - me
        self.tasks.append((T_START_TURN,))

    def _round_over(self, winner: int, reason: str, ev: list[Event]) -> None:
        self.tasks.clear()
        self._clear_attack()
        self.victories[winner] += 1
        ev.append(_pub("round_won", player=winner, round=self.round_no, reason=reason,
                       victories=list(self.victories)))
        if self.victories[winner] >= 2:
            self.result = Outcome.win(winner, 2, "knockdown" if reason == "knockdown" else "fewest wounds")
            self._decide(OVER, -1)
            ev.append(_pub("game_over", winners=[winner], draw=False))
            return
        loser = 1 - winner
        if not self.revealed[loser]:
            self.revealed[loser] = True
            self._refresh_symbols(loser)
            for sid in self.active_skills(loser)[1:]:
                ev.append(_pub("skill_revealed", player=loser, skill=self.setup.skills[sid].name,
                               initiative=self.setup.skills[sid].initiative))
        setup = self.setup
        self.round_no += 1
        self.first = loser
        self.heavy = [0, 0]
        self.light = [0, 0]
        self.hands = [[], []]
        self.tokens = [list(setup.start_tokens[0]), list(setup.start_tokens[1])]
        self.traps = []
        self.contam_left = setup.contamination_count
        self.pos = [setup.arena.starts[0], setup.arena.starts[1]]
        self.deck = list(setup.deck)
        self.rng.shuffle(self.deck)
        self.discard = []
        self.candle = 0
        self.row = [self.deck.pop() for _ in range(4)]
        ev.append(_pub("new_round", round=self.round_no, first=loser,
                       row=[setup.cards[d].name for d in self.row]))
        self._shuffle_in_candles(ev)
        self._begin_round_tasks()
        self.phase = BUSY

    # ------------------------------------------------------------------ views
    def observe(self, player: int | None) -> KnockdownView:
        from knockabout.games.knockdown.view import observe  # the view module reads this one

        return observe(self, player)

    # ------------------------------------------------------------------ search
    def turns(self) -> int | None:
        return self.turn

    def clone(self) -> KnockdownState:
        s = KnockdownState.__new__(KnockdownState)
        s._legal = self._legal
        s.setup = self.setup
        s.cfg = self.cfg
        r = Rng.__new__(Rng)
        r.state = self.rng.state
        s.rng = r
        s.phase = self.phase
        s.decider = self.decider
        s.pend = self.pend
        s.tasks = self.tasks[:]
        s.dealt = self.dealt  # never mutated in place after the deal
        s.keep1 = self.keep1[:]
        s.recv = self.recv  # replaced, never mutated in place
        s.keep2 = self.keep2[:]
        s.up = self.up[:]
        s.revealed = self.revealed[:]
        s.reveal_done = self.reveal_done
        s.symtab = self.symtab[:]
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

    def determinize(self, player: int, rng: Rng) -> KnockdownState:
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

    # ------------------------------------------------------------------ serde
    def to_dict(self) -> dict[str, Any]:
        return {
            "picks": self.setup.picks.to_dict(),
            "cfg": list(self.cfg),
            "rng": self.rng.state,
            "phase": self.phase,
            "decider": self.decider,
            "pend": _jsonable(self.pend),
            "tasks": [list(t) for t in self.tasks],
            "dealt": [list(x) for x in self.dealt],
            "keep1": list(self.keep1),
            "recv": [list(x) for x in self.recv],
            "keep2": list(self.keep2),
            "up": list(self.up),
            "revealed": list(self.revealed),
            "reveal_done": self.reveal_done,
            "victories": list(self.victories),
            "round_no": self.round_no,
            "first": self.first,
            "current": self.current,
            "turn": self.turn,
            "actions_done": self.actions_done,
            "actions_allowed": self.actions_allowed,
            "heavy": list(self.heavy),
            "light": list(self.light),
            "pos": list(self.pos),
            "hands": [list(h) for h in self.hands],
            "tokens": [list(t) for t in self.tokens],
            "traps": list(self.traps),
            "contam_left": self.contam_left,
            "row": list(self.row),
            "deck": list(self.deck),
            "discard": list(self.discard),
            "candle": self.candle,
            "combo_used": self.combo_used,
            "reacted": list(self.reacted),
            "move_cancel": self.move_cancel,
            "atk": [self.atk_by, self.atk_src, self.atk_type, self.atk_h, self.atk_l, self.atk_fx, self.atk_ko,
                    self.atk_hits, self.atk_blockfx, self.atk_void],
            "result": None if self.result is None else self.result.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> KnockdownState:
        s = cls.__new__(cls)
        s._legal = None
        s.setup = build_setup(Picks.from_dict(d["picks"]))
        c = d["cfg"]
        s.cfg = (str(c[0]), float(c[1]), float(c[2]), int(c[3]))
        s.rng = Rng(int(d["rng"]))
        s.phase = int(d["phase"])
        s.decider = int(d["decider"])
        s.pend = _tupled(d["pend"])
        s.tasks = [_tupled(t) for t in d["tasks"]]
        s.dealt = [[int(x) for x in y] for y in d["dealt"]]
        s.keep1 = [int(x) for x in d["keep1"]]
        s.recv = [[int(x) for x in y] for y in d["recv"]]
        s.keep2 = [int(x) for x in d["keep2"]]
        s.up = [int(x) for x in d["up"]]
        s.revealed = [bool(x) for x in d["revealed"]]
        s.reveal_done = bool(d["reveal_done"])
        s.symtab = [(), ()]
        s._refresh_symbols(0)
        s._refresh_symbols(1)
        s.victories = [int(x) for x in d["victories"]]
        for name in ("round_no", "first", "current", "turn", "actions_done", "actions_allowed", "contam_left",
                     "candle", "combo_used"):
            setattr(s, name, int(d[name]))
        s.heavy = [int(x) for x in d["heavy"]]
        s.light = [int(x) for x in d["light"]]
        s.pos = [int(x) for x in d["pos"]]
        s.hands = [[int(x) for x in h] for h in d["hands"]]
        s.tokens = [[int(x) for x in t] for t in d["tokens"]]
        if any(len(t) != NTOK for t in s.tokens):
            raise ValueError("token lists have the wrong length")
        s.traps = [int(x) for x in d["traps"]]
        s.row = [int(x) for x in d["row"]]
        s.deck = [int(x) for x in d["deck"]]
        s.discard = [int(x) for x in d["discard"]]
        s.reacted = [int(x) for x in d["reacted"]]
        s.move_cancel = bool(d["move_cancel"])
        a = d["atk"]
        s.atk_by, s.atk_src, s.atk_type, s.atk_h, s.atk_l, s.atk_fx = (int(x) for x in a[:6])
        s.atk_ko, s.atk_hits, s.atk_blockfx, s.atk_void = (bool(x) for x in a[6:])
        r = d["result"]
        s.result = None if r is None else Outcome(tuple(r["winners"]), tuple(r["payoffs"]), bool(r["draw"]),
                                                   str(r["reason"]))
        return s


def _jsonable(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [_jsonable(v) for v in x]
    return x


def _tupled(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_tupled(v) for v in x)
    return x
