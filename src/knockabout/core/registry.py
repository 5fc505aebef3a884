"""The registry of games by id.

Built-in games are found lazily by module path, so ``core`` never imports a game
module at import time (imports point down only). Other games may be added with
:func:`register`.
"""

from __future__ import annotations

import importlib
from typing import Any

from knockabout.core.errors import UnknownGameError
from knockabout.core.protocol import Game

_BUILTIN: dict[str, str] = {
    "nak-muay": "knockabout.games.nakmuay",
    "knockback": "knockabout.games.knockback",
    "knockdown": "knockabout.games.knockdown",
}

_GAMES: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> Game[Any]:
    """Register a game instance under its id (replacing any earlier one)."""
    _GAMES[game.id] = game
    return game


def _load_builtin(game_id: str) -> None:
    module = _BUILTIN.get(game_id)
    if module is None:
        return
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.startswith(exc.name):
            return  # that game is not part of this build yet
        raise


def get_game(game_id: str) -> Game[Any]:
    """The registered game with this id; :class:`UnknownGameError` lists the known ids."""
    if game_id not in _GAMES:
        _load_builtin(game_id)
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(game_ids()) or "none"
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {known}") from None


def game_ids() -> list[str]:
    """The ids of every available game, built-in ones loaded on demand."""
    for gid in _BUILTIN:
        if gid not in _GAMES:
            _load_builtin(gid)
    return sorted(_GAMES)


def all_games() -> list[Game[Any]]:
    return [_GAMES[g] for g in game_ids()]
