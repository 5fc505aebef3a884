"""Lines of cards on the KNOCKBACK grid: who a push moves, and moving them.

A knockback pushes the punched card and every card beyond it in the punch's line
(with the ``whole_line`` option, every card of that row or column); a shove pushes the
card moved into and every card beyond it. Whether a push happens at all, and how far,
is the cards' business (:mod:`.effects`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from knockabout.core.events import Event
from knockabout.games.knockback.actions import LABELS
from knockabout.games.knockback.effects import knockback_cells, stopper
from knockabout.games.knockback.grid import DELTA, DIRS, HALF, STRIDE

if TYPE_CHECKING:
    from knockabout.games.knockback.state import KnockbackState


def beyond(s: KnockbackState, start: int, d: int) -> list[int]:
    """Labels on the grid in ``start``'s row/column at or beyond ``start`` towards ``d``."""
    out = []
    pos = s.pos
    on = s.onboard
    if d == 0 or d == 2:
        xc = (start + HALF) >> 32
        for i in range(6):
            if on >> i & 1:
                k = pos[i]
                if (k + HALF) >> 32 == xc and (k >= start if d == 0 else k <= start):
                    out.append(i)
    else:
        for i in range(6):
            if on >> i & 1:
                k = pos[i]
                if (k - start) % STRIDE == 0 and (k >= start if d == 1 else k <= start):
                    out.append(i)
    return out


def whole_line(s: KnockbackState, start: int, d: int) -> list[int]:
    """Every label on the grid in ``start``'s column (d = N/S) or row (d = E/W)."""
    pos = s.pos
    on = s.onboard
    if d == 0 or d == 2:
        xc = (start + HALF) >> 32
        return [i for i in range(6) if on >> i & 1 and (pos[i] + HALF) >> 32 == xc]
    return [i for i in range(6) if on >> i & 1 and (pos[i] - start) % STRIDE == 0]


def shift(s: KnockbackState, group: list[int], d: int, cells: int) -> None:
    """Move every card of ``group`` ``cells`` cells towards ``d``."""
    grid = s.grid
    pos = s.pos
    delta = DELTA[d] * cells
    for i in group:
        del grid[pos[i]]
    for i in group:
        k = pos[i] + delta
        pos[i] = k
        grid[k] = i


def knock_back(s: KnockbackState, a: int, tcell: int, d: int, ev: list[Event]) -> None:
    """The knockback of card ``a``'s punch towards ``d`` on the card that was at ``tcell``
    (already gone if it was knocked out: the cards beyond it still slide)."""
    cells = knockback_cells(s, a)
    if not cells:
        return
    group = whole_line(s, tcell, d) if s.whole_line else beyond(s, tcell, d)
    if not group:
        return
    held = stopper(s, group)
    if held >= 0:
        ev.append(Event("knockback_held", {"card": LABELS[held], "name": s.lab[held].name}))
        return
    shift(s, group, d, cells)
    ev.append(Event("knockback", {"cards": [LABELS[i] for i in group], "dir": DIRS[d], "cells": cells}))


def shove(s: KnockbackState, a: int, into: int, d: int, ev: list[Event]) -> None:
    """Card ``a`` moves towards ``d`` into occupied cell ``into``: that card and every
    card beyond it move one cell on (the move itself is the caller's)."""
    group = beyond(s, into, d)
    shift(s, group, d, 1)
    ev.append(Event("shove", {"card": LABELS[a], "dir": DIRS[d], "cards": [LABELS[i] for i in group]}))
