"""A message that names an optional extra prints it whole: Rich would read
``knockabout[plots]`` as a markup tag and print ``pip install 'knockabout'``."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from knockabout.cli.main import app

runner = CliRunner()


def without(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Imports of ``modules`` (and their submodules) fail, as on an install without the extra."""
    real = builtins.__import__

    def blocked(name: str, *args: Any, **kwargs: Any) -> Any:
        if any(name == m or name.startswith(m + ".") for m in modules):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", blocked)
    for name in list(__import__("sys").modules):
        if any(name == m or name.startswith(m + ".") for m in modules):
            monkeypatch.delitem(__import__("sys").modules, name)


def one_line(result: Any) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return " ".join(result.output.split())  # (the error console may wrap a long line)


def test_report_html_without_matplotlib_names_the_plots_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved = tmp_path / "run.json"
    made = runner.invoke(app, ["sim", "nak-muay", "--games", "2", "--out", str(saved)])
    assert made.exit_code == 0, made.output
    without(monkeypatch, "matplotlib")
    out = one_line(runner.invoke(app, ["report", str(saved), "--html", str(tmp_path / "r.html")]))
    assert "pip install 'knockabout[plots]'" in out, out


def test_backend_ray_without_ray_names_the_cluster_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, "ray")
    out = one_line(runner.invoke(app, ["sim", "nak-muay", "--games", "2", "--backend", "ray"]))
    assert "pip install 'knockabout[cluster]'" in out, out


def test_bench_envs_without_the_research_extras_names_the_rl_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, "knockabout.envs")
    out = one_line(runner.invoke(app, ["bench", "--envs", "--game", "knockback", "--seconds", "0.1"]))
    assert "pip install 'knockabout[rl]'" in out, out


def test_any_error_prints_brackets_as_they_are() -> None:
    out = one_line(runner.invoke(app, ["play", "[bold]nope[/bold]"]))
    assert "[bold]nope[/bold]" in out, out
