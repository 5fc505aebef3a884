"""The designer's report: per-card numbers from the plug-in's watcher, the HTML file with its
plots and tables (self-contained), the same numbers as CSV/JSON, and the A/B of content."""

from __future__ import annotations

import builtins
import csv
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from knockabout.cli.main import app
from knockabout.core.errors import ConfigError
from knockabout.games.knockback.content import CONTENT_DIR
from knockabout.sim import balance_tables, html_report
from knockabout.sim.balance_run import BalanceRun, BalanceSpec, run_balance
from knockabout.sim.content_ab import paired_changes
from knockabout.sim.executor import InlineExecutor
from knockabout.sim.results import ResultsError, write_results_file

runner = CliRunner()


def _tiny_tables(games: int = 6) -> tuple[BalanceRun, balance_tables.GroupTables]:
    res = run_balance(BalanceSpec("tiny-duel", {}, games, "random", seed=2), InlineExecutor())
    matches = [m for p in res.pairs[0] for m in p.matches]
    return res, balance_tables.tables(res.groups[0], matches, "deck", lambda e: e[:2])


def test_per_card_numbers_come_from_the_watcher(tiny_games: None) -> None:
    _, t = _tiny_tables()
    aces = {c.card: c for c in t.cards if c.entrant == "aces"}
    assert set(aces) == {"9", "1"}
    # aces play in 2 * 2 * 6 = 24 matches, holding one 9 and two 1s, and play all three cards
    assert (aces["9"].drawn, aces["9"].played, aces["9"].side.n) == (24, 24, 24)
    assert (aces["1"].drawn, aces["1"].played) == (48, 48)
    assert aces["9"].average == pytest.approx(t.fieldrates["aces"].rate)
    assert aces["9"].diff == pytest.approx(aces["9"].side.rate - aces["9"].average)
    assert aces["9"].diff_low - 1e-12 <= aces["9"].diff <= aces["9"].diff_high
    assert sum(c.rate.n for c in t.matrix) == 2 * 36 and len(t.lengths) == 36
    assert {(c.row, c.col) for c in t.draws} == {("aces", "even"), ("aces", "steps"), ("even", "steps")}


def test_the_html_report_holds_the_plots_and_the_per_card_table(tiny_games: None) -> None:
    res, t = _tiny_tables()
    page = html_report.balance_page(res.meta, [t])
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 5
    for kind in ("heatmap", "forest", "first-player", "lengths", "cards"):
        assert f'class="plot {kind}"' in page
    cards = re.search(r'<table class="cards">.*?</table>', page, re.S)
    assert cards is not None and cards.group(0).count("<tr") == 1 + len(t.cards)
    assert "side&#x27;s win rate" in cards.group(0) or "side's win rate" in cards.group(0)
    # self-contained: nothing is loaded from anywhere
    assert "<script" not in page and "<link" not in page and not re.search(r'(src|href)="(https?:)?//', page)
    assert "n=12" in page  # the heat map shows every cell's count (6 matches each seat order)


def test_the_tables_as_csv_and_json_hold_the_same_numbers(tiny_games: None) -> None:
    res, t = _tiny_tables()
    rows = list(csv.DictReader(io.StringIO(balance_tables.tables_csv([t]))))
    kinds = {r["table"] for r in rows}
    assert kinds == {"matrix", "field", "first_player", "first_player_rounds", "draws", "length", "card"}
    card = next(r for r in rows if r["table"] == "card" and r["entrant"] == "aces" and r["other"] == "9")
    assert int(card["drawn"]) == 24 and float(card["diff"]) == pytest.approx(
        next(c for c in t.cards if (c.entrant, c.card) == ("aces", "9")).diff
    )
    data = json.loads(balance_tables.tables_json([t], res.meta))
    assert [f["entrant"] for f in data["groups"][0]["fieldrates"]] == ["aces", "even", "steps"]
    assert len(data["groups"][0]["cards"]) == len(t.cards)


def test_without_matplotlib_the_html_report_is_one_clear_error(
    tiny_games: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    res, t = _tiny_tables(1)
    real = builtins.__import__

    def no_mpl(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_mpl)
    with pytest.raises(ConfigError, match=r"matplotlib, which is not installed: pip install 'knockabout\[plots\]'"):
        html_report.balance_page(res.meta, [t])


def test_balance_html_and_report_file_html_from_the_command_line(tmp_path: Path) -> None:
    html, saved, tables = tmp_path / "r.html", tmp_path / "run.json", tmp_path / "r.csv"
    r = runner.invoke(app, ["balance", "knockdown", "--bot", "random", "--games", "1", "-o", "boxes=nemesis",
                            "--html", str(html), "--save", str(saved), "--tables", str(tables)])
    assert r.exit_code == 0, r.output
    page = html.read_text()
    assert page.count("<svg") == 5 and "Burst Fire" in page  # a Knockdown attack card in the per-card table
    again = tmp_path / "again.html"
    r = runner.invoke(app, ["report", str(saved), "--html", str(again), "--tables", str(tmp_path / "t.json")])
    assert r.exit_code == 0, r.output
    def unclocked(text: str) -> str:
        return re.sub(r"in \d+ s\.", "", text)

    assert unclocked(again.read_text()) == unclocked(page)  # the same report from the saved file
    assert "card" in tables.read_text().splitlines()[1:][-1]
    r = runner.invoke(app, ["report", str(saved), str(saved)])
    assert r.exit_code == 2 and "balance run" in r.output


def _tuned(tmp_path: Path) -> Path:
    """A copy of the built-in packs with one number of Night Moths changed."""
    folder = tmp_path / "tuned"
    shutil.copytree(CONTENT_DIR, folder)
    moths = folder / "night-moths.toml"
    text = moths.read_text()
    changed = re.sub(r"(attack = )(\d+)", lambda m: f"{m.group(1)}{int(m.group(2)) + 2}", text, count=1)
    assert changed != text
    moths.write_text(changed)
    return folder


def test_ab_plays_the_same_deals_so_unchanged_content_differs_by_nothing(tmp_path: Path) -> None:
    spec = {"games": 2, "bot": "random", "seed": 5}
    same_a = run_balance(BalanceSpec("knockback", {"version": str(CONTENT_DIR)}, **spec), InlineExecutor())
    shipped = run_balance(BalanceSpec("knockback", {}, **spec), InlineExecutor())
    assert [[(m.payoffs, m.length) for p in g for m in p.matches] for g in same_a.pairs] == [
        [(m.payoffs, m.length) for p in g for m in p.matches] for g in shipped.pairs
    ]
    tuned = run_balance(BalanceSpec("knockback", {"version": str(_tuned(tmp_path))}, **spec), InlineExecutor())
    changes = {c.entrant: c for c in paired_changes(shipped, tuned)}
    assert set(changes) == set(shipped.groups[0].entrants)
    assert all(c.matches == 20 for c in changes.values())  # 2 matches x 5 opponents x 2 seat orders
    untouched = [m for p in tuned.pairs[0] for m in p.matches if "night-moths" not in (m.a, m.b)]
    before = [m for p in shipped.pairs[0] for m in p.matches if "night-moths" not in (m.a, m.b)]
    assert [m.payoffs for m in untouched] == [m.payoffs for m in before]  # the same deals and bot seeds
    for c in changes.values():
        assert c.low <= c.diff <= c.high


def test_balance_compare_from_the_command_line(tmp_path: Path, tiny_games: None) -> None:
    r = runner.invoke(app, ["balance", "compare", "--a", str(CONTENT_DIR), "--b", str(_tuned(tmp_path)),
                            "--bot", "random", "--games", "1", "--out", str(tmp_path / "ab.md")])
    assert r.exit_code == 0, r.output
    text = (tmp_path / "ab.md").read_text()
    assert "| night-moths |" in text and "paired 95 % interval" in text
    r = runner.invoke(app, ["balance", "compare", "--game", "knockdown", "--a", str(CONTENT_DIR), "--b", "y"])
    assert r.exit_code == 2 and "knockdown: version: " in r.output  # not a Knockdown version: one line says why
    r = runner.invoke(app, ["balance", "compare", "--game", "tiny-duel", "--a", "x", "--b", "y"])
    assert r.exit_code == 2 and "tiny-duel: " in r.output and "cannot load another content version" in r.output
    r = runner.invoke(app, ["balance", "compare", "--a", str(tmp_path / "missing"), "--b", "y"])
    assert r.exit_code == 2 and "no game can load this content version" in r.output


def test_balance_compare_keeps_its_checkpoints_and_resumes_in_pieces(tmp_path: Path) -> None:
    kept = tmp_path / "ck"
    args = ["balance", "compare", "--a", str(CONTENT_DIR), "--b", str(_tuned(tmp_path)), "--bot", "random",
            "--games", "1", "-o", "meet=night-moths,ember-rush"]
    r = runner.invoke(app, [*args, "--checkpoint", str(kept), "--out", str(tmp_path / "one.md")])
    assert r.exit_code == 0, r.output
    a, b = kept / "a.jsonl", kept / "b.jsonl"
    assert len(a.read_text().splitlines()) == 3 and len(b.read_text().splitlines()) == 3  # head + 2 pairings
    b.unlink()  # B was cut short: --resume plays only what is missing
    r = runner.invoke(app, [*args, "--resume", str(kept), "--out", str(tmp_path / "two.md")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "one.md").read_text() == (tmp_path / "two.md").read_text()
    r = runner.invoke(app, [*args, "--seed", "9", "--resume", str(kept)])
    assert r.exit_code != 0 and "checkpoint of another run (seed is 1 there, 9 here)" in " ".join(r.output.split())
    r = runner.invoke(app, [*args, "--resume", str(tmp_path / "nowhere")])
    assert r.exit_code != 0 and "is not a folder" in r.output


def test_a_report_file_that_cannot_be_written_is_one_clear_error(tmp_path: Path) -> None:
    """Every results file and report (balance, tables, HTML, saved runs) is written by
    write_results_file: a folder that is not there is a ResultsError naming the file."""
    where = tmp_path / "no such folder" / "report.md"
    with pytest.raises(ResultsError, match=r"cannot write .*report\.md: No such file or directory"):
        write_results_file(where, "text")
    assert not where.parent.exists()
    write_results_file(tmp_path / "report.md", "text ✓")
    assert (tmp_path / "report.md").read_text(encoding="utf-8") == "text ✓"
