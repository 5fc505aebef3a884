"""Which hand cards can pay a Special Attack's cost slots (a small matching search, cached).

A payment is a set of hand cards (a bit mask of hand positions) whose symbols can be
matched to the cost's slots: every slot paid by one symbol it accepts, each symbol
paying at most one slot, and every card in the set paying at least one slot.
"""

from __future__ import annotations

from typing import Final

_PAY_CACHE: Final[dict[tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]], tuple[int, ...]]] = {}


def payments(hand: tuple[int, ...], syms: tuple[tuple[int, ...], ...], slots: tuple[int, ...]) -> tuple[int, ...]:
    """Every way (as a bit mask of hand positions) to pay ``slots`` from a sorted hand,
    in increasing order of the mask.

    Identical cards are interchangeable, so only the first copies are offered: a mask
    holding a copy holds the copies sorted before it.
    """
    key = (hand, syms, slots)
    found = _PAY_CACHE.get(key)
    if found is not None:
        return found
    # Speed: this runs on every cache miss of every turn's legal actions (a third of
    # the calls in random play). Instead of testing each of the 2**n subsets of the
    # hand for a matching (a backtracking search per subset), enumerate the matchings
    # themselves, slot by slot, and collect the set of cards each one uses: a subset
    # is a payment exactly when some matching uses exactly its cards. Costs have at
    # most a few slots, so there are few matchings. Identical cards are
    # interchangeable, so a copy (the same card as the one before it) joins a matching
    # only once the card before it is in: any matching can be relabelled that way
    # without changing which copies it uses, and the set it uses then holds only
    # first copies, as offered.
    n = len(hand)
    nslots = len(slots)
    used = [0] * n  # per card, the bit mask of its symbols already paying a slot
    masks: set[int] = set()
    copies = 0  # bit i: hand[i] is a copy of hand[i - 1]
    for i in range(1, n):
        if hand[i] == hand[i - 1]:
            copies |= 1 << i

    if nslots:  # a cost without card slots is never paid with cards (as before)
        _matchings(0, 0, slots, syms, copies, used, masks)
    res = tuple(sorted(masks))
    if len(_PAY_CACHE) > 50_000:
        _PAY_CACHE.clear()
    _PAY_CACHE[key] = res
    _remember_can_pay(key, bool(res))
    return res


def _matchings(si: int, cards: int, slots: tuple[int, ...], syms: tuple[tuple[int, ...], ...], copies: int,
               used: list[int], masks: set[int]) -> None:
    """:func:`payments`' search from slot ``si`` on, with ``cards`` already in: adds the card
    set of every complete matching to ``masks``. (A module function, not a closure: a
    recursive inner function refers to itself through its own cell, and each call of
    ``payments`` then left a reference cycle for the garbage collector, which a busy server
    collects only once an hour.)"""
    accepts = slots[si]
    last = si + 1 == len(slots)
    for c in range(len(used)):
        if copies >> c & 1 and not cards >> (c - 1) & 1 and not cards >> c & 1:
            continue
        u = used[c]
        for j, sym in enumerate(syms[c]):
            if accepts >> sym & 1 and not u >> j & 1:
                if last:  # the last slot: no call for the matching's end
                    masks.add(cards | 1 << c)
                    break  # this card's other symbols give the same set
                used[c] = u | 1 << j
                _matchings(si + 1, cards | 1 << c, slots, syms, copies, used, masks)
                used[c] = u


def _remember_can_pay(key: tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]], res: bool) -> None:
    if len(_CAN_PAY_CACHE) > 50_000:
        _CAN_PAY_CACHE.clear()
    _CAN_PAY_CACHE[key] = res


def _one_matching(si: int, slots: tuple[int, ...], syms: tuple[tuple[int, ...], ...], used: list[int]) -> bool:
    """:func:`can_pay`'s search from slot ``si`` on: whether the slots left can be matched
    (a module function for the reason :func:`_matchings` gives)."""
    if si == len(slots):
        return True
    accepts = slots[si]
    for c, card in enumerate(syms):
        u = used[c]
        for j, sym in enumerate(card):
            if accepts >> sym & 1 and not u >> j & 1:
                used[c] = u | 1 << j
                if _one_matching(si + 1, slots, syms, used):
                    return True
                used[c] = u
    return False


_CAN_PAY_CACHE: Final[dict[tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]], bool]] = {}


def can_pay(hand: tuple[int, ...], syms: tuple[tuple[int, ...], ...], slots: tuple[int, ...]) -> bool:
    """Whether ``payments(hand, syms, slots)`` is not empty.

    Speed: a turn's legal actions only ask whether a Special Attack can be paid (to offer
    ``combo``), and most hands a game passes through are asked once, so listing every
    payment is wasted work: this stops at the first matching of the slots to distinct
    symbols (any such matching uses some set of cards, which is then a payment).
    """
    key = (hand, syms, slots)
    found = _CAN_PAY_CACHE.get(key)  # (payments() answers here too: one look-up of the key)
    if found is not None:
        return found
    used = [0] * len(hand)  # per card, the bit mask of its symbols already paying a slot
    # a cost without card slots is never paid with cards
    res = bool(slots) and _one_matching(0, slots, syms, used)
    _remember_can_pay(key, res)
    return res
