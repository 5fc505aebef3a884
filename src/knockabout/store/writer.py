"""The store's writer thread: group commit, off the server's event loop.

Each :meth:`Writer.write` hands a list of operations (the store's declared writes, see
:func:`knockabout.store.store.run_ops`) to one thread. The thread takes *everything*
queued when it wakes — every write that arrived while the previous transaction was
committing, from any table — and commits it in one transaction (the actions of all
those writes in one INSERT, their clocks in one UPDATE), then answers each waiting
caller. So under load one disk sync covers many actions, and when idle a write costs one
commit with no added wait. A caller learns its write is durable (or what it raised) only
after the commit; the server confirms an action to anyone only then.

When a grouped transaction fails, its writes are retried one by one, each in its own
transaction, so that one refused write (a duplicate step, say) fails alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, InvalidStateError
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

_Job = tuple[list[Any], "Future[None]"]
Runner = Callable[[Session, Sequence[Any]], None]
"""Runs a transaction's operations in a session (the store's ``run_ops``)."""

MAX_GROUP = 500
"""At most this many writes share one transaction."""


class Writer:
    """One thread committing the writes queued for ``engine``, grouped."""

    def __init__(self, engine: Engine, run: Runner) -> None:
        self.engine = engine
        self._run_ops = run
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.commits = 0  # transactions committed (for tests and the load benchmark)
        self.writes = 0  # writes made durable
        self._thread = threading.Thread(target=self._run, name="knockabout-store-writer", daemon=True)
        self._thread.start()

    def submit(self, ops: list[Any]) -> Future[None]:
        """Queue ``ops`` (one write: all or none of them); the future is done once durable."""
        done: Future[None] = Future()
        self._queue.put((ops, done))
        return done

    async def write(self, ops: list[Any]) -> None:
        """:meth:`submit`, awaited without blocking the event loop."""
        await asyncio.wrap_future(self.submit(ops))

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        stop = False
        while not stop:
            first = self._queue.get()
            if first is None:
                return
            group = [first]
            while len(group) < MAX_GROUP:
                try:
                    job = self._queue.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stop = True
                    break
                group.append(job)
            self._commit(group)

    def _commit(self, group: list[_Job]) -> None:
        try:
            self._transaction([op for ops, _ in group for op in ops])
        except Exception as exc:
            if len(group) > 1:  # find the write that failed: each alone, in order
                for job in group:
                    self._commit([job])
                return
            with contextlib.suppress(InvalidStateError):  # its caller stopped waiting
                group[0][1].set_exception(exc)
            return
        self.commits += 1
        self.writes += len(group)
        for _, done in group:
            with contextlib.suppress(InvalidStateError):  # durable all the same
                done.set_result(None)

    def _transaction(self, ops: list[Any]) -> None:
        with Session(self.engine) as s, s.begin():
            self._run_ops(s, ops)

