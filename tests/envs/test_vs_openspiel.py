"""The side-by-side benchmark against OpenSpiel's search runs and reports what docs/envs.md
quotes (a tiny budget: two games of exactly two iterations a move)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "vs_openspiel.py"


@pytest.mark.parametrize("game_id", ["nak-muay", "knockback"])
def test_the_benchmark_plays_paired_seats_and_reports(game_id: str, tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("vs_openspiel", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["vs_openspiel"] = module
    spec.loader.exec_module(module)
    out = tmp_path / "result.json"
    config = '{"max_turns": 12}' if game_id == "knockback" else "{}"
    args = ["--game", game_id, "--games", "2", "--iterations", "2", "--config", config, "--out", str(out)]
    assert module.main(args) == 0
    r = json.loads(out.read_text())
    assert r["games"] == 2 and r["finished"] and r["opponent"] == "OpenSpiel ISMCTS"
    assert r["iterations_per_move"] == 2 and r["openspiel_simulations_per_move"] == 2.0
    lo, hi = r["interval95"]
    assert 0.0 <= lo <= r["knockabout_score"] <= hi <= 1.0
    # every game not won is listed by seed and seat, so it can be replayed
    nw = r["not_won"]
    assert 2 * r["knockabout_score"] == pytest.approx(2 - len(nw) + sum(g["score"] for g in nw))
    assert all(set(g) == {"seed", "knockabout_seat", "score", "decisions"} for g in nw)
