"""``balance tune``: the search finds a planted imbalance and proposes bringing it down,
writes a diff `content validate` and `balance compare` accept, keeps its trials for
``--resume``, refuses another search's study, and stops at its budgets."""

from __future__ import annotations

import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockabout.cli.main import app
from knockabout.core.errors import ConfigError
from knockabout.games.knockback.content import check_pack
from knockabout.sim.executor import InlineExecutor
from knockabout.sim.tune import Measure, Tuner, TuneSpec, confirmed_lines, report_lines
from tests.sim.planted import CARD, PACK, planted_pack

pytestmark = pytest.mark.solo  # (solo: see tests/conftest.py)

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-c", "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
       "from knockabout.cli.main import app; app()"]
MEET = f"{PACK},iron-knuckles,night-moths"


def _spec(version: Path, **kw: object) -> TuneSpec:
    base: dict[str, object] = {"game": "knockback", "options": {"version": str(version), "meet": MEET},
                               "games": 4, "bot": "random", "seed": 1, "only": (PACK,)}
    return TuneSpec(**{**base, **kw})  # type: ignore[arg-type]


def test_the_tuner_finds_a_planted_card_and_proposes_bringing_it_down(tmp_path: Path) -> None:
    version = planted_pack(tmp_path / "planted")
    out = tmp_path / "out"
    r = runner.invoke(app, ["balance", "tune", "knockback", "-o", f"version={version}", "-o", f"meet={MEET}",
                            "--only", PACK, "--bot", "random", "-n", "4", "--budget-games", "1500",
                            "--out", str(out)], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    report = (out / "report.md").read_text()
    edits = [line for line in report.splitlines() if line.startswith(f"- {PACK}.toml: ")]
    assert edits, report
    for line in edits:  # every edit lowers a number of the planted card
        assert line.startswith(f"- {PACK}.toml: {CARD}: edges."), line
        old, new = line.rsplit(": ", 1)[1].split(" → ")
        assert int(new) < int(old) == 9
    change = next(line for line in report.splitlines() if line.startswith(f"|  | {PACK} |"))
    assert "**changed**" in change and float(change.split("|")[6].split()[0]) < -15  # confirmed on other deals
    assert "**Confirmed:**" in report and "Not confirmed" not in report
    diff = (out / "proposal.diff").read_text()
    assert diff.startswith(f"--- a/{PACK}.toml\n+++ b/{PACK}.toml\n")
    assert sum(line.startswith("-edges.") for line in diff.splitlines()) >= 1
    model, problems = check_pack(out / "proposal" / f"{PACK}.toml")  # the format `content validate` reads
    assert problems == [] and model is not None
    assert (out / "study.db").is_file() and (out / "confirm" / "b.jsonl").is_file()


def test_a_search_resumes_from_its_study_and_refuses_another_searchs(tmp_path: Path) -> None:
    version = planted_pack(tmp_path / "planted")
    study = tmp_path / "study.db"
    tuner = Tuner(_spec(version), tmp_path / "w1")
    first = tuner.run(InlineExecutor(), study, budget_games=200)
    assert "budget of 200 games" in first.stopped
    n = len([t for t in first.trials if t.number >= 0])
    assert n >= 2 and first.games >= 200
    again = Tuner(_spec(version), tmp_path / "w2").run(InlineExecutor(), study, resume=True, budget_games=400)
    later = [t for t in again.trials if t.number >= 0]
    assert len(later) > n and again.games >= 400
    assert [(t.number, t.objective) for t in later[:n]] == [(t.number, t.objective) for t in first.trials[1:]]
    assert again.baseline.measure.rates == first.baseline.measure.rates  # the baseline is not played again
    with pytest.raises(ConfigError, match="study of another search \\(seed differs\\)"):
        Tuner(_spec(version, seed=2), tmp_path / "w3").run(InlineExecutor(), study, resume=True, budget_games=500)
    with pytest.raises(ConfigError, match="exists; continue it with --resume"):
        Tuner(_spec(version), tmp_path / "w4").run(InlineExecutor(), study, budget_games=500)


def test_balanced_content_needs_no_search_and_a_time_budget_stops_a_session(tmp_path: Path) -> None:
    version = planted_pack(tmp_path / "planted")
    shipped = {"meet": MEET}  # random bots keep every shipped pack well inside 1-99 %
    none = Tuner(_spec(version, options=shipped, band=0.49, edge=0.49, only=()), tmp_path / "w")
    done = none.run(InlineExecutor(), tmp_path / "a.db", budget_games=10_000)
    assert done.space == [] and done.stopped == "the goal is met at the start" and not done.best.edits
    quick = Tuner(_spec(version), tmp_path / "w2").run(InlineExecutor(), tmp_path / "b.db", budget_seconds=0.0)
    assert "time budget" in quick.stopped and [t.number for t in quick.trials] == [-1]
    assert quick.out_of_budget and not done.out_of_budget
    tuner = Tuner(_spec(version), tmp_path / "w3")
    said = "\n".join(report_lines(tuner, quick, "pack", seconds=0.0, study=tmp_path / "b.db", proposal=None,
                                  confirmation=None))
    assert "no edit is proposed" in said and "stopped on its budget after 0 trials" in said
    assert f"--resume {tmp_path / 'b.db'}" in said, "a search cut short says how to go on"
    calm = "\n".join(report_lines(none, done, "pack", seconds=0.0, study=tmp_path / "a.db", proposal=None,
                                  confirmation=None))
    assert "stopped on its budget" not in calm


def test_tune_options_are_checked_before_anything_plays(tmp_path: Path) -> None:
    r = runner.invoke(app, ["balance", "tune", "knockback", "--out", str(tmp_path), "-o", "meet=nobody"])
    assert r.exit_code != 0 and "meet: unknown pack 'nobody'" in r.output
    r = runner.invoke(app, ["balance", "tune", "knockback", "--out", str(tmp_path), "--max-edits", "0"])
    assert r.exit_code != 0 and "--max-edits must be at least 1" in r.output
    r = runner.invoke(app, ["balance", "tune", "knockback", "--out", str(tmp_path), "--resume",
                            str(tmp_path / "none.db")])
    assert r.exit_code != 0 and "no such study to resume" in r.output


def _complete(study: Path) -> int:
    if not study.is_file():
        return 0
    with sqlite3.connect(f"file:{study}?mode=ro", uri=True) as db:
        try:
            return int(db.execute("select count(*) from trials where state = 'COMPLETE'").fetchone()[0])
        except sqlite3.OperationalError:  # the tables are being made
            return 0


def test_ctrl_c_keeps_the_trials_and_resume_goes_on(tmp_path: Path) -> None:
    version = planted_pack(tmp_path / "planted")
    out = tmp_path / "out"
    args = ["balance", "tune", "knockback", "-o", f"version={version}", "-o", f"meet={MEET}", "--only", PACK,
            "--bot", "random", "-n", "2", "--out", str(out), "--confirm-games", "0"]
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "COLUMNS": "200"}
    proc = subprocess.Popen([*CLI, *args, "--budget-games", "100000"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and _complete(out / "study.db") < 3 and proc.poll() is None:
        time.sleep(0.1)
    assert proc.poll() is None, proc.communicate()[0]
    proc.send_signal(signal.SIGINT)
    text, _ = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "Traceback" not in text, text
    kept = _complete(out / "study.db")
    assert kept >= 3 and f"trials kept in {out / 'study.db'}" in " ".join(text.split())
    resume = shlex.split(next(line for line in text.splitlines() if line.startswith("Resume with: "))
                         .removeprefix("Resume with: "))
    assert resume[-2:] == ["--resume", str(out / "study.db")]
    bigger = [a if a != "100000" else str(24 * 2 * (kept + 4)) for a in resume[1:]]
    done = subprocess.run([*CLI, *bigger], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _complete(out / "study.db") > kept and (out / "report.md").is_file()


def test_a_proposal_other_deals_do_not_back_is_said_not_confirmed_with_what_to_do() -> None:
    spec = _spec(Path("unused"), band=0.05, edge=0.05, games=4)
    was = Measure(rates={"|a": 0.40, "|b": 0.60}, first={"": 0.50})
    closer = Measure(rates={"|a": 0.47, "|b": 0.53}, first={"": 0.50})
    overshot = Measure(rates={"|a": 0.65, "|b": 0.35}, first={"": 0.50})  # fitted the search's luck
    assert confirmed_lines(was, closer, spec, "pack").startswith("**Confirmed:**")
    text = confirmed_lines(was, overshot, spec, "pack")
    assert text.startswith("**Not confirmed — do not apply it as it is:**")
    assert "10.0 → 20.0 points" in text and "2 → 2 packs" in text and "--games 16" in text
