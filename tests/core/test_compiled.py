"""The compiled build: which modules it compiles, how a process tells which build runs,
and how setup.py falls back to the plain package."""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import pickle
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from knockabout import compiled
from knockabout.compiled import COMPILED_MODULES, ModuleBuild, build_summary, module_builds
from knockabout.core.registry import game_ids, get_game
from knockabout.core.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
EXT = importlib.machinery.EXTENSION_SUFFIXES[0]


def test_every_listed_module_is_a_source_file() -> None:
    package = Path(compiled.__file__).resolve().parent
    for name in COMPILED_MODULES:
        assert package.joinpath(*name.split(".")[1:]).with_suffix(".py").is_file(), name


def _fake_package(tmp_path: Path) -> Path:
    package = tmp_path / "knockabout"
    for name in COMPILED_MODULES:
        src = package.joinpath(*name.split(".")[1:]).with_suffix(".py")
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text("")
        os.utime(src, (1000, 1000))
    return package


def test_module_builds_reads_extension_files_and_their_age(tmp_path: Path) -> None:
    pkg = _fake_package(tmp_path)
    assert {b.build for b in module_builds(pkg)} == {"plain"}
    assert build_summary(module_builds(pkg)) == "plain Python"
    for name in COMPILED_MODULES:
        ext = pkg.joinpath(*name.split(".")[1:]).with_suffix(EXT)
        ext.write_bytes(b"")
        os.utime(ext, (2000, 2000))
    assert {b.build for b in module_builds(pkg)} == {"compiled"}
    assert build_summary(module_builds(pkg)).startswith("compiled")
    # an edited source is newer than its extension: that extension is stale
    rng = pkg / "core" / "rng.py"
    os.utime(rng, (3000, 3000))
    builds = {b.module: b.build for b in module_builds(pkg)}
    assert builds["knockabout.core.rng"] == "stale"
    assert sum(v == "stale" for v in builds.values()) == 1
    summary = build_summary(module_builds(pkg))
    assert summary.startswith(f"mixed: {len(COMPILED_MODULES) - 1} of {len(COMPILED_MODULES)} compiled")
    assert "core.rng=stale" in summary
    # the shims stay old when only the shared library is rebuilt: a newer one counts
    shared = pkg.parent / f"0123abcd__mypyc{EXT}"
    shared.write_bytes(b"")
    os.utime(shared, (4000, 4000))
    assert {b.build for b in module_builds(pkg)} == {"compiled"}


def test_a_stale_module_is_warned_about(monkeypatch: pytest.MonkeyPatch) -> None:
    stale = [ModuleBuild("knockabout.core.rng", "stale")]
    monkeypatch.setattr(compiled, "module_builds", lambda package=None: stale)
    with pytest.warns(UserWarning, match=r"knockabout\.core\.rng"):
        compiled.warn_if_stale()
    monkeypatch.setattr(compiled, "module_builds", lambda package=None: [ModuleBuild("knockabout.core.rng", "plain")])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled.warn_if_stale()


def test_this_process_runs_one_build_throughout() -> None:
    """scripts/test-builds.sh says which build it runs; elsewhere every hot module must
    still be of one build (all plain or all compiled, none stale)."""
    builds = {b.build for b in module_builds()}
    expected = os.environ.get("KNOCKABOUT_EXPECT_BUILD")
    if expected is None:
        assert len(builds) == 1 and builds <= {"plain", "compiled"}, builds
        expected = next(iter(builds))
    assert builds == {expected}
    for name in COMPILED_MODULES:
        origin = str(importlib.import_module(name).__file__)
        assert origin.endswith(EXT if expected == "compiled" else ".py"), origin


@pytest.mark.parametrize("game_id", game_ids())
def test_finished_states_and_their_decisions_pickle(game_id: str) -> None:
    g = get_game(game_id)
    rng = Rng(3)
    s = g.new_state({}, 11)
    decision = s.to_act()
    assert decision is not None
    assert pickle.loads(pickle.dumps(decision)) == decision
    while s.to_act() is not None:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    back = pickle.loads(pickle.dumps(s))
    assert back.outcome() == s.outcome() is not None
    assert back.to_dict() == s.to_dict()


def _setup_py(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **env}
    return subprocess.run(
        [sys.executable, "setup.py", "--name"], cwd=ROOT, env=full, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("env", "why"),
    [
        ({"KNOCKABOUT_COMPILE": "0"}, "KNOCKABOUT_COMPILE=0"),
        ({"CC": "/nonexistent/cc"}, "no C compiler '/nonexistent/cc' found"),
    ],
)
def test_setup_builds_the_plain_package_with_one_notice(env: dict[str, str], why: str) -> None:
    done = _setup_py(env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "knockabout"
    notices = [line for line in done.stderr.splitlines() if line.strip()]
    assert notices == [f"knockabout: building the plain Python package ({why})"]
