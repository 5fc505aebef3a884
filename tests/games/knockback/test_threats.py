"""The heuristic's threat count (how many enemy cards a card could knock out next)
looks from the enemy cards' sides: the same count as looking around every reachable
cell, as the former code did, along random games."""

from __future__ import annotations

from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from knockabout.games.knockback.cards import PUNCH
from knockabout.games.knockback.effects import attack_value
from knockabout.games.knockback.grid import DELTA
from knockabout.games.knockback.heuristic import _reach, _threats, _weakest_heart
from knockabout.games.knockback.state import KnockbackState


def reference(s: KnockbackState, i: int) -> int:
    """Every cell card ``i`` reaches, every side of it (the former code)."""
    grid = s.grid
    hit: set[int] = set()
    mine = i >= 3
    saved = s.moved
    for c, steps in _reach(s, i).items():
        s.moved = steps
        for d in range(4):
            t = grid.get(c + DELTA[d])
            if t is None or t == i or (t >= 3) == mine or t in hit:
                continue
            if attack_value(s, i, t, d) > _weakest_heart(s, t, d):
                hit.add(t)
    s.moved = saved
    return len(hit)


def test_threats_match_the_cell_by_cell_count() -> None:
    g = get_game("knockback")
    rng = Rng(11)
    counts: dict[int, int] = {}
    for seed in range(40):
        s = g.new_state({}, seed)
        assert isinstance(s, KnockbackState)
        while s.to_act() is not None:
            for i in range(6):
                if s.onboard >> i & 1 and any(sym & PUNCH for sym in s.lab[i].symbols):
                    moved = s.moved
                    n = _threats(s, i)
                    assert n == reference(s, i)
                    assert s.moved == moved  # left as it was
                    counts[n] = counts.get(n, 0) + 1
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
    assert counts.get(0, 0) > 100 and counts.get(1, 0) > 100 and counts.get(2, 0) > 5, counts
