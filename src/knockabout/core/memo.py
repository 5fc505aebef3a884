"""A bounded memo for the parts views and encoders build again and again.

Views and encodings are rebuilt for every observation, but most of their parts (a
pending decision, a card on the board, an arena's static layout) come back unchanged
many times. :class:`BoundedCache` remembers built parts by key and forgets all of them
at once when it fills up, so a long run cannot grow it without bound. The engines' own
caches on the search's hot path stay plain dictionaries: there a method call costs more
than it saves.
"""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """A dictionary of built values that empties itself when it holds ``limit`` entries.

    ``get`` gives the value stored for a key (None: not built yet); ``put`` stores one and
    gives it back, so a call site reads ``hit = c.get(k)`` then
    ``if hit is None: hit = c.put(k, build())``.
    """

    __slots__ = ("_items", "limit")

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a cache holds at least one entry (limit {limit})")
        self.limit = limit
        self._items: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        return self._items.get(key)

    def put(self, key: K, value: V) -> V:
        items = self._items
        if len(items) >= self.limit and key not in items:
            items.clear()
        items[key] = value
        return value

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
