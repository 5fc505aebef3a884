"""The queue simulation (benchmarks/queue_sim.py) in small: it seats everyone, within the
bot wait, and its numbers add up. The numbers themselves are in docs/live-play.md."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from knockabout.ladder.matching import MatchPolicy

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "queue_sim.py"


@pytest.fixture(scope="module")
def sim() -> ModuleType:
    spec = importlib.util.spec_from_file_location("queue_sim", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("players", [2, 3])
def test_everyone_is_seated_within_the_bot_wait(sim: ModuleType, players: int) -> None:
    r = sim.simulate(60, players, 2.0, 3, MatchPolicy())
    assert r.wait_max <= MatchPolicy().bot_after + 1e-6
    assert r.wait_median <= r.wait_p95 <= r.wait_max
    assert r.gap_median <= r.gap_p95 <= r.gap_max <= MatchPolicy().max_window
    assert r.tables * players >= 60 and r.seated_with_bots <= 60


def test_a_quiet_site_fills_more_tables_with_bots(sim: ModuleType) -> None:
    busy = sim.simulate(100, 2, 1.0, 1, MatchPolicy())
    quiet = sim.simulate(100, 2, 600.0, 1, MatchPolicy())
    assert quiet.seated_with_bots > busy.seated_with_bots
    assert quiet.wait_median > busy.wait_median


def test_percentile(sim: ModuleType) -> None:
    assert sim.percentile([], 95) == 0.0
    assert sim.percentile(list(range(1, 101)), 95) == 95
    assert sim.percentile([3.0], 50) == 3.0
