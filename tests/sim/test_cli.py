"""``knockabout sim``, ``report`` and ``bench`` on the command line; every error is one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockabout.cli.main import app

runner = CliRunner()


def _one_error_line(output: str, text: str) -> None:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    assert lines[0].startswith("error:") and text in lines[0], output


def test_sim_prints_seat_win_rates_with_intervals_and_game_length() -> None:
    r = runner.invoke(app, ["sim", "nak-muay", "--players", "3", "--games", "30", "--seed", "2"])
    assert r.exit_code == 0, r.output
    assert "30 games" in r.output and "median" in r.output and "turns" in r.output
    assert "seat 2" in r.output and "Wilson" in r.output and "games/s" in r.output


def test_sim_tournament_saves_results_that_report_reopens_and_compares(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.csv"
    for out, seed in ((a, "1"), (b, "2")):
        r = runner.invoke(app, ["sim", "nak-muay", "-n", "20", "-s", seed, "--bots", "easy,random", "--out", str(out)])
        assert r.exit_code == 0, r.output
        assert "Elo" in r.output and "easy" in r.output
    r = runner.invoke(app, ["report", str(a), str(b)])
    assert r.exit_code == 0, r.output
    assert "comparison" in r.output and str(b) in r.output


@pytest.mark.parametrize(("args", "says"), [
    (["tiddlywinks"], "unknown game 'tiddlywinks'"),
    (["nak-muay", "--bots", "easy,grandmaster"],
     "unknown bot level 'grandmaster'; choose one of: random, easy, medium, hard"),
    (["nak-muay", "--players", "9"], "nak-muay is played by 2-5 players, not 9"),
    (["nak-muay", "--option", "max_turns=-3"], "max_turns"),
], ids=["unknown game", "unknown bot level", "bad player count", "bad option"])
def test_sim_refuses_bad_arguments_with_one_line(args: list[str], says: str) -> None:
    r = runner.invoke(app, ["sim", *args, "--games", "5"])
    assert r.exit_code == 2
    _one_error_line(r.output, says)


def test_report_refuses_a_file_that_is_not_results(tmp_path: Path) -> None:
    bad = tmp_path / "notes.csv"
    bad.write_text("just,some,csv\n1,2,3\n")
    r = runner.invoke(app, ["report", str(bad)])
    assert r.exit_code == 2
    _one_error_line(r.output, "not a knockabout sim CSV")


def test_bench_measures_nak_muay() -> None:
    r = runner.invoke(app, ["bench", "--game", "nak-muay", "--seconds", "0.2", "--json"])
    assert r.exit_code == 0, r.output
    assert '"steps_per_s"' in r.output and '"ismcts_iters_per_s"' in r.output


def test_bench_refuses_an_unknown_game() -> None:
    r = runner.invoke(app, ["bench", "--game", "chess"])
    assert r.exit_code == 2
    _one_error_line(r.output, "unknown game 'chess'")
