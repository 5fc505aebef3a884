"""Every option's help text reaches the reader whole: the help screens are drawn with Rich,
which reads ``[word]`` as markup and drops it, so a bracket must be escaped (``\\[rl]``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import typer
from typer.testing import CliRunner

from knockabout.cli.main import app


def _commands(cmd: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, cmd
    for name, sub in getattr(cmd, "commands", {}).items():  # (Typer's groups are its own click's)
        yield from _commands(sub, (*path, name))


def _flat(text: str) -> str:
    return re.sub(r"[\s│]+", " ", text)


def test_every_option_help_is_shown_whole() -> None:
    root = typer.main.get_command(app)
    runner = CliRunner()
    checked = 0
    for path, cmd in _commands(root):
        helps = [h for p in cmd.params if (h := getattr(p, "help", None)) and "[" in h]
        if not helps:
            continue
        out = runner.invoke(app, [*path, "--help"], terminal_width=400, env={"COLUMNS": "400"}).output
        for h in helps:
            shown = h.replace("\\[", "[")
            assert _flat(shown) in _flat(out), f"`knockabout {' '.join(path)} --help` lost part of: {shown!r}"
            checked += 1
    assert checked >= 1  # (the --envs help names an extra in brackets)
