"""The boundless KNOCKBACK grid packed into ints, for fast neighbours and copies.

A cell is one int, ``x * 2**32 + y``, so a neighbour is one addition away
(:data:`DELTA`). The packing is written with shifts (``x << 32``, the same value for
every int): the compiled build multiplies by 2**32 on its slow path for big numbers, but
shifts inline. Directions are indices 0-3: north, east, south, west (north is up on
the shared board); :data:`OPP` turns one around.
"""

from __future__ import annotations

from typing import Final, Literal

Dir = Literal["N", "E", "S", "W"]
DIRS: Final[tuple[Dir, ...]] = ("N", "E", "S", "W")
STRIDE: Final = 1 << 32
HALF: Final = 1 << 31
# Tuples of unstated length: the compiled build keeps a fixed-length tuple of ints as a C
# struct and boxes all of it into a new tuple at every indexing by a variable
DELTA: Final[tuple[int, ...]] = (1, STRIDE, -1, -STRIDE)  # N E S W
STEP: Final[tuple[tuple[int, int], ...]] = ((0, 1), (1, 0), (0, -1), (-1, 0))
OPP: Final[tuple[int, ...]] = (2, 3, 0, 1)


def cell(x: int, y: int) -> int:
    """The packed cell of coordinates ``(x, y)``."""
    return (x << 32) + y


def coords(k: int) -> tuple[int, int]:
    """The coordinates ``(x, y)`` of packed cell ``k``."""
    x = (k + HALF) >> 32
    return x, k - (x << 32)
