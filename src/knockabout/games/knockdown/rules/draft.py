"""Before the first turn: dealing a new match, the Skill draft (keep one of three, one of two, choose the face-up
card), the reveal and initiative, then the opening picks from the Attack Row. Taking cards
from the row later (an effect) uses the same picks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from knockabout.core.events import Event, private, public
from knockabout.core.rng import Rng
from knockabout.games.knockdown.content.match import MatchSetup
from knockabout.games.knockdown.rules.phases import DRAFT1, DRAFT2, FACEUP, OPENING, ROW, Phase, RowPending
from knockabout.games.knockdown.rules.rounds import begin_round_tasks, refill, shuffle_in_candles
from knockabout.games.knockdown.rules.tasks import AFTER_OPENING, RowPick, Take

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState


def new_match(
    cls: type[KnockdownState], setup: MatchSetup, cfg: tuple[str, float, float, int, str, int, int], rng: Rng
) -> KnockdownState:
    """A new match: skills dealt, deck shuffled, the Attack Row laid out, the draft to play."""
    s = cls()
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
    none = setup.skill_sums(())
    s.sums = [none, none]
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
    s.clear_attack()
    s.result = None
    s.tasks = []
    s.pend = ()
    s.phase = DRAFT1
    s.decider = 0
    return s


def draft(s: KnockdownState, ph: Phase, i: int, ev: list[Event]) -> None:
    """The answer ``i`` in a draft phase (DRAFT1, DRAFT2 or FACEUP)."""
    p = s.decider
    skills = s.setup.skills
    if ph == DRAFT1:
        s.keep1[p] = s.dealt[p][i]
        ev.append(public("skill_kept", player=p, step=1))
        ev.append(private(frozenset((p,)), "skill_kept_card", player=p, skill=skills[s.keep1[p]].name))
        if p == 0:
            s.decide(DRAFT1, 1)
            return
        s.recv = [[c for c in s.dealt[1 - q] if c != s.keep1[1 - q]] for q in (0, 1)]
        for q in (0, 1):
            ev.append(public("skills_passed", player=1 - q, to=q))
            ev.append(private(frozenset((q,)), "skills_received", player=q, skills=[skills[c].name for c in s.recv[q]]))
        s.decide(DRAFT2, 0)
    elif ph == DRAFT2:
        s.keep2[p] = s.recv[p][i]
        ev.append(public("skill_kept", player=p, step=2))
        ev.append(private(frozenset((p,)), "skill_kept_card", player=p, skill=skills[s.keep2[p]].name))
        s.decide(DRAFT2 if p == 0 else FACEUP, 1 if p == 0 else 0)
    else:
        s.up[p] = i
        ev.append(public("skill_face_chosen", player=p))
        if p == 0:
            s.decide(FACEUP, 1)
            return
        s.reveal_done = True
        for q in (0, 1):
            s.refresh_symbols(q)
            sk = skills[s.active_skills(q)[0]]
            ev.append(public("skill_revealed", player=q, skill=sk.name, initiative=sk.initiative))
        ini = [skills[s.active_skills(q)[0]].initiative for q in (0, 1)]
        f = 0 if ini[0] >= ini[1] else 1
        s.first = s.current = f
        ev.append(public("first_player", player=f, initiative=ini[f]))
        o = 1 - f
        s.tasks += [AFTER_OPENING, RowPick(f, 1, True), RowPick(o, 1, True), RowPick(o, 1, True),
                    RowPick(f, 1, True)]


def row_pick_task(s: KnockdownState, task: RowPick, ev: list[Event]) -> None:
    """Ask for the next card from the row (the last opening pick takes the only card left)."""
    p, left, opening = task.player, task.left, task.opening
    cards = [i for i in range(4) if s.row[i] >= 0]
    if cards and left > 0:
        if opening and len(cards) == 1:
            d = s.row[cards[0]]
            s.row[cards[0]] = -1
            ev.append(public("opening_pick", player=p, card=s.setup.cards[d].name, slot=cards[0]))
            s.tasks.append(Take(p, d))
        else:
            s.decide(OPENING if opening else ROW, p, RowPending(left, opening))


def row_pick(s: KnockdownState, slot: int, ev: list[Event]) -> None:
    """The answer in phase ROW or OPENING: the card in ``slot``."""
    p = s.decider
    left, opening = s.pend
    d = s.row[slot]
    s.row[slot] = -1
    ev.append(public("opening_pick" if opening else "row_take", player=p, card=s.setup.cards[d].name, slot=slot))
    if left > 1:
        s.tasks.append(RowPick(p, left - 1, opening))
    s.tasks.append(Take(p, d))


def after_opening(s: KnockdownState, ev: list[Event]) -> None:
    refill(s, ev)
    shuffle_in_candles(s, ev)
    begin_round_tasks(s)
