"""Paying a Special Attack's cost: the matching search gives exactly the payments of the
definition (every subset of the hand tested for a matching), in the same order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from knockabout.games.knockdown.content.vocabulary import SYMBOLS
from knockabout.games.knockdown.rules import payments as P


def _covers(cards: list[tuple[int, ...]], slots: tuple[int, ...]) -> bool:
    """The definition: these cards pay every slot, each card at least one, each symbol at most one."""
    n = len(cards)
    if n > len(slots):
        return False
    used: set[tuple[int, int]] = set()
    count = [0] * n

    def bt(si: int, unpaid: int) -> bool:
        if unpaid > len(slots) - si:
            return False
        if si == len(slots):
            return True
        for c in range(n):
            for j, s in enumerate(cards[c]):
                if slots[si] >> s & 1 and (c, j) not in used:
                    used.add((c, j))
                    count[c] += 1
                    if bt(si + 1, unpaid - (count[c] == 1)):
                        return True
                    count[c] -= 1
                    used.discard((c, j))
        return False

    return bt(0, n)


def reference(hand: tuple[int, ...], syms: tuple[tuple[int, ...], ...], slots: tuple[int, ...]) -> tuple[int, ...]:
    """Every subset of the hand in increasing mask order, first copies only (the former code)."""
    n = len(hand)
    out = []
    for mask in range(1, 1 << n):
        if any(mask >> i & 1 and hand[i] == hand[i - 1] and not mask >> (i - 1) & 1 for i in range(1, n)):
            continue
        if _covers([syms[i] for i in range(n) if mask >> i & 1], slots):
            out.append(mask)
    return tuple(out)


NSYM = len(SYMBOLS)
card_syms = st.lists(st.integers(0, NSYM - 1), min_size=1, max_size=3).map(tuple)


Case = tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]


@st.composite
def costs(draw: st.DrawFn) -> Case:
    kinds = draw(st.lists(card_syms, min_size=1, max_size=5))  # card id -> its symbols
    hand = tuple(sorted(draw(st.lists(st.integers(0, len(kinds) - 1), min_size=0, max_size=8))))
    slots = tuple(draw(st.lists(st.integers(1, (1 << NSYM) - 1), min_size=0, max_size=4)))
    return hand, tuple(kinds[d] for d in hand), slots


@settings(max_examples=400, deadline=None)
@given(costs())
def test_payments_match_the_definition(case: Case) -> None:
    hand, syms, slots = case
    P._PAY_CACHE.clear()
    P._CAN_PAY_CACHE.clear()
    want = reference(hand, syms, slots)
    assert P.can_pay(hand, syms, slots) == bool(want)  # searched
    assert P.payments(hand, syms, slots) == want
    assert P.can_pay(hand, syms, slots) == bool(want)  # read from the list
    assert P.payments(hand, syms, slots) == reference(hand, syms, slots)  # and from the cache


def test_a_copy_pays_only_after_the_card_before_it() -> None:
    # two identical punch cards and a kick: one punch slot is paid by the first punch only
    hand = (4, 4, 7)
    syms = ((0,), (0,), (1,))
    assert P.payments(hand, syms, (1,)) == (0b001,)
    assert P.payments(hand, syms, (1, 1)) == (0b011,)
    assert P.payments(hand, syms, (1, 2)) == (0b101,)
    assert P.payments(hand, syms, (4,)) == ()


def test_has_combo_is_whether_combo_options_offers_anything() -> None:
    """Along seeded random games of each box, at every turn decision of either seat."""
    from knockabout.core import Rng
    from knockabout.games.knockdown import GAME
    from knockabout.games.knockdown.rules.legal import combo_options, has_combo

    rng = Rng(5)
    seen = {True: 0, False: 0}
    for seed in range(12):
        s = GAME.new_state({}, seed)
        while s.to_act() is not None:
            for p in (0, 1):
                want = bool(combo_options(s, p, 0))
                assert has_combo(s, p) == want
                seen[want] += 1
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
    assert seen[True] > 50 and seen[False] > 50


def _from_payments(obj: object) -> bool:
    """Whether a collected object was made by the payment search: one of its functions or
    frames (interpreted), or an object of a type the compiled module defines."""
    import types

    code = getattr(obj, "__code__", None) or getattr(obj, "f_code", None)
    if isinstance(code, types.CodeType):
        return code.co_filename == P.__file__
    return type(obj).__module__ == P.__name__


def test_the_searches_leave_no_garbage_for_the_cyclic_collector() -> None:
    """A server collects its oldest generation only once an hour: a payment search must be
    freed by reference counting (a recursive inner function is a reference cycle).

    Only the search's own objects are counted: in the whole suite other tests' threads may
    still be dropping cycles of their own while this runs."""
    import gc

    P._PAY_CACHE.clear()
    P._CAN_PAY_CACHE.clear()
    hand = (0, 1, 2, 3)
    syms = ((1, 2), (2, 3), (1, 3), (4,))
    slots = (1 << 1 | 1 << 2, 1 << 3, 1 << 2 | 1 << 3)
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        assert P.can_pay(hand, syms, slots)
        assert P.payments(hand, syms, slots)
        gc.collect()
        left = [o for o in gc.garbage if _from_payments(o)]
        assert left == [], left
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
