"""Named strength levels, usable anywhere a bot is chosen."""

from __future__ import annotations

from collections.abc import Callable

from knockabout.bots.base import Bot
from knockabout.bots.random_bot import RandomBot
from knockabout.core.errors import KnockaboutError

BotFactory = Callable[[str], Bot]
"""Makes a bot for the given game id."""

LEVELS: dict[str, BotFactory] = {
    "random": lambda game_id: RandomBot(),
}


def make_bot(level: str, game_id: str) -> Bot:
    """A fresh bot of a named level for a game. Unknown levels raise a clear error."""
    factory = LEVELS.get(level)
    if factory is None:
        raise KnockaboutError(
            f"unknown bot level {level!r}; choose one of: {', '.join(LEVELS)}"
        )
    return factory(game_id)
