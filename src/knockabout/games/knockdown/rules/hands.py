"""Cards into and out of hands (taking, discarding, the card choices effects ask for) and
tokens from the supply."""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from knockabout.core.actions import Action
from knockabout.core.events import Event, public
from knockabout.games.knockdown import actions as A
from knockabout.games.knockdown.content.vocabulary import TOKENS
from knockabout.games.knockdown.rules.phases import (
    C_DISCARD,
    C_FOR_TOKENS,
    C_LIMIT,
    C_REVEAL,
    C_REVEAL_PICK,
    CARD,
    CardPending,
)
from knockabout.games.knockdown.rules.tasks import CHECK_HAND_LIMIT, RunOps

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState


def take(s: KnockdownState, p: int, d: int, ev: list[Event]) -> None:
    """Card design ``d`` into ``p``'s (sorted) hand; its after-taking effect, then the hand limit."""
    insort(s.hands[p], d)
    ev.append(public("take", player=p, card=s.setup.cards[d].name))
    on_take = s.setup.cards[d].on_take
    if on_take:
        s.tasks.append(RunOps(on_take, 0, p))
    s.tasks.append(CHECK_HAND_LIMIT[p])


def to_discard(s: KnockdownState, d: int) -> None:
    """A card leaves a hand: Contamination goes back to its supply, the rest to the discard pile."""
    if d == s.setup.contamination:
        s.contam_left += 1
    else:
        s.discard.append(d)


def gain(s: KnockdownState, p: int, tok: int, n: int) -> int:
    """Give ``p`` up to ``n`` tokens, as many as the supply has left; how many they got."""
    in_play = s.tokens[0][tok] + s.tokens[1][tok]
    n = max(0, min(n, s.setup.supply[tok] - in_play))
    s.tokens[p][tok] += n
    return n


def choose_card(s: KnockdownState, action: Action, ev: list[Event]) -> None:
    """The answer to a card choice (phase CARD) other than a Block's (see ``attacks.block_card``)."""
    purpose, owner, chooser, left, revealed, extra = s.pend
    if action is A.DONE:
        return
    i = A.INDEX[action]
    hand = s.hands[owner]
    if purpose == C_REVEAL:
        revealed = (*revealed, i)
        ev.append(public("reveal", player=owner, card=s.setup.cards[hand[i]].name))
        if left > 1:
            s.decide(CARD, chooser, CardPending(C_REVEAL, owner, chooser, left - 1, revealed, extra))
        else:
            s.decide(CARD, extra[0], CardPending(C_REVEAL_PICK, owner, extra[0], 1, revealed, ()))
        return
    d = hand.pop(i)
    to_discard(s, d)
    name = s.setup.cards[d].name
    if purpose == C_LIMIT:
        ev.append(public("discard", player=owner, card=name, reason="hand_limit"))
    elif purpose == C_FOR_TOKENS:
        tok = extra[1]
        gained = gain(s, owner, tok, 1)
        ev.append(public("discard", player=owner, card=name, reason="for_tokens"))
        ev.append(public("tokens", player=owner, token=TOKENS[tok], change=gained))
        if any(extra[0] in s.symtab[owner][x] for x in hand):
            s.decide(CARD, chooser, CardPending(C_FOR_TOKENS, owner, chooser, left, (), extra))
    else:
        ev.append(public("discard", player=owner, card=name, reason="effect", by=chooser))
        if purpose == C_DISCARD and left > 1 and hand:
            s.decide(CARD, chooser, CardPending(C_DISCARD, owner, chooser, left - 1, (), ()))
