"""``knockabout balance``: the pack / fighter matrix from the command line, for any game with a
balance plug-in; bad flags are one clear line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockabout.cli.main import app
from knockabout.core.registry import register, unregister
from tests.sim.tiny_game import TINY

runner = CliRunner()


@pytest.fixture
def tiny_game() -> Iterator[None]:
    register(TINY)
    yield
    unregister(TINY.id)


def test_knockback_matrix_is_printed_and_written(tmp_path: Path) -> None:
    out = tmp_path / "kb.md"
    r = runner.invoke(
        app, ["balance", "knockback", "--bot", "random", "--games", "1", "--scoring", "speed", "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    assert "| ember-rush |" in text and "field" in text and "First-player edge" in text
    assert "30 matches" in text  # 6 packs: 30 ordered pairings of 1 match


def test_knockdown_matrix_for_one_box() -> None:
    r = runner.invoke(app, ["balance", "knockdown", "--bot", "random", "--games", "1", "--box", "nemesis"])
    assert r.exit_code == 0, r.output
    assert "james" in r.output and "6 matches" in r.output and "first player scores" in r.output
    assert "face up in round 1" in r.output


def test_the_shorthand_flags_and_generic_options_are_the_same_run(tmp_path: Path) -> None:
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    args = ["balance", "knockdown", "--bot", "random", "--games", "1"]
    r = runner.invoke(app, [*args, "--box", "nemesis", "--box", "siege_storm", "--merged", "--out", str(a)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, [*args, "--option", "boxes=nemesis,siege_storm", "--option", "merged=true", "--out", str(b)])
    assert r.exit_code == 0, r.output
    tables = [[line for line in p.read_text().splitlines() if line.startswith("|")] for p in (a, b)]
    assert tables[0] == tables[1] and "| nemesis:james |" in tables[0][2:][0]


@pytest.mark.usefixtures("tiny_game")
def test_any_game_with_a_balance_plug_in_runs() -> None:
    r = runner.invoke(app, ["balance", "tiny-duel", "--bot", "random", "--games", "2", "--option", "rounds=1"])
    assert r.exit_code == 0, r.output
    assert "Tiny decks" in r.output and "12 matches, 12 rounds" in r.output and "starter wins" in r.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nak-muay"], "nak-muay has no balance plug-in; balance runs for: knockback, knockdown"),
        (["chess"], "unknown game 'chess'"),
        (["knockback", "--bot", "godlike"], "unknown bot level 'godlike'"),
        (["knockback", "--scoring", "fast"], "scoring"),
        (["knockback", "--merged"], "knockback: balance has no option 'merged'"),
        (["knockdown", "--box", "nope"], "unknown box 'nope'"),
        (["knockdown", "--scoring", "speed"], "balance has no option 'scoring' (its options: boxes, merged, version)"),
        (["knockdown", "--option", "merged"], "must look like key=value"),
    ],
)
def test_bad_flags_get_one_clear_line(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["balance", *args])
    assert r.exit_code == 2
    assert message in " ".join(r.output.split())
    assert "Traceback" not in r.output
