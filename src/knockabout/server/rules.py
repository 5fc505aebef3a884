"""A game's rules page for the browser: the Markdown file its lobby info names, inside the
game's own package, rendered to HTML on the server (markdown-it-py, raw HTML in the source
escaped), so the front end needs no build step and no CDN. Headings get ids from their text
(mdit-py-plugins' anchors: "## Your turn" is ``#your-turn``): a guide's prompt names the
section that explains its decision, and the page opens there. A fenced block of the kind
``picture`` (one name a line) becomes an empty ``<figure data-picture="NAME">`` that the
browser fills with the game's own renderer (its ``picture(name)``), so the rules show the
cards and the board as the table draws them."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.anchors import anchors_plugin

from knockabout.core.errors import KnockaboutError
from knockabout.core.protocol import Game


def package_file(game: Game[Any], relative: str) -> Path:
    """``relative`` inside the package that defines ``game`` (wherever it is installed)."""
    path = game.folder / relative
    if not path.is_file():
        raise KnockaboutError(f"{game.id}: {relative!r} is not a file of {game.package}")
    return path


def _pictures(md: MarkdownIt) -> None:
    """Render ```` ```picture ```` blocks as figures for the game's renderer to draw."""
    assert isinstance(md.renderer, RendererHTML)
    fence = md.renderer.rules["fence"]

    def render(renderer: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        if token.info.strip() != "picture":
            out: str = fence(tokens, idx, options, env)
            return out
        return "".join(f'<figure class="rules-picture" data-picture="{escape(name)}"></figure>\n'
                       for name in token.content.split())

    md.add_render_rule("fence", render)


@cache
def _render(path: Path, mtime: float) -> str:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    md.use(anchors_plugin, min_level=1, max_level=4).use(_pictures)
    html: str = md.render(path.read_text(encoding="utf-8"))
    return html


def rules_html(game: Game[Any]) -> str:
    """The game's rules page as HTML; a game without one raises ``KnockaboutError``."""
    info = game.lobby()
    if info is None or info.rules is None:
        raise KnockaboutError(f"{game.id} has no rules page")
    path = package_file(game, info.rules)
    return _render(path, path.stat().st_mtime)
