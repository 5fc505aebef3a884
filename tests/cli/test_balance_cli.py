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
        app, ["balance", "knockback", "--bot", "random", "--games", "1", "-o", "scoring=speed", "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    assert "| ember-rush |" in text and "field" in text and "First-player edge" in text
    assert "30 matches" in text  # 6 packs: 30 ordered pairings of 1 match


def test_knockdown_matrix_for_one_box() -> None:
    r = runner.invoke(app, ["balance", "knockdown", "--bot", "random", "--games", "1", "-o", "boxes=nemesis"])
    assert r.exit_code == 0, r.output
    assert "james" in r.output and "6 matches" in r.output and "first player scores" in r.output
    assert "face up in round 1" in r.output


def test_a_list_option_given_as_text_or_json_is_the_same_run(tmp_path: Path) -> None:
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    args = ["balance", "knockdown", "--bot", "random", "--games", "1"]
    r = runner.invoke(app, [*args, "-o", "boxes=nemesis,siege_storm", "-o", "merged=true", "--out", str(a)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, [*args, "--option", 'boxes=["nemesis","siege_storm"]', "--option", "merged=true",
                            "--out", str(b)])
    assert r.exit_code == 0, r.output
    tables = [[line for line in p.read_text().splitlines() if line.startswith("|")] for p in (a, b)]
    assert tables[0] == tables[1] and "| nemesis:james |" in tables[0][2:][0]


def test_help_and_completion_list_each_plug_ins_options() -> None:
    """The generic command names no game's option: its help and its shell completion read
    them from the balance plug-ins (the tiny outside game's included)."""
    from knockabout.cli.balance import _complete_option, _plugin_options

    known = _plugin_options()
    assert set(known) >= {"knockback", "knockdown"}
    r = runner.invoke(app, ["balance", "run", "--help"], env={"COLUMNS": "400"})
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    for gid, options in known.items():
        assert f"Options of {gid} (-o key=value)" in text
        for name in options:
            assert f"{name}:" in text, (gid, name)
    assert "--box" not in text and "--merged" not in text and "--scoring" not in text

    class Ctx:
        def __init__(self, **params: object) -> None:
            self.params = params

    names = [c for c, _ in _complete_option(Ctx(game="knockdown"), "")]
    assert names == sorted(f"{k}=" for k in known["knockdown"])
    assert [c for c, _ in _complete_option(Ctx(game="knockdown"), "me")] == ["merged="]
    everything = {c for c, _ in _complete_option(Ctx(), "")}
    assert everything == {f"{k}=" for opts in known.values() for k in opts}
    # the command's own -o parameter completes through it (what a shell's completion calls)
    import click
    import typer

    from knockabout.cli.balance import app as balance_app

    run = typer.main.get_command(balance_app).commands["run"]  # type: ignore[attr-defined]
    param = next(p for p in run.params if "-o" in p.opts)
    ctx = click.Context(run)
    ctx.params = {"game": "knockdown"}
    assert [c.value for c in param.shell_complete(ctx, "me")] == ["merged="]


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
        (["knockback", "-o", "scoring=fast"], "scoring"),
        (["knockback", "-o", "merged=true"], "knockback: balance has no option 'merged'"),
        (["knockdown", "-o", "boxes=nope"], "unknown box 'nope'"),
        (["knockdown", "-o", "scoring=speed"], "balance has no option 'scoring' (its options: boxes, merged, version)"),
        (["knockdown", "--box", "nemesis"], "No such option: --box"),
        (["knockdown", "--option", "merged"], "must look like key=value"),
    ],
)
def test_bad_flags_get_one_clear_line(args: list[str], message: str) -> None:
    r = runner.invoke(app, ["balance", *args])
    assert r.exit_code == 2
    assert message in " ".join(r.output.split())
    assert "Traceback" not in r.output
