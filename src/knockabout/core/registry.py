"""The registry of games by id.

Games are found through the ``knockabout.games`` entry-point group: every installed
distribution that declares one there (knockabout itself declares its three games in
pyproject.toml) plugs in the same way. An entry point names a :class:`Game` instance,
``id = "package.module:GAME"``, and is loaded only when that game is first asked for,
so core never imports a game module at import time. Games may also be added at run
time with :func:`register` (tests do).

A broken entry point (its module fails to import, it names something that is not a
:class:`Game`, or a game whose id is not the entry point's name) is reported in one
line naming the entry point: :func:`get_game` raises it for that id, while
:func:`game_ids` leaves the game out and logs the same line, so one broken plug-in does
not take the other games down with it.
"""

from __future__ import annotations

import logging
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from knockabout.core.errors import KnockaboutError, UnknownGameError
from knockabout.core.protocol import Game

GROUP = "knockabout.games"

_GAMES: dict[str, Game[Any]] = {}

log = logging.getLogger(__name__)


def register(game: Game[Any]) -> Game[Any]:
    """Register a game instance under its id (replacing any earlier one)."""
    _GAMES[game.id] = game
    return game


def unregister(game_id: str) -> None:
    """Forget a game registered at run time (entry-point games come back when asked for)."""
    _GAMES.pop(game_id, None)


def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=GROUP):
        found.setdefault(ep.name, ep)
    return found


def _load(game_id: str, ep: EntryPoint) -> None:
    where = f"entry point {game_id!r} ({ep.value}) of the {GROUP} group"
    try:
        game = ep.load()
    except Exception as exc:
        why = (str(exc).strip().splitlines() or [""])[0]
        raise KnockaboutError(f"{where} failed to load: {type(exc).__name__}: {why}") from exc
    if not isinstance(game, Game):
        raise KnockaboutError(f"{where} is not a knockabout Game instance (it is a {type(game).__name__})")
    if game.id != game_id:
        raise KnockaboutError(f"{where} names a game whose id is {game.id!r}; the names must match")
    _GAMES.setdefault(game_id, game)


def get_game(game_id: str) -> Game[Any]:
    """The game with this id; :class:`UnknownGameError` lists the known ids."""
    if game_id not in _GAMES:
        ep = _entry_points().get(game_id)
        if ep is not None:
            _load(game_id, ep)
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(game_ids()) or "none"
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {known}") from None


def game_ids() -> list[str]:
    """The ids of every available game (installed through entry points, or registered)."""
    for gid, ep in _entry_points().items():
        if gid not in _GAMES:
            try:
                _load(gid, ep)
            except KnockaboutError as exc:
                log.warning("%s", exc)
    return sorted(_GAMES)


def all_games() -> list[Game[Any]]:
    return [_GAMES[g] for g in game_ids()]
