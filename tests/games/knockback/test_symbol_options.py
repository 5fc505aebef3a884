"""The symbol options' shortcut on the nearest card gives exactly the options of the
card-by-card check it replaced, in the same order, along random games."""

from __future__ import annotations

from knockabout.core.actions import Action
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from knockabout.games.knockback import actions as A
from knockabout.games.knockback.cards import MOVE, PUNCH
from knockabout.games.knockback.effects import may_shove, stopper
from knockabout.games.knockback.grid import DELTA, HALF, STEP, STRIDE
from knockabout.games.knockback.legal import symbol_options
from knockabout.games.knockback.lines import beyond
from knockabout.games.knockback.state import KnockbackState


def _others(s: KnockbackState) -> list[tuple[int, int]]:
    """The coordinates of every card on the grid but the active one."""
    a = s.active
    on = s.onboard
    pos = s.pos
    out = []
    for i in range(6):
        if on >> i & 1 and i != a:
            k = pos[i]
            x = (k + HALF) >> 32
            out.append((x, k - x * STRIDE))
    return out


def reference(s: KnockbackState) -> tuple[Action, ...]:
    """The former code: every direction checked against every other card."""
    a = s.active
    sym = s.lab[a].symbols[s.sym]
    lim = s.rest_moves[a][s.sym] + 1
    grid = s.grid
    here = s.pos[a]
    hx = (here + HALF) >> 32
    hy = here - hx * STRIDE
    others = _others(s)
    skip_ok = any(abs(x - hx) + abs(y - hy) <= lim for x, y in others)
    out: list[Action] = []
    if sym & MOVE:
        free: list[Action] = []
        for d in range(4):
            nb = here + DELTA[d]
            if nb in grid:
                if may_shove(s, a) and stopper(s, beyond(s, nb, d)) < 0:
                    out.append(A.MOVE[d])
                continue
            cx, cy = hx + STEP[d][0], hy + STEP[d][1]
            if any(abs(x - cx) + abs(y - cy) <= lim for x, y in others):
                out.append(A.MOVE[d])
            else:
                free.append(A.MOVE[d])
        if not out and not skip_ok:
            out = free
            skip_ok = True
    if sym & PUNCH:
        out += [A.PUNCH[d] for d in range(4) if here + DELTA[d] in grid]
    if skip_ok or not (sym & MOVE):
        out.append(A.SKIP)
    return tuple(out)


def test_symbol_options_match_the_card_by_card_check() -> None:
    g = get_game("knockback")
    rng = Rng(3)
    cases = {"near": 0, "edge": 0, "far": 0}
    for seed in range(60):
        s = g.new_state({}, seed)
        assert isinstance(s, KnockbackState)
        while s.to_act() is not None:
            if s.active >= 0 and 0 <= s.sym < len(s.lab[s.active].symbols) and s.onboard >> s.active & 1:
                assert symbol_options(s) == reference(s)
                here = s.pos[s.active]
                hx = (here + HALF) >> 32
                lim = s.rest_moves[s.active][s.sym] + 1
                near = min(abs(x - hx) + abs(y - (here - hx * STRIDE)) for x, y in _others(s))
                cases["near" if near < lim else "far" if near > lim + 1 else "edge"] += 1
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
    assert min(cases.values()) > 20, cases  # every branch of the shortcut was checked
