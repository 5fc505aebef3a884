"""How the answers to a play resolve: replies to an Attack and to a Countdown, the
rest of a Scout (what to take, how to put the rest back), Sweep's direction, and the
Clinch steals (whom to rob, the naming loop of a triple).

Each function applies one already-checked action of its phase to the state and
appends the events it causes; the turn's structure (draws, KOs, the end of a turn)
stays in :mod:`.state`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from knockabout.core.actions import Action
from knockabout.core.events import Event, private, public
from knockabout.games.nakmuay import actions as A
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay.phases import (
    KO_BLOCK,
    ONLY,
    OVER,
    SCOUT_ORDER,
    STEAL_PAIR,
    THEN_ATTACKER_DRAW,
    TRIPLE_NAME,
)

if TYPE_CHECKING:
    from knockabout.games.nakmuay.state import NakMuayState


def attack_reply(s: NakMuayState, action: Action, ev: list[Event]) -> None:
    """The target of an Attack dodges it or takes its draws."""
    t = s.target
    if action is A.DODGE:
        s.lose(t, C.DODGE)
        ev.append(public("dodge", player=t, against="attack"))
        s.after_major(ev)
        return
    ev.append(public("take", player=t, count=s.attack_value))
    s.draw_player = t
    s.draws_left = s.attack_value
    s.then = THEN_ATTACKER_DRAW
    if s.draw_sequence(ev):
        s.after_draws(ev)
    elif s.phase != OVER and s.phase != KO_BLOCK:
        # the target was knocked out: the rest of its draws are cancelled
        s.after_major(ev)


def countdown_reply(s: NakMuayState, action: Action, ev: list[Event]) -> None:
    """The target of a Countdown answers it in time (Block, Dodge, a Clinch) or is out."""
    t = s.target
    s.countdown_live = False
    if action is A.NO_RESPONSE:
        s.discard.append(C.COUNTDOWN)
        ev.append(public("countdown_expired", player=t))
        s.eliminate(t, "countdown", ev)
    else:
        if action is A.BLOCK:
            kind = C.BLOCK
        elif action is A.DODGE:
            kind = C.DODGE
        else:
            kind = A.CLINCH_HOLD[action]
        s.lose(t, kind)
        s.discard.append(C.COUNTDOWN)
        ev.append(public("countdown_answered", player=t, card=C.NAMES[kind]))
    s.after_major(ev)


def sweep_direction(s: NakMuayState, action: Action, ev: list[Event]) -> None:
    """After a Sweep: keep or reverse the direction of play."""
    if action is A.REVERSE:
        s.direction = -s.direction
    ev.append(public("direction", player=s.current, reversed=action is A.REVERSE, direction=s.direction))
    s.after_major(ev)


# -- scout
def scout_take(s: NakMuayState, action: Action, ev: list[Event]) -> None:
    """The scout takes one of the cards it saw (or none when all are KOs)."""
    me = s.current
    seen = s.scout_cards
    if action is not A.SCOUT_TAKE_NONE:
        kind = seen.pop(A.SCOUT_INDEX[action])
        s.gain(me, kind)
        ev.append(public("scout_take", player=me))
        ev.append(private(ONLY[me], "scout_took", player=me, card=C.NAMES[kind]))
    if len(seen) >= 2:
        s.set_phase(SCOUT_ORDER, me)
    else:
        scout_return(s, (0,) if seen else (), ev)


def scout_return(s: NakMuayState, order: tuple[int, ...], ev: list[Event]) -> None:
    """The scout puts the other cards back on the pile, ``order[0]`` on top; it keeps
    knowing where they lie."""
    me = s.current
    seen = s.scout_cards
    mark = 1 << (me + 4)
    for i in reversed(order):
        s.pile.append(seen[i] | mark)
    if order:
        ev.append(public("scout_return", player=me, count=len(order)))
        ev.append(private(ONLY[me], "scout_order", player=me, top_first=[C.NAMES[seen[i]] for i in order]))
    s.scout_cards = []
    s.after_major(ev)


# -- clinch steals
def take_random(s: NakMuayState, thief: int, victim: int, ev: list[Event]) -> None:
    """The thief takes a card at random from the victim's hand (if it has any)."""
    size = s.sizes[victim]
    if size == 0:
        ev.append(public("steal_nothing", player=thief, target=victim))
        return
    r = s.rng.below(size)
    hand = s.hands[victim]
    kind = 0
    for kind in range(C.NUM_KINDS):
        r -= hand[kind]
        if r < 0:
            break
    hand[kind] -= 1
    s.sizes[victim] -= 1
    s.gain(thief, kind)
    ev.append(public("steal", player=thief, target=victim, named=False))
    ev.append(
        private(frozenset((thief, victim)), "stolen_card", player=thief, target=victim, card=C.NAMES[kind])
    )


def steal_target(s: NakMuayState, victim: int, ev: list[Event]) -> None:
    """The thief picks whom to rob: a pair steals at once, a triple starts naming cards."""
    me = s.current
    s.steal_target = victim
    ev.append(public("steal_target", player=me, target=victim))
    if s.steal_kind == STEAL_PAIR:
        take_random(s, me, victim, ev)
        s.after_major(ev)
    else:
        s.named = 0
        s.set_phase(TRIPLE_NAME, me)


def triple_name(s: NakMuayState, action: Action, ev: list[Event]) -> None:
    """The thief names a card (the victim hands it over or says no) or takes one at random."""
    me = s.current
    victim = s.steal_target
    if action is A.TAKE_RANDOM:
        take_random(s, me, victim, ev)
        s.after_major(ev)
        return
    kind = A.NAME_KIND[action]
    has = s.hands[victim][kind] > 0
    ev.append(public("name", player=me, target=victim, card=C.NAMES[kind], answer=has))
    if has:
        s.hands[victim][kind] -= 1
        s.sizes[victim] -= 1
        s.gain(me, kind)
        s.after_major(ev)
    else:
        s.named |= 1 << kind
        s.absent[victim] |= 1 << kind
        s.set_phase(TRIPLE_NAME, me)
