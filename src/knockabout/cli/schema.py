"""``knockabout schema GAME``: the JSON Schema of a game's view.

The schema is the contract between a game and whatever draws it: the browser's renderer,
the terminal renderer and the bots read only fields it names (a test checks the web
renderers against it).
"""

from __future__ import annotations

import json
from typing import Any

import typer

from knockabout.cli.errors import friendly_errors
from knockabout.core.errors import KnockaboutError
from knockabout.core.protocol import Game
from knockabout.core.registry import get_game
from knockabout.core.view import View


def view_schema(game: Game[Any]) -> dict[str, Any]:
    """The JSON Schema of ``game``'s typed view; a game that declares no ``view_type``
    raises :class:`KnockaboutError` saying so."""
    view_type: object = getattr(game, "view_type", None)
    if not isinstance(view_type, type) or not issubclass(view_type, View):
        raise KnockaboutError(
            f"{game.id} declares no typed view (view_type), so it has no schema yet"
        )
    return view_type.json_schema()


def schema(
    game: str = typer.Argument(..., help="game id (see `knockabout games`)"),
    indent: int = typer.Option(2, "--indent", min=0, help="spaces of indentation (0: one line)"),
) -> None:
    with friendly_errors():
        found = view_schema(get_game(game))
    typer.echo(json.dumps(found, indent=indent or None, sort_keys=False))
