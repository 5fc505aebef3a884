"""Legal actions of KNOCKBACK's placement, symbol and punch-edge decisions.

Placement offers every empty cell next to a card on the grid (the first card of a
round goes to the centre). A symbol offers moves that can still end next to a card,
shoves into occupied cells for cards that may shove, punches on neighbours and, when
the requirement to end next to a card allows it, a skip. A punch on an exhausted card
lets the attacker pick the edge that takes it: the one facing it, or any free one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from knockabout.core.actions import Action
from knockabout.games.knockback import actions as A
from knockabout.games.knockback.cards import MOVE, PUNCH
from knockabout.games.knockback.effects import may_shove, stopper
from knockabout.games.knockback.grid import DELTA, HALF, OPP
from knockabout.games.knockback.lines import beyond

if TYPE_CHECKING:
    from knockabout.games.knockback.state import KnockbackState


def placements(s: KnockbackState) -> tuple[Action, ...]:
    """The current seat's placements: each unplaced card on each empty cell next to a card."""
    base = 3 * s.current
    unplaced = [x for x in range(base, base + 3) if not s.placed >> x & 1]
    if not s.placed:
        return tuple(A.PLACE_FIRST[x] for x in unplaced)
    grid = s.grid
    pos = s.pos
    seen: set[int] = set()
    spots: list[tuple[int, int]] = []
    for y in range(6):
        if s.onboard >> y & 1:
            here = pos[y]
            for d in range(4):
                c = here + DELTA[d]
                if c not in grid and c not in seen:
                    seen.add(c)
                    spots.append((y, d))
    at = A.PLACE_AT
    return tuple(at[x][y][d] for x in unplaced for y, d in spots)  # type: ignore[misc]


def symbol_options(s: KnockbackState) -> tuple[Action, ...]:
    """Moves, punches and skip for the active card's current symbol.

    A move is offered when the card can still end next to another card with the
    MOVE symbols left after it. Every cell nearer than the closest other card is
    empty, so a shortest path to that card is free: the card can end next to one
    exactly when some other card is at most (moves left + 1) steps away.
    """
    a = s.active
    card = s.lab[a]
    sym = card.symbols[s.sym]
    lim = s.rest_moves[a][s.sym] + 1
    grid = s.grid
    here = s.pos[a]
    hx = (here + HALF) >> 32
    hy = here - (hx << 32)
    # Speed: one pass over the other cards instead of one per direction. A neighbour
    # cell is one step nearer to or farther from each card than this cell. So a move
    # ends within ``lim`` of a card that is nearer than ``lim`` whichever way it goes,
    # of one at ``lim`` or ``lim + 1`` only when it steps towards it, and never of one
    # farther away: ``near`` (the nearest distance) and ``towards`` (bit d: direction
    # d steps towards a card at most ``lim + 1`` away) decide every direction.
    near = lim + 2
    towards = 0
    on = s.onboard
    pos = s.pos
    for i in range(6):
        if on >> i & 1 and i != a:
            k = pos[i]
            x = (k + HALF) >> 32
            dx = x - hx
            dy = k - (x << 32) - hy
            # abs() is a boxed call when compiled
            dist = (dx if dx >= 0 else -dx) + (dy if dy >= 0 else -dy)
            if dist < near:
                near = dist
            if dist <= lim + 1:  # the bits follow STEP: N E S W
                if dy > 0:
                    towards |= 1
                if dx > 0:
                    towards |= 2
                if dy < 0:
                    towards |= 4
                if dx < 0:
                    towards |= 8
    if near < lim:
        towards = 15
    skip_ok = near <= lim
    out: list[Action] = []
    if sym & MOVE:
        free: list[Action] = []
        for d in range(4):
            nb = here + DELTA[d]
            if nb in grid:
                # a shove always ends next to the card it pushed
                if may_shove(s, a) and stopper(s, beyond(s, nb, d)) < 0:
                    out.append(A.MOVE[d])
            elif towards >> d & 1:
                out.append(A.MOVE[d])
            else:
                free.append(A.MOVE[d])
        if not out and not skip_ok:
            # no way left to end next to a card: the requirement lapses
            out = free
            skip_ok = True
    if sym & PUNCH:
        for d in range(4):
            if here + DELTA[d] in grid:
                out.append(A.PUNCH[d])
    if skip_ok or not (sym & MOVE):
        out.append(A.SKIP)
    return tuple(out)


def edge_options(s: KnockbackState) -> list[int]:
    """The sides of the exhausted target that may take the punch: the one facing the
    attacker, and every free side (no card next to it)."""
    t = s.p_target
    facing = OPP[s.p_dir]
    tp = s.pos[t]
    grid = s.grid
    return [d for d in range(4) if d == facing or tp + DELTA[d] not in grid]
