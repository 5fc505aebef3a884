"""What each claim of the KNOCKBACK guide promises, as a check on a copy of the true state
(see tests/games/nakmuay/guide_claims.py for the shape of a check)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from knockabout.games.knockback.state import KnockbackState


def _punch(s: KnockbackState, action: str) -> dict[str, Any]:
    events = s.apply(action)
    found = [e.data for e in events if e.type == "punch"]
    assert found, f"{action} was said to land a punch, but none landed: {[e.type for e in events]}"
    return dict(found[0])


def _numbers(got: dict[str, Any], said: str) -> None:
    """A label that names the attack and the heart names the ones the punch met."""
    m = re.search(r"attack (\d+) (?:beats|matches|does not beat) heart (\d+)", said)
    if m:
        assert (int(m[1]), int(m[2])) == (got["attack"], got["heart"]), f"{said!r}, but the punch was {got}"


def knocks_out(s: KnockbackState, seat: int, action: str, rng: random.Random, said: str) -> None:
    got = _punch(s, action)
    assert got["ko"], f"{action} was said to knock its target out: {got}"
    _numbers(got, said)


def holds(s: KnockbackState, seat: int, action: str, rng: random.Random, said: str) -> None:
    got = _punch(s, action)
    assert not got["ko"], f"{action} was said to leave its target on the grid: {got}"
    _numbers(got, said)


def edge_choice(s: KnockbackState, seat: int, action: str, rng: random.Random, said: str) -> None:
    s.apply(action)
    d = s.to_act()
    assert d is not None and d.kind == "punch_edge" and d.player == seat, d


def passes(s: KnockbackState, seat: int, action: str, rng: random.Random, said: str) -> None:
    rested = [e.data["cards"] for e in s.apply(action) if e.type == "rest"]
    assert rested == [[]], f"resting was said to ready nothing: {rested}"


CHECKS: dict[str, Callable[[KnockbackState, int, str, random.Random, str], None]] = {
    "knocks_out": knocks_out,
    "holds": holds,
    "edge_choice": edge_choice,
    "passes": passes,
}
