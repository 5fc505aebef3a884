"""A fighter's turn: the actions (Move, Attack, Combo, Pass, Potion, Technical Corridor), the
Combo's Special Attacks and Dashes, paying their cost, moving step by step, and Reactions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from knockabout.core.actions import Action
from knockabout.core.events import Event, public
from knockabout.games.knockdown import actions as A
from knockabout.games.knockdown.content.match import TK_POTION
from knockabout.games.knockdown.rules import legal
from knockabout.games.knockdown.rules.hands import to_discard
from knockabout.games.knockdown.rules.phases import (
    COMBO,
    COMBO_STARTED,
    PAY,
    PAY_COMBO,
    PAY_REACT,
    REACT,
    TRIG_MOVE,
    TURN,
    PayPending,
    ReactPending,
)
from knockabout.games.knockdown.rules.tasks import (
    ACTION_DONE,
    COMBO_NEXT,
    SEQUENCE_START,
    Move,
    RunOps,
    Steps,
    Take,
)

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState

HEAVY_TYPES: Final[dict[str, int]] = {"strike": 0, "ability": 1, "reaction": 2}
"""Attack types as stored in ``atk_type``."""


def turn_action(s: KnockdownState, action: Action, ev: list[Event]) -> None:
    me = s.current
    tasks = s.tasks
    if action in A.MOVE:
        dest = s.setup.arena.neighbors[s.pos[me]][A.INDEX[action]]
        ev.append(public("action", player=me, action="move", number=s.actions_done + 1))
        tasks.append(ACTION_DONE)
        tasks.append(Move(me, dest, True))
    elif action in A.ATTACK:
        slot = A.INDEX[action]
        d = s.row[slot]
        s.row[slot] = -1
        card = s.setup.cards[d]
        ev.append(public("action", player=me, action="attack", number=s.actions_done + 1))
        ev.append(public("attack", player=me, card=card.name, slot=slot))
        tasks.append(ACTION_DONE)
        tasks.append(Take(me, d))
        a, b = s.pos[me], s.pos[1 - me]
        if not card.hits or s.in_range(card.rng, a, b, s.range_bonus(me)):
            set_attack(s, me, d, card.type, card.heavy, card.light, card.effect, card.ko, card.hits)
            tasks.append(SEQUENCE_START)
        else:
            ev.append(public("out_of_range", player=me, card=card.name))
    elif action is A.COMBO:
        ev.append(public("action", player=me, action="combo", number=s.actions_done + 1))
        s.combo_used = 0
        tasks.append(ACTION_DONE)
        s.decide(COMBO, me, COMBO_STARTED)
    elif action is A.PASS:
        ev.append(public("action", player=me, action="pass", number=s.actions_done + 1))
        tasks.append(ACTION_DONE)
    elif action is A.POTION:
        s.tokens[me][TK_POTION] -= 1
        healed = min(2, s.light[me])
        s.light[me] -= healed
        ev.append(public("potion", player=me, healed=healed))
        s.decide(TURN, me)
    else:
        dest = A.INDEX[action]
        arena = s.setup.arena
        s.place(me, dest, ev, "corridor")
        if arena.corridor_heavy[dest]:
            s.heavy[me] += 1
            ev.append(public("wounds", player=me, heavy=1, light=0, source="corridor"))
        else:
            s.light[me] += 1
            ev.append(public("wounds", player=me, heavy=0, light=1, source="corridor"))
        s.decide(TURN, me)


def set_attack(s: KnockdownState, by: int, src: int, typ: str, h: int, lt: int, fx: int, ko: bool,
               hits: bool) -> None:
    """The attack now resolving: by whom, from which card (>= 0) or Special Attack (-k - 1)."""
    s.atk_by = by
    s.atk_src = src
    s.atk_type = HEAVY_TYPES[typ]
    s.atk_h = h
    s.atk_l = lt
    s.atk_fx = fx
    s.atk_ko = ko
    s.atk_hits = hits
    s.atk_blockfx = False
    s.atk_void = False


def combo_step(s: KnockdownState, action: Action, ev: list[Event]) -> None:
    me = s.current
    if action is A.COMBO_END:
        ev.append(public("combo_end", player=me))
        return
    if action in A.SPECIAL:
        s.decide(PAY, me, PayPending(PAY_COMBO, me, A.INDEX[action]))
        return
    i = A.INDEX[action]
    d = s.hands[me].pop(i)
    to_discard(s, d)
    n = s.symtab[me][d].count(3)
    ev.append(public("dash", player=me, card=s.setup.cards[d].name, moves=n))
    s.tasks.append(COMBO_NEXT)
    s.tasks.append(Steps(me, n, True, me, True))


def pay(s: KnockdownState, mask: int, ev: list[Event]) -> None:
    purpose, p, k = s.pend
    sp = s.setup.specials[p][k]
    hand = s.hands[p]
    paid = [hand[i] for i in range(len(hand)) if mask >> i & 1]
    s.hands[p] = [hand[i] for i in range(len(hand)) if not mask >> i & 1]
    for d in paid:
        to_discard(s, d)
    for t, n in sp.token_cost:
        s.tokens[p][t] -= n
    names = [s.setup.cards[d].name for d in paid]
    tasks = s.tasks
    if purpose == PAY_REACT:
        s.reacted[p] |= 1 << k
        ev.append(public("reaction", player=p, special=sp.name, paid=names))
        tasks.append(RunOps(sp.effect, 0, p))
        return
    s.combo_used |= 1 << k
    ev.append(public("special", player=p, special=sp.name, paid=names))
    tasks.append(COMBO_NEXT)
    set_attack(s, p, -k - 1, sp.type, sp.heavy, sp.light, sp.effect, sp.ko, sp.hits)
    tasks.append(SEQUENCE_START)


def step(s: KnockdownState, action: Action, ev: list[Event]) -> None:
    mover, left, optional, dash = s.pend
    actor = s.decider
    if action is A.STOP:
        ev.append(public("stop", player=actor))
        return
    dest = s.setup.arena.neighbors[s.pos[mover]][A.INDEX[action]]
    s.tasks.append(Steps(mover, left - 1, optional, actor, dash))
    s.tasks.append(Move(mover, dest, dash))


def move(s: KnockdownState, task: Move, ev: list[Event]) -> None:
    mover, dest, react = task.mover, task.dest, task.react
    if react:
        opp = 1 - mover
        opts = legal.reactions(s, opp, "opponent_moves")
        if opts:
            s.move_cancel = False
            s.tasks.append(Move(mover, dest, False))
            s.decide(REACT, opp, ReactPending(TRIG_MOVE, mover, opts))
            return
    if s.move_cancel:
        s.move_cancel = False
        ev.append(public("move_cancelled", player=mover))
        return
    if dest == s.pos[1 - mover]:  # pragma: no cover - moves into the opponent are never offered
        return
    s.place(mover, dest, ev, "move")


def react(s: KnockdownState, action: Action) -> None:
    p = s.decider
    if action is A.REACT_NONE:
        return
    s.decide(PAY, p, PayPending(PAY_REACT, p, A.INDEX[action]))

