"""People at play first: what no player waits for this instant (bots' moves, timeouts,
people arriving at tables) starts at most a few per turn of the event loop.

A table's driver applies a bot's move when it is due (:meth:`LiveTable.drive`). Many
tables' bot moves fall due in the same instant whenever the bots' worker processes, which
run at a lower priority than the server (:data:`~knockabout.server.bot_pools.BOT_NICENESS`),
hand back a batch of thinkings at once, after the workers have waited for CPU. Each move
is a change that is stored and sent, and the event loop ran a whole burst of them in one
turn, during which no person's action was read: the round trips of everybody acting
meanwhile made the whole of a loaded server's p99 (docs/measurements.md).

:class:`TurnGate` lets at most ``per_turn`` such moves start in any one turn of the loop;
the others wait their turn, first come first served, while the loop goes on reading
people's messages between turns. A bot's move passes the gate twice: before it is made,
and again once it is durable, before it is sent. The second matters as much as the
first: the store's writer confirms a whole group of writes at once (every write of the
last few milliseconds, many of them when the writer waited for CPU), and those tables
then all sent their changes in the same turn. A bot's move is late by a few turns at most
(milliseconds, against its ``--pace`` of most of a second); a person's action waits
behind a few of them, and is itself never held at a gate.

Arrivals go through a gate of their own (:data:`ARRIVALS_PER_TURN`): a new table
(``POST /api/tables``) and a connection's first ``sync``. A crowd arriving at once (the
load test's people creating and joining their tables in the same second) otherwise held
the loop for long turns, and the actions of the people already playing waited behind
them. Someone arriving waits a little longer for the table; nobody at play feels it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Final

BOT_MOVES_PER_TURN: Final = 2
"""The moves no person is waiting to make that may start in one turn of the event loop
(a change's cost to the loop is mostly building what is sent)."""


ARRIVALS_PER_TURN: Final = 4
"""New tables and new connections that may start in one turn of the event loop (a
connection's first message is a whole view, a few times a change's work)."""


class TurnGate:
    """At most ``per_turn`` callers of :meth:`enter` go on in any one turn of the event
    loop; later ones wait, in the order they came, for a later turn.

    A turn of the loop runs the callbacks that were ready when it began; a callback
    scheduled meanwhile (``call_soon``) runs in the next one, after the loop has polled its
    sockets again. The gate counts who went through and is reset by such a callback, so
    every turn starts a fresh count and wakes the next waiters.
    """

    def __init__(self, per_turn: int = BOT_MOVES_PER_TURN) -> None:
        if per_turn < 1:
            raise ValueError(f"per_turn must be at least 1, not {per_turn}")
        self.per_turn = per_turn
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._passed = 0  # callers let through since the last reset
        self._reset_due = False
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop whose turns it counts

    @property
    def waiting(self) -> int:
        """How many callers wait for a turn now."""
        return len(self._waiting)

    async def enter(self) -> None:
        """Return in this turn of the loop if it has room (and nobody waits), else in a
        later one. A caller cancelled while it waits gives its place up."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # another loop (a test's next run): its turns start afresh
            self._loop, self._passed, self._reset_due = loop, 0, False
            self._waiting.clear()
        if not self._waiting and self._passed < self.per_turn:
            self._passed += 1
            self._reset_soon(loop)
            return
        turn: asyncio.Future[None] = loop.create_future()
        self._waiting.append(turn)
        self._reset_soon(loop)
        try:
            await turn
        except asyncio.CancelledError:
            if turn in self._waiting:  # (a turn given but not taken is simply lost)
                self._waiting.remove(turn)
            raise

    def _reset_soon(self, loop: asyncio.AbstractEventLoop) -> None:
        if not self._reset_due:
            self._reset_due = True
            loop.call_soon(self._next_turn, loop)

    def _next_turn(self, loop: asyncio.AbstractEventLoop) -> None:
        """A new turn: let the next ``per_turn`` waiters go (they run in the turn after
        this one, so they count against it), and come back next turn while any wait."""
        self._reset_due = False
        self._passed = 0
        while self._waiting and self._passed < self.per_turn:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                self._passed += 1
        if self._waiting or self._passed:
            self._reset_soon(loop)

