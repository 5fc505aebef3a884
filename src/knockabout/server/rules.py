"""A game's rules page for the browser: the Markdown file its lobby info names, inside the
game's own package, rendered to HTML on the server (markdown-it-py, raw HTML in the source
escaped), so the front end needs no build step and no CDN. Headings get ids from their text
(mdit-py-plugins' anchors: "## Your turn" is ``#your-turn``): a guide's prompt names the
section that explains its decision, and the page opens there."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin

from knockabout.core.errors import KnockaboutError
from knockabout.core.protocol import Game


def package_file(game: Game[Any], relative: str) -> Path:
    """``relative`` inside the package that defines ``game`` (wherever it is installed)."""
    package = type(game).__module__.rpartition(".")[0] or type(game).__module__
    path = Path(str(resources.files(package))) / relative
    if not path.is_file():
        raise KnockaboutError(f"{game.id}: {relative!r} is not a file of {package}")
    return path


@cache
def _render(path: Path, mtime: float) -> str:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    md.use(anchors_plugin, min_level=1, max_level=4)
    html: str = md.render(path.read_text(encoding="utf-8"))
    return html


def rules_html(game: Game[Any]) -> str:
    """The game's rules page as HTML; a game without one raises ``KnockaboutError``."""
    info = game.lobby()
    if info is None or info.rules is None:
        raise KnockaboutError(f"{game.id} has no rules page")
    path = package_file(game, info.rules)
    return _render(path, path.stat().st_mtime)
