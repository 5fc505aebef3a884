"""A bot's move worked out ahead of its release (see :meth:`knockabout.table.Table.think`).

The table releases a bot's move at a time fixed when its decision opened; the thinking
happens before, on a copy of the state, so it may run in another thread while the table
goes on answering people, and how long it took shows nowhere. With ``steady_bots`` the
table also keeps the release floors of its last :data:`FLOOR_MEMORY` thinkings.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.protocol import State
from knockabout.core.rng import Rng

log = logging.getLogger("knockabout.table.table")  # where a failing bot has always been logged

FLOOR_MARGIN = 1.25
"""A move is released no sooner than this many times the longest recent thinking."""
MAX_FLOOR = 10.0
"""Seconds: the floor never grows past this (a longer search shows again)."""
FLOOR_MEMORY = 32
"""How many recent thinkings the floor remembers (a one-off stall ages out)."""


def choose_safely(bot: Bot, state: State, seat: int, rng: Rng) -> Action:
    """The bot's choice; a bot that fails or answers illegally never freezes a live
    table: the move becomes a random legal one (and the failure is logged)."""
    legal = state.legal_actions()
    try:
        action = bot.choose(SeatView(state, seat), legal, rng)
    except Exception:
        log.exception("the bot of seat %d failed; it plays a random legal action", seat)
        return legal[rng.below(len(legal))]
    if action not in legal:
        log.error("the bot of seat %d chose %r, which is not legal; it plays a random legal action", seat, action)
        return legal[rng.below(len(legal))]
    return action


PlanKey = tuple[int, int, int, float]  # version, seat, which bot, when the decision's clock started


class Thought:
    """A bot's move being worked out ahead of its release (see :meth:`Table.think`).

    :meth:`run` touches only a copy of the state, the bot and the table's bot generator,
    so it may run in another thread while the table goes on answering people; hand the
    result back with :meth:`Table.accept`."""

    def __init__(self, key: PlanKey, bot: Bot, state: State, seat: int, rng: Rng,
                 clock: Callable[[], float], opened: float) -> None:
        self.key = key
        self._bot = bot
        self._state = state
        self._seat = seat
        self._rng = rng
        self._clock = clock
        self._opened = opened
        self.action: Action | None = None
        self.ready_after = 0.0  # clock seconds from the decision's opening until the move was ready

    def run(self) -> None:
        self.action = choose_safely(self._bot, self._state, self._seat, self._rng)
        self.ready_after = max(0.0, self._clock() - self._opened)

    @property
    def floor(self) -> float:
        """The release floor this thinking calls for (see ``steady_bots``)."""
        return min(MAX_FLOOR, self.ready_after * FLOOR_MARGIN)
