"""Terminal renderers: how each game's view is drawn in ``knockabout play``.

A renderer is any object with the :class:`TerminalRenderer` methods. Games add theirs
by writing ``knockabout/cli/render/<module>.py`` with a module-level ``RENDERER`` and
one line in :data:`RENDERERS`. A game without one is shown by :class:`GenericRenderer`
(its view as a key/value table, actions as their text), so every registered game is
playable from the first day.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Protocol

from rich.console import RenderableType
from rich.table import Table as RichTable

RENDERERS: dict[str, str] = {
    "nak-muay": "knockabout.games.nakmuay.terminal",  # TRANSITIONAL (issue 13)
    "knockdown": "knockabout.cli.render.knockdown",
    "knockback": "knockabout.cli.render.knockback",
}


class TerminalRenderer(Protocol):
    """Draws one game's views for the terminal. ``view`` is ``state.observe(seat)``;
    ``names`` are the seats' display names; ``seat`` is who looks (None: spectator)."""

    def board(self, view: dict[str, Any], names: Sequence[str], seat: int | None) -> RenderableType:
        """Everything public: players, piles, direction, what is pending."""
        ...

    def hand(self, view: dict[str, Any], names: Sequence[str], seat: int) -> RenderableType:
        """What only ``seat`` may see (its hand, cards it knows in the pile)."""
        ...

    def action_label(self, text: str, view: dict[str, Any], names: Sequence[str]) -> str:
        """A short plain-words label for a legal action's text."""
        ...

    def help(self) -> RenderableType:
        """A short reference of the game's pieces (shown on '?')."""
        ...


class GenericRenderer:
    """The fallback: shows the view's fields and actions as their texts."""

    def board(self, view: dict[str, Any], names: Sequence[str], seat: int | None) -> RenderableType:
        t = RichTable(show_header=False, box=None)
        for key, value in view.items():
            if key in ("hand", "legal", "seat"):
                continue
            t.add_row(str(key), str(value))
        return t

    def hand(self, view: dict[str, Any], names: Sequence[str], seat: int) -> RenderableType:
        return f"Your hand: {view.get('hand', '(not shown)')}"

    def action_label(self, text: str, view: dict[str, Any], names: Sequence[str]) -> str:
        return text

    def help(self) -> RenderableType:
        return "No help for this game yet: actions are listed by their text."


def get_renderer(game_id: str) -> TerminalRenderer:
    module = RENDERERS.get(game_id)
    if module is None:
        return GenericRenderer()
    renderer: TerminalRenderer = importlib.import_module(module).RENDERER
    return renderer
