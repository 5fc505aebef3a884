"""The environment speed row (``knockabout bench --envs``)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from knockabout.cli.main import app
from knockabout.envs.bench import bench_env, last_step_rate, leduc_env


def test_bench_env_measures_every_loop() -> None:
    r = bench_env("nak-muay", seconds=0.1, leduc=False)
    assert r.raw_steps_per_s > 0 and r.step_per_s > 0 and r.last_step_per_s > 0
    assert r.leduc_last_step_per_s is None
    assert 0 < r.step_share == r.step_per_s / r.raw_steps_per_s


def test_leduc_runs_the_same_loop() -> None:
    leduc = leduc_env()
    assert leduc is not None, "the rl extra's benchmark needs rlcard and pygame"
    assert last_step_rate(leduc, 0.1) > 0


def test_the_cli_row() -> None:
    result = CliRunner().invoke(app, ["bench", "--envs", "--game", "knockback", "--seconds", "0.1", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert rows[0]["game"] == "knockback" and rows[0]["step_per_s"] > 0 and rows[0]["leduc_last_step_per_s"] > 0
