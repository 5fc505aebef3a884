"""The environment speed row (``knockabout bench --envs``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from knockabout.cli.main import app
from knockabout.envs.bench import bench_env, last_step_rate, leduc_env, pgx_leduc, random_legal


def test_bench_env_measures_every_loop() -> None:
    r = bench_env("nak-muay", seconds=0.1, leduc=False, batch=16, pgx=False)
    assert r.raw_steps_per_s > 0 and r.step_per_s > 0 and r.last_step_per_s > 0 and r.batched_per_s > 0
    assert r.leduc_last_step_per_s is None and r.pgx_leduc_per_s is None and r.batch == 16
    assert 0 < r.step_share == r.step_per_s / r.raw_steps_per_s
    assert r.per_cpu_s is not None and sorted(r.per_cpu_s) == ["batched", "last", "raw", "step"]
    assert all(v > 0 for v in r.per_cpu_s.values())


def test_random_legal_picks_legal_codes_evenly() -> None:
    mask = np.zeros((3, 5), dtype=np.bool_)
    mask[0, [1, 3]] = True
    mask[1, 4] = True
    mask[2, :] = True
    rng = np.random.default_rng(0)
    picks = np.array([random_legal(mask, rng) for _ in range(2000)])
    assert set(picks[:, 0]) == {1, 3} and set(picks[:, 1]) == {4} and set(picks[:, 2]) == {0, 1, 2, 3, 4}
    assert abs((picks[:, 0] == 1).mean() - 0.5) < 0.05


def test_pgx_leduc_runs_batched() -> None:
    pytest.importorskip("pgx", reason="pgx's batched Leduc needs the envs-bench-pgx extra")
    body = pgx_leduc(batch=8)
    assert body is not None and body(0) == 8


def test_leduc_runs_the_same_loop() -> None:
    leduc = leduc_env()
    assert leduc is not None, "the rl extra's benchmark needs rlcard and pygame"
    assert last_step_rate(leduc, 0.1) > 0


def test_the_cli_row() -> None:
    result = CliRunner().invoke(
        app, ["bench", "--envs", "--game", "knockback", "--seconds", "0.1", "--batch", "8", "--json"]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert rows[0]["game"] == "knockback" and rows[0]["step_per_s"] > 0 and rows[0]["leduc_last_step_per_s"] > 0
    assert rows[0]["batch"] == 8 and rows[0]["batched_per_s"] > 0 and rows[0]["build"]
