"""Which hand cards can pay a Special Attack's cost slots (a small matching search, cached)."""

from __future__ import annotations

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
