"""The rules of Knockdown as a :class:`~knockabout.core.protocol.State`.

How it runs: every rule step that may need a player's choice is a *task* on a stack
(``tasks``, typed records from :mod:`.rules.tasks`, top last). :meth:`KnockdownState._run`
pops tasks until one of them sets a pending decision (``phase``, a
:class:`.rules.phases.Phase`; ``decider``; ``pend``, the decision's record from
:mod:`.rules.phases`); the next action answers it and the loop goes on. The Attack
Sequence, Combos, reactions, effects and turn/round ends are all tasks, so any of them can
stop for a decision in the middle and a clone is just a copy of a few lists.

This module holds the position's data, the small rules every part uses (skills, range,
placing a fighter) and the two dispatchers: :meth:`~KnockdownState._apply` (an answer to
the pending decision) and :meth:`~KnockdownState._run` (the task loop). The rules
themselves live by concern in :mod:`.rules` (the package's README.md maps each rulebook
section to its function); :mod:`.search` makes the clones for search and :mod:`.serde`
the saved states. The content a match plays with is :mod:`.content.match`.

Information: Attack cards only ever reach a hand from the face-up Attack Row, so every
hand is open information (shown to both players; a player with a perfect memory would
know it anyway). Hidden are the deck order and the skill draft: the cards dealt to the
opponent, the opponent's picks and their face-down Skill card until it is revealed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, assert_never

from knockabout.core.actions import Action
from knockabout.core.events import Event, public
from knockabout.core.protocol import Decision, Game, Outcome, State
from knockabout.core.rng import Rng
from knockabout.games.knockdown import actions as A
from knockabout.games.knockdown import search, serde
from knockabout.games.knockdown.content.match import (
    RANGE_ANY,
    RANGE_PROJECTILE,
    MatchSetup,
)
from knockabout.games.knockdown.content.match import TK_AMMO as TK_AMMO
from knockabout.games.knockdown.content.match import TK_CONTAM as TK_CONTAM
from knockabout.games.knockdown.content.match import TK_CURSE as TK_CURSE
from knockabout.games.knockdown.content.match import TK_FLAME as TK_FLAME
from knockabout.games.knockdown.content.match import TK_MIST as TK_MIST
from knockabout.games.knockdown.content.match import TK_POISON as TK_POISON
from knockabout.games.knockdown.content.match import TK_POTION as TK_POTION
from knockabout.games.knockdown.content.match import TK_STUN as TK_STUN
from knockabout.games.knockdown.content.match import TK_TRAP as TK_TRAP
from knockabout.games.knockdown.content.models import Skill
from knockabout.games.knockdown.rules import attacks, draft, effects, hands, ko, legal, rounds, turn
from knockabout.games.knockdown.rules.phases import (
    BLINK,
    BLOCK,
    BUSY,
    C_BLOCK,
    C_LIMIT,
    CARD,
    COMBO,
    COMBO_OPENING_DECISIONS,
    COMBO_PLAYED,
    COUNT,
    DECISIONS,
    OPENING,
    OVER,
    PAY,
    REACT,
    ROW,
    STEP,
    TOWER_DECISIONS,
    CardPending,
    Phase,
    StepPending,
)
from knockabout.games.knockdown.rules.phases import (
    DRAFT1 as DRAFT1,
)
from knockabout.games.knockdown.rules.phases import (
    DRAFT2 as DRAFT2,
)
from knockabout.games.knockdown.rules.phases import (
    FACEUP as FACEUP,
)
from knockabout.games.knockdown.rules.phases import (
    KO as KO,
)
from knockabout.games.knockdown.rules.phases import (
    TOWER as TOWER,
)
from knockabout.games.knockdown.rules.phases import (
    TURN as TURN,
)
from knockabout.games.knockdown.rules.tasks import (
    END_TURN,
    ActionDone,
    AfterOpening,
    CheckHandLimit,
    ComboNext,
    EndTurn,
    KnockdownTest,
    Move,
    RowPick,
    RunOps,
    SequenceBlock,
    SequenceKO,
    SequenceStart,
    SequenceWounds,
    StartTurn,
    Steps,
    Take,
    Task,
    TurnReady,
)

if TYPE_CHECKING:
    from knockabout.games.knockdown.presentation.view import KnockdownView

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
        "sums",
        "symtab",
        "tasks",
        "tokens",
        "traps",
        "turn",
        "up",
        "victories",
    )

    game: ClassVar[Game[Any]]
    # the skills dealt and those passed on are replaced, never changed in place (clone)
    shared_on_clone: ClassVar[frozenset[str]] = frozenset({"dealt", "recv"})

    setup: MatchSetup
    cfg: tuple[str, float, float, int, str, int, int]
    """knockdown_test, tower_skill, tower_decay, max_turns, tower_timer, rounds_to_win (the options)."""
    rng: Rng
    phase: Phase
    decider: int
    pend: tuple[Any, ...]  # the pending decision's details: a record from .phases (by phase), or ()
    tasks: list[Task]
    dealt: list[list[int]]
    keep1: list[int]
    recv: list[list[int]]
    keep2: list[int]
    up: list[int]
    revealed: list[bool]
    reveal_done: bool
    symtab: list[tuple[tuple[int, ...], ...]]
    sums: list[tuple[int, int, int]]
    """Per seat, what its active skills add up to: hand limit change, range bonus, Block
    bonus (:meth:`MatchSetup.skill_sums`); kept beside ``symtab`` and refreshed with it."""
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

    def __init__(self) -> None:
        """An empty shell that the constructors below fill in (a plain constructor, not
        ``cls.__new__``, so that the mypyc build compiles the same source); its cache of
        legal actions starts empty."""
        self._legal = None

    # ------------------------------------------------------------------ setup
    @classmethod
    def start(cls, setup: MatchSetup, cfg: tuple[str, float, float, int, str, int, int], rng: Rng) -> KnockdownState:
        """A new match: skills dealt, deck shuffled, the Attack Row laid out, the draft to play."""
        return draft.new_match(cls, setup, cfg, rng)

    def clear_attack(self) -> None:
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

    def skills_of(self, p: int) -> list[Skill]:
        sk = self.setup.skills
        return [sk[i] for i in self.active_skills(p)]

    def hand_limit(self, p: int) -> int:
        return self.cfg[6] + self.sums[p][0]  # the hand_limit option (6 as printed) and skills

    def range_bonus(self, p: int) -> int:
        return self.sums[p][1]

    def refresh_symbols(self, p: int) -> None:
        """Seat ``p``'s symbol table and skill sums, after its active skills changed."""
        active = self.active_skills(p)
        self.symtab[p] = self.setup.symbol_table(active)
        self.sums[p] = self.setup.skill_sums(active)

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

    def place(self, p: int, s: int, ev: list[Event], how: str) -> None:
        """Put fighter ``p`` on space ``s`` (moved there by ``how``); a Trap there springs."""
        self.pos[p] = s
        ev.append(public("moved", player=p, to=s, at=self.setup.arena.labels[s], how=how))
        traps = self.traps
        mark = s * 2 + (1 - p)
        if mark in traps:
            traps.remove(mark)
            self.heavy[p] += 1
            ev.append(public("trap_sprung", player=p, space=s))

    def away(self, a: int, b: int) -> int:
        """Direction index pointing from space a away from space b (along x; along y in one column)."""
        ar = self.setup.arena
        dx = ar.xs[a] - ar.xs[b]
        if dx > 0:
            return 3
        if dx < 0:
            return 2
        return 1 if ar.ys[a] > ar.ys[b] else 0

    def block_options(self, d: int, nblock: int) -> list[tuple[int, int]]:
        """(heavy, light) pairs a Block of ``nblock`` cards can ignore (something ignored)."""
        return legal.block_options(self, d, nblock)

    def attack_name(self) -> str:
        src = self.atk_src
        if src >= 0:
            return self.setup.cards[src].name
        return self.setup.specials[self.atk_by][-src - 1].name

    def candle_columns(self) -> tuple[int, int] | None:
        if not self.candle:
            return None
        ar = self.setup.arena
        return (ar.minx + self.candle - 1, ar.maxx - self.candle + 1)

    def tower_pass_chance(self, cubes: int) -> float:
        skill, decay = self.cfg[1], self.cfg[2]
        return max(0.0, min(1.0, skill - decay * max(0, cubes - 3)))

    # ------------------------------------------------------------------ protocol
    def to_act(self) -> Decision | None:
        phase = self.phase
        if phase is OVER:
            return None
        if phase is COMBO and not self.pend[0]:
            return COMBO_OPENING_DECISIONS[self.decider]
        if phase is TOWER:  # timed by the rules, unless the tower's seconds start when it is opened
            return TOWER_DECISIONS[self.decider][1 if self.cfg[4] == "when_opened" else 0]
        return DECISIONS[phase][self.decider]

    def outcome(self) -> Outcome | None:
        return self.result

    def _legal_actions(self) -> tuple[Action, ...]:  # a method, not an alias: mypyc compiles methods
        return legal.legal_actions(self)

    def decide(self, phase: Phase, decider: int, pend: tuple[Any, ...] = ()) -> None:
        """Stop the task loop: ``decider`` answers a ``phase`` decision (details ``pend``)."""
        self.phase = phase
        self.decider = decider
        self.pend = pend

    def _apply(self, action: Action) -> list[Event]:
        ev: list[Event] = []
        ph = self.phase
        self.phase = BUSY
        # the commonest phases first; ``is`` on the members lets mypy check every phase is here
        if ph is TURN:
            turn.turn_action(self, action, ev)
        elif ph is COMBO:
            turn.combo_step(self, action, ev)
        elif ph is STEP:
            turn.step(self, action, ev)
        elif ph is PAY:
            turn.pay(self, A.PAY_MASK[action], ev)
        elif ph is CARD:
            if self.pend[0] is C_BLOCK:
                attacks.block_card(self, action, ev)
            else:
                hands.choose_card(self, action, ev)
        elif ph is BLOCK:
            attacks.block(self, action, ev)
        elif ph is ROW or ph is OPENING:
            draft.row_pick(self, A.INDEX[action], ev)
        elif ph is REACT:
            turn.react(self, action)
        elif ph is BLINK:
            self.place(self.pend[0], A.INDEX[action], ev, "blink")
        elif ph is KO:
            ko.ko_choice(self, action, ev)
        elif ph is TOWER:
            ko.tower_result(self, action, ev)
        elif ph is COUNT:
            effects.spend_tokens(self, A.INDEX[action], ev)
        elif ph is DRAFT1 or ph is DRAFT2 or ph is FACEUP:
            draft.draft(self, ph, A.INDEX[action], ev)
        elif ph is OVER or ph is BUSY:  # pragma: no cover - apply() never reaches here
            raise AssertionError(f"no decision pending in phase {ph.name}")
        else:
            assert_never(ph)
        if self.phase is BUSY:
            self._run(ev)
        return ev

    def _run(self, ev: list[Event]) -> None:
        """The task loop: run tasks until one stops for a decision."""
        tasks = self.tasks
        while self.phase is BUSY:
            t = tasks.pop()
            # the commonest tasks first (counted over random games; the order does not matter
            # otherwise, the types are distinct); the small ones that only ask for a decision run here
            if type(t) is ActionDone:
                self.actions_done += 1
                if self.actions_done >= self.actions_allowed:
                    tasks.append(END_TURN)
                else:
                    self.decide(TURN, self.current)
            elif type(t) is CheckHandLimit:
                p = t.player
                if len(self.hands[p]) > self.hand_limit(p):
                    tasks.append(t)
                    self.decide(CARD, p, CardPending(C_LIMIT, p, p, 1, (), ()))
            elif type(t) is Take:
                hands.take(self, t.player, t.card, ev)
            elif type(t) is StartTurn:
                rounds.start_turn(self, ev)
            elif type(t) is Move:
                turn.move(self, t, ev)
            elif type(t) is TurnReady:
                self.decide(TURN, self.current)
            elif type(t) is EndTurn:
                rounds.end_turn(self, ev)
            elif type(t) is RunOps:
                effects.run_ops(self, t, ev)
            elif type(t) is SequenceStart:
                attacks.sequence_start(self, ev)
            elif type(t) is SequenceWounds:
                attacks.sequence_wounds(self, ev)
            elif type(t) is SequenceKO:
                if self.atk_ko and not self.atk_void and self.atk_hits:
                    self.decide(KO, self.atk_by)
            elif type(t) is Steps:
                if t.left > 0 and legal.free_dirs(self, t.mover):
                    self.decide(STEP, t.actor, StepPending(t.mover, t.left, t.optional, t.dash))
            elif type(t) is SequenceBlock:
                attacks.sequence_block(self, ev)
            elif type(t) is ComboNext:
                self.decide(COMBO, self.current, COMBO_PLAYED)
            elif type(t) is RowPick:
                draft.row_pick_task(self, t, ev)
            elif type(t) is KnockdownTest:
                ko.knockdown_test(self, t.tested, t.attacker, ev)
            elif type(t) is AfterOpening:
                draft.after_opening(self, ev)
            else:
                assert_never(t)

    # ------------------------------------------------------------------ views
    def observe(self, player: int | None) -> KnockdownView:
        from knockabout.games.knockdown.presentation.view import observe  # the view module reads this one

        return observe(self, player)

    def turns(self) -> int | None:
        return self.turn

    def clone(self) -> KnockdownState:
        """A copy sharing nothing the rules change in place (every slot, field by field)."""
        s = KnockdownState()
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

    def determinize(self, player: int, rng: Rng) -> KnockdownState:
        return search.determinize(self, player, rng)

    # ------------------------------------------------------------------ serde
    def to_dict(self) -> dict[str, Any]:
        return serde.to_dict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> KnockdownState:
        return serde.from_dict(cls, d)
