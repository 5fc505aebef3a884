"""Terminal renderers: how ``knockabout play`` draws a game's views.

A game brings its own renderer through its plug-in,
:meth:`Game.terminal_renderer <knockabout.core.protocol.Game.terminal_renderer>` (an object
with the :class:`~knockabout.core.plugins.TerminalRenderer` methods, kept in the game's
own package). A game without one is shown by :class:`GenericRenderer` (its view's wire
JSON as a key/value table, actions as their text), so every game is playable in the
terminal from the first day.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table as RichTable

from knockabout.core.plugins import TerminalRenderer
from knockabout.core.protocol import Game
from knockabout.core.registry import get_game
from knockabout.core.view import View

__all__ = ["GenericRenderer", "TerminalRenderer", "get_renderer", "renderer_for"]

_NOT_ON_BOARD = ("hand", "legal", "seat")


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, separators=(", ", ": "))


class GenericRenderer:
    """The fallback: the view's fields (from ``view.to_json()``) and actions as their texts."""

    def board(self, view: View, names: Sequence[str], seat: int | None) -> RenderableType:
        t = RichTable(show_header=False, box=None)
        for key, value in view.to_json().items():
            if key in _NOT_ON_BOARD or value is None:
                continue
            t.add_row(str(key), _shown(value))
        return t

    def hand(self, view: View, names: Sequence[str], seat: int) -> RenderableType:
        hand = view.to_json().get("hand")
        return f"Your hand: {'(not shown)' if hand is None else _shown(hand)}"

    def action_label(self, text: str, view: View, names: Sequence[str]) -> str:
        return text

    def help(self) -> RenderableType:
        return "No help for this game yet: actions are listed by their text."


def renderer_for(game: Game[Any]) -> TerminalRenderer:
    """The game's own terminal renderer, or the generic one."""
    return game.terminal_renderer() or GenericRenderer()


def get_renderer(game_id: str) -> TerminalRenderer:
    """The terminal renderer of the game with this id (see :func:`renderer_for`)."""
    return renderer_for(get_game(game_id))
