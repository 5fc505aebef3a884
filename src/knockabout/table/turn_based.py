"""Turn-based tables: each move may take hours or days.

A turn-based table gives every person's decision a **move time** (``Table(...,
move_time=S)``): from one hour to two weeks. When it runs out, a bot moves for that
person, as a stand-in does for a person who is away, and the log says so (``by`` is
``out-of-time``); the person keeps the seat and has the whole move time again for their
next decision. People come and go as they like: nobody is marked away for leaving.

Windows of seconds cannot wait that long, so a game with timed decisions declares how it
plays turn-based (:class:`~knockabout.core.plugins.TurnBasedRules`, from
``Game.turn_based()``): the options that replace its windows, set unless the table's
creator chose otherwise, and the option sets that make no sense turn-based, refused here
with the game's own sentence. This module names no game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from knockabout.core.errors import ConfigError
from knockabout.core.protocol import Game

HOUR = 3600.0
DAY = 24 * HOUR
MIN_MOVE_TIME = HOUR
MAX_MOVE_TIME = 14 * DAY
MOVE_TIMES: tuple[float, ...] = (HOUR, 12 * HOUR, DAY, 3 * DAY, 7 * DAY)
"""The move times the lobby offers."""


def check_move_time(seconds: float) -> float:
    """``seconds`` if it is a move time a turn-based table takes, else :class:`ConfigError`."""
    if not MIN_MOVE_TIME <= seconds <= MAX_MOVE_TIME:
        raise ConfigError(f"a turn-based table's time per move is from 1 hour to 14 days "
                          f"({MIN_MOVE_TIME:g}-{MAX_MOVE_TIME:g} s), not {seconds:g} s")
    return seconds


def move_time_text(seconds: float) -> str:
    """``seconds`` in words: "1 day", "12 hours", "90 minutes"."""
    for unit, size in (("day", DAY), ("hour", HOUR), ("minute", 60.0)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds:g} seconds"


def turn_based_config(game: Game[Any], config: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a turn-based table of ``game``: ``config`` over the game's turn-based
    options, validated; :class:`ConfigError` with the game's reason when they cannot be
    played turn-based."""
    rules = game.turn_based()
    if rules is None:
        if game.facts.timed_decisions:
            raise ConfigError(f"{game.name} has decisions timed in seconds and declares no rules for "
                              "turn-based tables; play it at a live table")
        return dict(config)
    merged = {**rules.options, **config}
    why = rules.refusal(game.make_config(merged))
    if why is not None:
        raise ConfigError(f"{game.name} on a turn-based table: {why}")
    return merged
