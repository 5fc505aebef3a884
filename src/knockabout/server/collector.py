"""When the server's Python collects cyclic garbage: full collections on a schedule.

CPython's cyclic collector stops the whole interpreter while it runs, and a full (oldest
generation) collection walks every tracked object. A server holding many tables holds
hundreds of thousands of them, and under load Python's own schedule ran such a
collection every few seconds, each a pause of hundreds of milliseconds: every move in
flight waited for it, and those pauses *were* the round trip's 99th percentile. The
garbage each one found was small: nearly all of the server's objects die by reference
counting, which the collector does not delay (docs/measurements.md).

So while a server runs, :class:`CollectorSchedule`:

* collects once and **freezes** what the server holds after starting (the imported
  modules, the app, the resumed tables: about half of a fresh server's objects), so no
  later collection walks them again (``gc.freeze``; they live as long as the server);
* leaves the young generations to Python's own thresholds (they walk only new objects:
  a few milliseconds);
* never lets Python start a full collection itself, and runs one every ``every`` seconds
  instead (``knockabout serve --full-gc-every``, default 3600), so the long pause comes
  once an hour rather than a few times a minute. Cyclic garbage in the oldest
  generation waits at most that long to be freed.

How rare is safe depends on how much cyclic garbage reaches the oldest generation, where
it waits for that collection. The cycles found there so far (uvicorn's HTTP objects and
websockets' protocol of each closed connection, which :mod:`.protocol` now breaks, and a
game's recursive inner functions, now module functions) are gone; what remains is
``jsonpatch``'s working lists, a few MB an hour (docs/measurements.md has the counts). The
pause itself is not shortened by collecting more often: nearly every object it walks
belongs to a live table, and the whole live set is renewed within minutes.

``every=0`` leaves Python's own schedule alone: the default of :class:`ServerSettings`
(tests start hundreds of servers in one process, where the first collection alone would
walk all of pytest's objects); ``knockabout serve`` turns the schedule on. Several servers
in one process share one schedule: the first to start applies it, the last to stop
restores Python's.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

from knockabout.server.background import cancel, repeat

log = logging.getLogger(__name__)

FULL_GC_EVERY = 3600.0
"""Default seconds between the server's full collections."""

NEVER = 2**31 - 1
"""A threshold the oldest generation's count never reaches: no full collection starts by itself."""

_active = 0  # servers in this process whose schedule is on
_saved: tuple[int, int, int] | None = None  # Python's thresholds before the first of them


class CollectorSchedule:
    """One server's garbage-collection schedule (see the module's text)."""

    def __init__(self, every: float) -> None:
        if every < 0:
            raise ValueError(f"seconds between full collections must be 0 (Python's schedule) or more, not {every}")
        self.every = every
        self.task: asyncio.Task[None] | None = None
        self.pauses: list[float] = []  # the last full collections' durations (seconds), newest last
        self._on = False

    def start(self) -> None:
        """Take over the full collections (call on the server's event loop, once it has started)."""
        global _active, _saved
        if self.every <= 0 or self._on:
            return
        self._on = True
        if _active == 0:
            _saved = gc.get_threshold()
            gc.collect()
            gc.freeze()
            young, middle, _ = _saved
            gc.set_threshold(young, middle, NEVER)
        _active += 1
        self.task = asyncio.get_running_loop().create_task(repeat(self.every, self.collect), name="knockabout-full-gc")

    def collect(self) -> int:
        """One full collection now; how many unreachable objects it found."""
        began = time.perf_counter()
        found = gc.collect()
        took = time.perf_counter() - began
        self.pauses = [*self.pauses[-9:], took]
        log.info("full garbage collection: %d unreachable objects, %.0f ms", found, 1000 * took)
        return found

    async def stop(self) -> None:
        """Hand the collections back to Python (the last server of the process to stop)."""
        global _active, _saved
        if not self._on:
            return
        self._on = False
        if self.task is not None:
            await cancel(self.task, quiet=False)
            self.task = None
        _active -= 1
        if _active == 0 and _saved is not None:
            gc.set_threshold(*_saved)
            gc.unfreeze()
            _saved = None
