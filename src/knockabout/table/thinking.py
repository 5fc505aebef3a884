"""A bot's move worked out ahead of its release (see :meth:`knockabout.table.Table.think`).

The table releases a bot's move at a time fixed when its decision opened; the thinking
happens before, on a copy of the state, so it may run in another thread while the table
goes on answering people, and how long it took shows nowhere. With ``steady_bots`` the
table also keeps the release floors of its last :data:`FLOOR_MEMORY` thinkings.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.protocol import State
from knockabout.core.registry import get_game
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
                 clock: Callable[[], float], opened: float, think_by: float | None = None,
                 level: str = "", counts_from: float | None = None) -> None:
        self.key = key
        self._bot = bot
        self._state = state
        self._seat = seat
        self._rng = rng
        self._clock = clock
        self._opened = opened
        # readiness counts from the decision's opening, or from ``counts_from`` when later:
        # a table resumed on another server keeps its pending decision's opening time for
        # its clock, and the time it spent moving is no thinking (learned as a floor, it
        # would hold every later bot move of that level back as long)
        self.counts_from = opened if counts_from is None else max(opened, counts_from)
        self.think_by = think_by  # clock time the search should be done by (None: no cap)
        self.level = level  # the bot's level name, which another process rebuilds it from
        self.action: Action | None = None
        self.ready_after = 0.0  # clock seconds from the decision's opening (see counts_from) until the move was ready

    @property
    def opened(self) -> float:
        """The clock time the decision this thinking is for opened."""
        return self._opened

    @property
    def game_id(self) -> str:
        return self._state.game.id

    @property
    def searches(self) -> bool:
        """Whether the bot searches (worth sending to another process; see :meth:`job`)."""
        return self._bot.searches

    def _seconds(self) -> float | None:
        return None if self.think_by is None else max(MIN_THINK, self.think_by - self._clock())

    def run(self) -> None:
        self.action = choose_safely(self._bot, self._state, self._seat, self._rng, self._seconds())
        self.ready_after = max(0.0, self._clock() - self.counts_from)

    def job(self) -> ThinkJob:
        """This thinking as plain data for another process (:func:`think_apart`): the
        bot's level, the state, the seat, the generator's state and the time allowed."""
        seconds = self._seconds()
        until = None if seconds is None else time.monotonic() + seconds  # (a queue's wait counts too)
        return ThinkJob(self._state.game.id, self.level, self._state.to_dict(), self._seat,
                        self._rng.state, until)

    def finish(self, answer: ThinkAnswer) -> None:
        """Take the answer :func:`think_apart` gave for :meth:`job`: the move, and the
        table's bot generator moved on as if the thinking had run here."""
        text, rng_state = answer
        self._rng.state = rng_state
        legal = self._state.legal_actions()
        chosen = next((a for a in legal if a.text == text), None)
        if chosen is None:  # (a process that lost its way; a random move, as for a failing bot)
            log.error("a bot process chose %r, which is not legal; a random legal action is played", text)
            chosen = legal[self._rng.below(len(legal))]
        self.action = chosen
        self.ready_after = max(0.0, self._clock() - self.counts_from)

    @property
    def floor(self) -> float:
        """The release floor this thinking calls for (see ``steady_bots``)."""
        return min(MAX_FLOOR, self.ready_after * FLOOR_MARGIN)


@dataclass(frozen=True)
class ThinkJob:
    """A :class:`Thought` as plain, picklable data (see :meth:`Thought.job`)."""

    game_id: str
    level: str
    state: dict[str, Any]
    seat: int
    rng_state: int
    until: float | None  # time.monotonic() the search must end by (the same clock in every process)


ThinkAnswer = tuple[str, int]
"""The move's text and the generator's state after the thinking."""

_BOTS: dict[tuple[str, str], Bot] = {}  # a worker process's bots, one per (level, game)


def think_apart(job: ThinkJob) -> ThinkAnswer:
    """Run a thinking in a worker process: the same choice :meth:`Thought.run` makes, from
    the same state and generator (a bot is rebuilt from its level once per process)."""
    bot = _bot(job.level, job.game_id)
    state = get_game(job.game_id).state_from_dict(job.state)
    rng = Rng()
    rng.state = job.rng_state
    seconds = None if job.until is None else max(MIN_THINK, job.until - time.monotonic())
    action = choose_safely(bot, state, job.seat, rng, seconds)
    return action.text, rng.state


def _bot(level: str, game_id: str) -> Bot:
    from knockabout.bots.levels import make_bot  # (the bots sit above this module's imports)

    bot = _BOTS.get((level, game_id))
    if bot is None:
        bot = _BOTS[(level, game_id)] = make_bot(level, game_id)
    return bot


def warm_up(level: str, game_id: str) -> int:
    """Make a worker process ready for this level and game (imports, the bot), so the
    first real thinking there does not pay for them; returns the process id."""
    _bot(level, game_id)
    return os.getpid()
