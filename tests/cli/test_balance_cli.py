"""``knockabout balance``: the pack / fighter matrix from the command line; bad flags are one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockabout.cli.main import app

runner = CliRunner()


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
    assert "james" in r.output and "6 matches" in r.output and "first player wins" in r.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nak-muay"], "balance runs for knockback and knockdown"),
        (["knockback", "--bot", "godlike"], "unknown bot level 'godlike'"),
        (["knockback", "--scoring", "fast"], "scoring"),
        (["knockback", "--merged"], "Knockdown options"),
        (["knockdown", "--box", "nope"], "unknown box 'nope'"),
        (["knockdown", "--scoring", "speed"], "KNOCKBACK options"),
    ],
)
def test_bad_flags_get_one_clear_line(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["balance", *args])
    assert r.exit_code == 2
    assert message in r.output
    assert "Traceback" not in r.output
