"""Long runs from the command line: Ctrl+C stops a run at once and says how to resume, the
resumed run ends as an uninterrupted one, bad files and flags are one clear line, and
``-o`` is ``--option`` in ``balance`` too."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockabout.cli.main import app
from knockabout.sim import SimResults
from knockabout.sim.executor import PoolExecutor
from knockabout.sim.tournament import SimSpec, run

pytestmark = pytest.mark.solo  # (solo: see tests/conftest.py)

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
# Ctrl+C as a terminal sends it: a suite started in the background (``make test &``)
# hands its children SIGINT ignored, which Python then keeps ignoring
CLI = [sys.executable, "-c", "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
       "from knockabout.cli.main import app; app()"]


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "XDG_CACHE_HOME": str(tmp / "cache"),
            "COLUMNS": "200"}


def _outcomes(path: Path) -> list[object]:
    return [g.outcome_key() for g in SimResults.load(path).games]


def test_sigint_stops_a_run_within_seconds_and_the_checkpoint_resumes_it(tmp_path: Path) -> None:
    ck, out = tmp_path / "run.jsonl", tmp_path / "out.json"
    args = ["sim", "nak-muay", "--bots", "easy,random", "--games", "6000", "--seed", "3", "-w", "2",
            "--checkpoint", str(ck), "--out", str(out)]
    proc = subprocess.Popen([*CLI, *args], env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not ck.exists() or len(ck.read_text().splitlines()) < 3):
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()[0]
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    text, _ = proc.communicate(timeout=10)
    assert time.monotonic() - t0 < 10
    assert proc.returncode == 130, text
    assert "Traceback" not in text and "interrupted" in text
    done = len(ck.read_text().splitlines()) - 1
    assert 2 <= done < 64 and not out.exists()
    resume_line = next(line for line in text.splitlines() if line.startswith("Resume with: "))
    resume = shlex.split(resume_line.removeprefix("Resume with: "))
    assert resume[:2] == ["knockabout", "sim"] and resume[-2:] == ["--resume", str(ck)]
    again = subprocess.run([*CLI, *resume[1:]], env=_env(tmp_path), capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    with PoolExecutor(2) as pool:
        whole = run(SimSpec("nak-muay", players=2, games=6000, seed=3, bots=("easy", "random")), executor=pool)
    assert _outcomes(out) == [g.outcome_key() for g in whole.games]


def test_sigint_stops_a_balance_run_on_a_process_pool_at_once(tmp_path: Path) -> None:
    ck = tmp_path / "balance.jsonl"
    args = ["balance", "knockback", "--bot", "easy", "--games", "4", "-w", "2", "--checkpoint", str(ck)]
    proc = subprocess.Popen([*CLI, *args], env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not ck.exists() or len(ck.read_text().splitlines()) < 2):
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()[0]
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    text, _ = proc.communicate(timeout=10)
    assert time.monotonic() - t0 < 10 and proc.returncode == 130, text
    assert "Traceback" not in text and "Resume with: knockabout balance knockback" in text
    assert 1 <= len(ck.read_text().splitlines()) - 1 < 120  # 30 pairings x 4 matches, one match a unit


def _invoke(tmp_path: Path, args: list[str]) -> object:
    return runner.invoke(app, args, env={"XDG_CACHE_HOME": str(tmp_path / "cache"), "COLUMNS": "200"})


def test_a_finished_run_leaves_no_checkpoint_behind(tmp_path: Path) -> None:
    r = _invoke(tmp_path, ["sim", "nak-muay", "--games", "20"])
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    assert list((tmp_path / "cache" / "knockabout" / "runs").glob("*.jsonl")) == []


def test_resuming_with_the_file_of_another_run_is_one_clear_line(tmp_path: Path) -> None:
    ck = tmp_path / "a.jsonl"
    r = _invoke(tmp_path, ["sim", "nak-muay", "--games", "20", "--seed", "1", "--checkpoint", str(ck)])
    assert r.exit_code == 0 and ck.exists()  # type: ignore[attr-defined]
    r = _invoke(tmp_path, ["sim", "nak-muay", "--games", "20", "--seed", "2", "--resume", str(ck)])
    lines = r.output.strip().splitlines()  # type: ignore[attr-defined]
    assert r.exit_code == 2 and len(lines) == 1  # type: ignore[attr-defined]
    assert "checkpoint of another run (seed is 1 there, 2 here)" in lines[0]
    r = _invoke(tmp_path, ["balance", "knockback", "--bot", "random", "--games", "1", "--resume", str(ck)])
    assert r.exit_code == 2 and "checkpoint of a sim run, not of a balance run" in r.output  # type: ignore[attr-defined]
    r = _invoke(tmp_path, ["sim", "nak-muay", "--games", "20", "--resume", str(tmp_path / "none.jsonl")])
    assert r.exit_code == 2 and "cannot read checkpoint" in r.output  # type: ignore[attr-defined]


def test_bad_run_flags_are_one_clear_line(tmp_path: Path) -> None:
    cases = [
        (["sim", "nak-muay", "--backend", "mpi"], "--backend must be one of"),
        (["sim", "nak-muay", "--until-ci", "0"], "--until-ci is a half-width in points"),
        (["sim", "nak-muay", "--address", "127.0.0.1:9"], "--address names a Ray cluster"),
        (["balance", "knockback", "--workers", "0"], "--workers must be at least 1"),
    ]
    for args, message in cases:
        r = _invoke(tmp_path, args)
        assert r.exit_code == 2 and message in r.output, (args, r.output)  # type: ignore[attr-defined]
        assert "Traceback" not in r.output  # type: ignore[attr-defined]


def test_balance_dash_o_is_an_option_not_an_output_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = _invoke(tmp_path, ["balance", "knockback", "--bot", "random", "--games", "1", "-o", "scoring=speed"])
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    assert not (tmp_path / "scoring=speed").exists()
    r = _invoke(tmp_path, ["balance", "knockback", "--bot", "random", "--games", "1", "-o", "scoring=nope"])
    assert r.exit_code == 2 and "scoring" in r.output  # type: ignore[attr-defined]


def test_sim_until_ci_prints_the_sequential_intervals_and_saves_them(tmp_path: Path) -> None:
    out = tmp_path / "seq.json"
    r = _invoke(tmp_path, ["sim", "nak-muay", "--bots", "easy,random", "--until-ci", "10", "--max-games", "2000",
                           "--out", str(out)])
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    assert "--until-ci ±10 pts reached at look" in r.output  # type: ignore[attr-defined]
    info = json.loads(out.read_text())["meta"]["until_ci"]
    assert info["reached"] and all(hi - lo <= 0.2 for _, _, lo, hi in info["intervals"])
    r = _invoke(tmp_path, ["report", str(out)])
    assert "sequential 95% intervals" in r.output  # type: ignore[attr-defined]
