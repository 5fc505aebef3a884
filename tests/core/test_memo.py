"""The bounded memo views and encoders keep their built parts in."""

from __future__ import annotations

import pytest

from knockabout.core.memo import BoundedCache


def test_a_cache_gives_back_what_was_put() -> None:
    c: BoundedCache[str, int] = BoundedCache(3)
    assert c.get("a") is None
    assert c.put("a", 1) == 1
    assert c.get("a") == 1
    assert len(c) == 1


def test_a_full_cache_forgets_everything_before_a_new_key() -> None:
    c: BoundedCache[int, int] = BoundedCache(3)
    for k in range(3):
        c.put(k, k * 10)
    c.put(1, 11)  # a key it holds: replaced, nothing forgotten
    assert [c.get(k) for k in range(3)] == [0, 11, 20]
    c.put(3, 30)
    assert len(c) == 1
    assert [c.get(k) for k in range(4)] == [None, None, None, 30]
    c.clear()
    assert len(c) == 0


def test_a_cache_needs_room_for_one() -> None:
    with pytest.raises(ValueError, match="at least one entry"):
        BoundedCache(0)
