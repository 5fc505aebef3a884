"""What each claim of the Knockdown guide promises, as a check on a copy of the true state
(see tests/games/nakmuay/guide_claims.py for the shape of a check); the Block and the
Knockdown Test checks read the numbers the words promise."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from knockabout.core.events import Event
from knockabout.games.knockdown.state import KnockdownState


def _types(events: list[Event]) -> set[str]:
    return {e.type for e in events}


def misses(s: KnockdownState, seat: int, action: str, rng: random.Random, said: str) -> None:
    events = s.apply(action)
    assert "out_of_range" in _types(events), f"{action} was said to miss: {sorted(_types(events))}"


def reaches(s: KnockdownState, seat: int, action: str, rng: random.Random, said: str) -> None:
    events = s.apply(action)
    kinds = _types(events)
    assert "out_of_range" not in kinds and kinds & {"sequence", "attack_ignored"}, sorted(kinds)


def block_ignores(s: KnockdownState, seat: int, action: str, rng: random.Random, said: str) -> None:
    events = s.apply(action)
    while not any(e.type == "block" for e in events):
        d = s.to_act()
        assert d is not None and d.player == seat and d.kind == "choose_card", f"no Block after {action}: {d}"
        legal = s.legal_actions()
        events = s.apply(legal[rng.randrange(len(legal))])
    got = next(e.data for e in events if e.type == "block")
    heavy = re.search(r"(\d+) heavy", said)
    light = re.search(r"(\d+) light", said)
    assert got["heavy"] == (int(heavy[1]) if heavy else 0), (said, got)
    assert got["light"] == (int(light[1]) if light else 0), (said, got)
    assert got["effect"] == ("the effect" in said), (said, got)
    assert len(got["cards"]) == (2 if "two Block cards" in said else 1), (said, got)


def test_against(s: KnockdownState, seat: int, action: str, rng: random.Random, said: str) -> None:
    m = re.search(r"will have (\d+) wound", said)
    assert m, said
    events = s.apply(action)
    result = [e.data["wounds"] for e in events if e.type == "test_result"]
    tower = [e.data["cubes"] for e in events if e.type == "tower_challenge"]
    assert (result or tower) == [int(m[1])], (said, result, tower)


CHECKS: dict[str, Callable[[KnockdownState, int, str, random.Random, str], None]] = {
    "misses": misses,
    "reaches": reaches,
    "block_ignores": block_ignores,
    "test_against": test_against,
}
