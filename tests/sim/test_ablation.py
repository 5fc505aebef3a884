"""Each card's effect by paired ablation (``balance ablate``): a planted card comes first
with an interval wholly above zero, the base plays exactly the balance run's matches, each
game's neutral stand-in loads, the effects reach every report, and a run resumes."""

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
from knockabout.core.errors import ConfigError
from knockabout.core.registry import get_game
from knockabout.sim.ablation import AblationSpec, effects_from, plan_ablation, run_ablation
from knockabout.sim.balance_run import BalanceRun, BalanceSpec, run_balance
from knockabout.sim.balance_tables import CardEffect
from knockabout.sim.executor import InlineExecutor
from tests.sim.planted import CARD, PACK, planted_pack

pytestmark = pytest.mark.solo  # (solo: see tests/conftest.py)

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-c", "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
       "from knockabout.cli.main import app; app()"]


def _ablate(tmp: Path, spec: AblationSpec) -> tuple[BalanceRun, list[CardEffect]]:
    run = run_ablation(plan_ablation(spec, tmp / "work"), InlineExecutor())
    return run, effects_from(run.meta)


def _plays(run: BalanceRun) -> dict[tuple[str, str, int], tuple[float, ...]]:
    """Every match of the planted pack: its payoffs by pairing and number."""
    return {(m.a, m.b, m.index): m.payoffs for g in run.pairs for p in g for m in p.matches if PACK in (m.a, m.b)}


def test_the_ablation_names_a_planted_card_first_with_an_interval_wholly_above_zero(tmp_path: Path) -> None:
    version = planted_pack(tmp_path / "planted")
    _, effects = _ablate(tmp_path, AblationSpec("knockback", {"version": str(version)}, 6, "random", 1, (PACK,)))
    assert effects[0].card == CARD
    first = effects[0]
    assert first.entrant == PACK and first.low > 0.5  # it wins most matches it would otherwise lose
    assert first.matches == 60  # 6 matches x 5 opponents x 2 seat orders
    assert all(e.effect < first.low for e in effects[1:])


def test_the_base_plays_exactly_the_balance_runs_matches(tmp_path: Path) -> None:
    base, (effect,) = _ablate(tmp_path, AblationSpec("knockback", {}, 2, "random", 5, ("Cinder Fox",)))
    plain = run_balance(BalanceSpec("knockback", {}, 2, "random", 5), InlineExecutor())
    assert _plays(base) == _plays(plain) and len(_plays(base)) == 20
    assert (effect.entrant, effect.card, effect.matches) == (PACK, "Cinder Fox", 20)
    assert effect.rate == pytest.approx(sum(p[0 if a == PACK else 1] for (a, _, _), p in _plays(plain).items()) / 20)


def test_knockdown_cards_have_a_neutral_stand_in_that_every_fighter_of_the_box_plays(tmp_path: Path) -> None:
    _, effects = _ablate(tmp_path, AblationSpec("knockdown", {"boxes": ["tainted_grail"]}, 1, "random", 2,
                                                ("High Punch",)))
    assert sorted(e.entrant for e in effects) == ["lost_knight", "maggot", "mistbearer"]
    assert {e.card for e in effects} == {"High Punch"} and all(e.matches == 4 for e in effects)
    ablated = tmp_path / "work" / "v1" / "tainted_grail" / "attacks.toml"
    text = ablated.read_text()
    assert 'name = "High Punch"' in text
    assert get_game("knockdown").validate_content(ablated.parent) == []  # what `content validate` accepts


def test_an_unknown_card_or_a_game_without_content_files_is_one_clear_error(tmp_path: Path, tiny_games: None) -> None:
    with pytest.raises(ConfigError, match=r"no card .Nobody. in this run .*Cinder Fox"):
        plan_ablation(AblationSpec("knockback", {}, 1, "random", 1, ("Nobody",)), tmp_path)
    with pytest.raises(ConfigError, match="does not describe its content files"):
        plan_ablation(AblationSpec("tiny-duel", {}, 1, "random", 1), tmp_path)
    with pytest.raises(ConfigError, match="no option 'speed'"):
        plan_ablation(AblationSpec("knockback", {"speed": 3}, 1, "random", 1), tmp_path)


def test_ablate_from_the_command_line_reaches_every_report_and_resumes(tmp_path: Path) -> None:
    version = planted_pack(tmp_path / "planted")
    html, csv, saved, ck = (tmp_path / n for n in ("r.html", "r.csv", "r.json", "ck.jsonl"))
    args = ["balance", "ablate", "knockback", "-o", f"version={version}", "-c", CARD, "-c", "Cinder Fox",
            "--bot", "random", "-n", "2", "--seed", "4", "--checkpoint", str(ck)]
    r = runner.invoke(app, [*args, "--html", str(html), "--tables", str(csv), "--save", str(saved)],
                      env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "effect on winning, by paired ablation" in r.output and "usage says" in r.output
    page = html.read_text()
    assert "effect by ablation (pts)" in page and 'class="plot effects"' in page
    rows = [line for line in csv.read_text().splitlines() if ",ablation," in line]
    assert len(rows) == 2 and rows[0].split(",")[3] == CARD
    again = runner.invoke(app, ["report", str(saved), "--html", str(tmp_path / "again.html")])
    assert again.exit_code == 0, again.output
    assert (tmp_path / "again.html").read_text() == page
    resumed = runner.invoke(app, [*args, "--resume", str(ck), "--save", str(tmp_path / "r2.json")])
    assert resumed.exit_code == 0, resumed.output
    first, second = (json.loads(p.read_text())["meta"]["ablation"] for p in (saved, tmp_path / "r2.json"))
    assert first == second
    other = runner.invoke(app, [*args[:-4], "--seed", "5", "--resume", str(ck)])
    assert other.exit_code != 0 and "checkpoint of another run (seed is 4 there, 5 here)" in other.output


def test_ctrl_c_keeps_the_finished_blocks_and_the_resumed_ablation_ends_as_an_uninterrupted_one(
    tmp_path: Path,
) -> None:
    version = planted_pack(tmp_path / "planted")
    ck, saved = tmp_path / "ck.jsonl", tmp_path / "out.json"
    args = ["balance", "ablate", "knockback", "-o", f"version={version}", "-c", CARD, "--bot", "random",
            "-n", "40", "--seed", "2", "--checkpoint", str(ck), "--save", str(saved)]
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "COLUMNS": "200"}
    proc = subprocess.Popen([*CLI, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not ck.exists() or len(ck.read_text().splitlines()) < 3):
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()[0]
    proc.send_signal(signal.SIGINT)
    text, _ = proc.communicate(timeout=20)
    assert proc.returncode == 130 and "Traceback" not in text, text
    assert not saved.exists()
    resume = shlex.split(next(line for line in text.splitlines() if line.startswith("Resume with: "))
                         .removeprefix("Resume with: "))
    done = subprocess.run([*CLI, *resume[1:]], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    plan = plan_ablation(AblationSpec("knockback", {"version": str(version)}, 40, "random", 2, (CARD,)),
                         tmp_path / "work")
    whole = run_ablation(plan, InlineExecutor())
    assert json.loads(saved.read_text())["meta"]["ablation"] == whole.meta["ablation"]
