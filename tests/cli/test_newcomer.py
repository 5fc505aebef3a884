"""The newcomer pass (issue 17): every command a README reader types says what it means.

One numbering for people (seats 1-based, with names), demo and replay telling the same
game, readable ``games``, a busy port said plainly, content templates that validate,
and no false certainty in the Elo column.
"""

from __future__ import annotations

import io
import re
import socket
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from knockabout.cli import demo as demo_cmd
from knockabout.cli.content import template_names
from knockabout.cli.main import app
from knockabout.cli.narration import PACE, pace_for
from knockabout.cli.sim import render
from knockabout.core import GameRecord
from knockabout.core.registry import all_games, get_game
from knockabout.sim.report import BotLine, Summary
from knockabout.sim.stats import Rating, elo_ratings, sweeps

runner = CliRunner()


def _winner_line(output: str) -> str:
    lines = [line for line in output.splitlines() if " wins (" in line or line.startswith("Draw")]
    assert lines, output
    return lines[-1]


# ---------------------------------------------------------------- demo and replay
def test_replay_tells_the_recorded_game_and_names_the_demos_winner(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    shown = runner.invoke(app, ["demo", "nak-muay", "--players", "4", "--seed", "3", "--record", str(rec)])
    assert shown.exit_code == 0, shown.output
    assert re.search(r"Bot 4 \(random\)", shown.output) and "P4" not in shown.output
    assert GameRecord.load(rec).names == [f"Bot {i} (random)" for i in (1, 2, 3, 4)]
    again = runner.invoke(app, ["replay", str(rec)])
    assert again.exit_code == 0, again.output
    assert _winner_line(again.output) == _winner_line(shown.output), "replay names the demo's winner"
    assert "Turn 2" in again.output and "goes first" in again.output, "replay narrates the game"
    told = [line for line in again.output.splitlines() if line.startswith("— Turn")]
    assert told == [line for line in shown.output.splitlines() if line.startswith("— Turn")]


def test_replay_of_a_record_without_names_counts_seats_from_one(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    r = runner.invoke(app, ["demo", "nak-muay", "--players", "3", "--seed", "5", "--record", str(rec)])
    assert r.exit_code == 0, r.output
    data = GameRecord.load(rec)
    data.names = []
    rec.write_text(data.to_json())
    r = runner.invoke(app, ["replay", str(rec), "--summary"])
    assert r.exit_code == 0, r.output
    assert re.search(r"Player [123] wins \(", r.output) and "Player 0" not in r.output
    assert "— Turn" not in r.output


def test_replay_of_sim_results_points_to_report(tmp_path: Path) -> None:
    res = tmp_path / "results.json"
    assert runner.invoke(app, ["sim", "nak-muay", "-n", "2", "--out", str(res)]).exit_code == 0
    r = runner.invoke(app, ["replay", str(res)])
    assert r.exit_code == 2 and "holds saved sim results" in r.output and f"knockabout report {res}" in r.output


def test_demo_deals_a_fresh_seed_it_prints_so_the_game_can_be_watched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(demo_cmd, "fresh_seed", lambda: 4242)
    fresh = runner.invoke(app, ["demo", "nak-muay", "--players", "3"])
    assert fresh.exit_code == 0, fresh.output
    assert "seed 4242" in fresh.output
    assert "Watch this game again: knockabout demo nak-muay --players 3 --seed 4242" in fresh.output
    same = runner.invoke(app, ["demo", "nak-muay", "--players", "3", "--seed", "4242"])
    assert same.output == fresh.output
    assert "with --record FILE" not in fresh.output and "Add --record FILE" in fresh.output


def test_demo_says_how_to_replay_its_record(tmp_path: Path) -> None:
    rec = tmp_path / "g.json"
    r = runner.invoke(app, ["demo", "--seed", "2", "--record", str(rec)])
    assert r.exit_code == 0, r.output
    assert f"Record written to {rec}; replay it with: knockabout replay {rec}" in r.output


def test_demo_is_paced_for_a_person_and_instant_in_a_pipe() -> None:
    assert pace_for(Console(file=io.StringIO(), force_terminal=True), None) == PACE > 0
    assert pace_for(Console(file=io.StringIO(), force_terminal=False), None) == 0.0
    assert pace_for(Console(file=io.StringIO(), force_terminal=True), 0.0) == 0.0


# ---------------------------------------------------------------- sim numbering, Elo
def test_sim_counts_seats_from_one() -> None:
    r = runner.invoke(app, ["sim", "nak-muay", "--players", "3", "--games", "6", "--seed", "2"])
    assert r.exit_code == 0, r.output
    assert "seat 1" in r.output and "seat 3" in r.output and "seat 0" not in r.output


def test_a_clean_sweep_leaves_the_rating_unbounded() -> None:
    games = [[(0, 1, 1.0)] for _ in range(12)]  # bot 0 beats bot 1 (the anchor) every time
    hard, rnd = elo_ratings(games, 2, anchor=1, bootstrap=30, seed=1)
    assert hard.unbounded == "above" and hard.reason == "won every game"
    assert rnd.anchor and rnd.unbounded is None
    assert sweeps([(0, 1, 1.0), (1, 2, 0.5)], 3) == ["won", None, None]
    mixed = [[(0, 1, 1.0)], [(0, 1, 0.0)], [(0, 1, 1.0)]]
    assert all(r.unbounded is None for r in elo_ratings(mixed, 2, anchor=1, bootstrap=10))
    # the anchor swept: every other rating is unbounded relative to it
    a, b, _ = elo_ratings([[(2, 0, 0.0), (2, 1, 0.0), (0, 1, 0.5)]], 3, anchor=2, bootstrap=5)
    assert a.unbounded == b.unbounded == "above" and "anchor" in a.reason


def test_sim_report_says_unbounded_instead_of_a_zero_width_interval() -> None:
    summary = Summary("nak-muay", 2, 40, 0, 10.0, 10.0, "turns", 1.0)
    summary.bots = [
        BotLine("hard", 40, 40.0, 0.9, 1.0, Rating(607.0, 607.0, 607.0, "above", "won every game")),
        BotLine("random", 40, 0.0, 0.0, 0.1, Rating(0.0, 0.0, 0.0, anchor=True)),
    ]
    out = io.StringIO()
    render(summary, Console(file=out, width=140))
    text = out.getvalue()
    assert "+607 … +607" not in text and "+607" not in text
    assert "hard: rating unbounded above, won every game" in text and "+∞" in text and "anchor (0)" in text


# ---------------------------------------------------------------- games
def test_games_lists_options_as_typed_with_the_valid_values() -> None:
    r = runner.invoke(app, ["games"])
    assert r.exit_code == 0, r.output
    flat = " ".join(re.sub("[│╭╮╰╯─]", " ", r.output).split())
    assert "('" not in r.output and "…" not in r.output, "no Python tuples, nothing cut off"
    assert "random,random" in flat
    for g in all_games():
        d = g.describe()
        for name, values in d.get("choices", {}).items():
            assert name in flat
            for v in values:
                assert v in flat, f"{g.id}: {name} value {v} not listed"
    kd = get_game("knockdown").describe()["choices"]["fighters"]
    assert {"mistbearer", "puppy", "driana"} <= set(kd)
    assert "tainted_grail, nemesis, siege_storm" in flat, "the boxes come from the config schema"
    assert set(get_game("knockback").describe()["choices"]["packs"]) > {"random", "iron-knuckles"}
    one = runner.invoke(app, ["games", "nak-muay"])
    assert one.exit_code == 0 and "countdown_seconds" in one.output and "knockdown" not in one.output
    bad = runner.invoke(app, ["games", "chess"])
    assert bad.exit_code == 2 and "unknown game 'chess'" in bad.output


# ---------------------------------------------------------------- serve
def test_serve_on_a_busy_port_says_so_before_serving(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = runner.invoke(app, ["serve", "--port", str(port), "--data-dir", str(tmp_path)])
    assert r.exit_code == 2, r.output
    assert f"port {port} is taken" in r.output and "--port" in r.output
    assert "serving at" not in r.output


@pytest.mark.parametrize(("host", "said"), [
    ("0.0.0.0", "every network address"), ("::", "every network address"), ("127.0.0.1", "serving at"),
])
def test_serve_says_an_address_a_person_can_open(host: str, said: str) -> None:
    from knockabout.cli.serve import where_to_open

    text = "\n".join(where_to_open(host, 8123))
    assert said in text and "http://localhost:8123/" in text
    assert "http://0.0.0.0" not in text and "http://::" not in text


# ---------------------------------------------------------------- content
def test_content_validate_searches_sub_folders() -> None:
    from knockabout.games.knockdown.content.loader import CONTENT_DIR

    r = runner.invoke(app, ["content", "validate", str(CONTENT_DIR)])
    assert r.exit_code == 0, r.output
    assert r.output.count("(knockdown): valid") == 3 * 5, "five files in each of the three boxes"


def test_every_template_is_found_through_its_game_and_validates_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = template_names()
    assert {"knockback", "knockback-pack", "knockdown-fighter"} <= set(names)
    from tests.sim.tiny_game import TinyDuel

    assert TinyDuel().templates() == {}, "a game without a templates folder has none"
    monkeypatch.chdir(tmp_path)
    listed = runner.invoke(app, ["content", "new"])
    assert listed.exit_code == 0 and "knockdown-fighter" in listed.output
    for name in ("knockback", "knockdown-fighter"):
        folder = tmp_path / name
        folder.mkdir()
        r = runner.invoke(app, ["content", "new", name, str(folder)])
        assert r.exit_code == 0, r.output
        (written,) = folder.iterdir()
        assert written.read_text().startswith("#"), "a commented example"
        v = runner.invoke(app, ["content", "validate", str(written)])
        assert v.exit_code == 0 and "valid" in v.output, v.output


def test_content_new_refuses_to_overwrite_or_write_an_invalid_file(tmp_path: Path) -> None:
    target = tmp_path / "mine.toml"
    target.write_text("keep me")
    r = runner.invoke(app, ["content", "new", "knockback", str(target)])
    assert r.exit_code == 2 and "already exists" in r.output and "--force" in r.output
    assert target.read_text() == "keep me"
    assert runner.invoke(app, ["content", "new", "knockback", str(target), "--force"]).exit_code == 0
    assert "my-pack" in target.read_text()
    wrong = tmp_path / "brawler.toml"
    r = runner.invoke(app, ["content", "new", "knockdown-fighter", str(wrong)])
    assert r.exit_code == 2 and "fighters.toml" in r.output and not wrong.exists()
    r = runner.invoke(app, ["content", "new", "chess-board"])
    assert r.exit_code == 2 and "no content template 'chess-board'" in r.output


def test_the_readme_pack_example_works_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert "knockabout content new knockback" in readme and "content validate my-pack.toml" in readme
    assert runner.invoke(app, ["content", "new", "knockback"]).exit_code == 0
    r = runner.invoke(app, ["content", "validate", "my-pack.toml"])
    assert r.exit_code == 0 and "my-pack.toml (knockback): valid" in r.output
    rec = tmp_path / "g.json"
    r = runner.invoke(app, ["demo", "knockback", "--seed", "1", "-o", "pack_files=my-pack.toml",
                            "-o", "packs=my-pack,random", "--record", str(rec)])
    assert r.exit_code == 0, r.output
    assert "Copper Hare" in r.output or "Slate Tortoise" in r.output or "Brass Mantis" in r.output


# ---------------------------------------------------------------- a fresh install
def test_a_fresh_install_and_the_tests_print_no_deprecation_warnings() -> None:
    import subprocess
    import sys
    import tomllib

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert isinstance(project["license"], str), "an SPDX expression: setuptools warns about a license table"
    assert not any(c.startswith("License ::") for c in project.get("classifiers", [])), "setuptools warns on both"
    assert any(d.startswith("httpx2") for d in project["optional-dependencies"]["dev"])
    done = subprocess.run([sys.executable, "-W", "error", "-c", "import fastapi.testclient"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr  # starlette's test client warns when it has only httpx


def test_bench_table_fits_80_columns_with_whole_headers() -> None:
    r = runner.invoke(app, ["bench", "--game", "nak-muay", "--seconds", "0.1"], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    assert "…" not in r.output and "determinize" in r.output and "ms/move" in r.output
    assert max(len(line) for line in r.output.splitlines()) <= 80
