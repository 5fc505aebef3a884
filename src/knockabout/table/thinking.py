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
THINK_SHARE = 0.6
"""With ``steady_bots``, a search must end by this share of the time from the decision's
opening to the move's base release (``bot_pace``, or ``bot_delay`` in a timed window):
well before it, so the floor learned from capped searches (x 1.25) stays under the release
time and a search never shows, even on a cold server."""
MIN_THINK = 0.02
"""Seconds: the least time a capped search gets, however late its thinking starts."""


def choose_safely(bot: Bot, state: State, seat: int, rng: Rng, seconds: float | None = None) -> Action:
    """The bot's choice (within ``seconds`` of wall time, if given: see
    :meth:`Bot.choose_within`); a bot that fails or answers illegally never freezes a live
    table: the move becomes a random legal one (and the failure is logged)."""
    legal = state.legal_actions()
    try:
        view = SeatView(state, seat)
        action = bot.choose(view, legal, rng) if seconds is None else bot.choose_within(view, legal, rng, seconds)
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
                 clock: Callable[[], float], opened: float, think_by: float | None = None) -> None:
        self.key = key
        self._bot = bot
        self._state = state
        self._seat = seat
        self._rng = rng
        self._clock = clock
        self._opened = opened
        self.think_by = think_by  # clock time the search should be done by (None: no cap)
        self.action: Action | None = None
        self.ready_after = 0.0  # clock seconds from the decision's opening until the move was ready

    def run(self) -> None:
        seconds = None if self.think_by is None else max(MIN_THINK, self.think_by - self._clock())
        self.action = choose_safely(self._bot, self._state, self._seat, self._rng, seconds)
        self.ready_after = max(0.0, self._clock() - self._opened)

    @property
    def floor(self) -> float:
        """The release floor this thinking calls for (see ``steady_bots``)."""
        return min(MAX_FLOOR, self.ready_after * FLOOR_MARGIN)
