"""Bench results say which build ran; fixed-work measurements repeat their choices."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from knockabout.cli.main import app
from knockabout.compiled import COMPILED_MODULES, build_summary, module_builds
from knockabout.sim.bench import fixed_work


def test_bench_json_names_the_build_of_every_compiled_module() -> None:
    r = CliRunner().invoke(app, ["bench", "--game", "knockback", "--seconds", "0.1", "--json"])
    assert r.exit_code == 0, r.output
    (row,) = json.loads(r.output)
    assert row["build"] == build_summary()
    assert row["modules"] == {b.module: b.build for b in module_builds()}
    assert set(row["modules"]) == set(COMPILED_MODULES)


def test_the_bench_table_says_which_build_it_measured() -> None:
    r = CliRunner().invoke(app, ["bench", "--game", "knockback", "--seconds", "0.1"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert f"knockabout bench (one process; {build_summary()})" in r.output


def test_fixed_work_is_the_same_work_every_time() -> None:
    a = fixed_work("nak-muay", games=3, iterations=20, hard_moves=1)
    b = fixed_work("nak-muay", games=3, iterations=20, hard_moves=1)
    assert a.build == build_summary()
    assert a.steps == b.steps > 0
    assert a.ismcts_iterations == b.ismcts_iterations == 10 * 20
    assert a.choices == b.choices and len(a.choices) == 11
    assert a.steps_per_cpu_s > 0 and a.hard_cpu_ms_per_move > 0
