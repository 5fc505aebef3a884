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
transaction, so that one refused write (a duplicate step, say) fails alone; when it fails
its fence (:mod:`.fence`), the writes behind the leases that moved on fail with
:class:`~.fence.LeaseLost` and the others are committed together again.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, InvalidStateError
from typing import Any, Protocol

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from knockabout.store.fence import Fenced, lease_lost, touches

_Job = tuple[list[Any], "Future[None] | asyncio.Future[None]"]
Runner = Callable[[Session, Sequence[Any]], None]
"""Runs a transaction's operations in a session (the store's ``run_ops``)."""


class PlainRunner(Protocol):
    """A quicker way for some transactions (the store's ``PlainWrites``): ``run`` commits
    the operations and returns True, or writes nothing and returns False (the session way
    then runs them); ``close`` lets its connection go."""

    transactions: int  # committed this way

    def run(self, ops: Sequence[Any]) -> bool: ...

    def close(self) -> None: ...

MAX_GROUP = 500
"""At most this many writes share one transaction."""


class Writer:
    """One thread committing the writes queued for ``engine``, grouped."""

    def __init__(self, engine: Engine, run: Runner, plain: PlainRunner | None = None) -> None:
        self.engine = engine
        self._run_ops = run
        self.plain = plain
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.commits = 0  # transactions committed (for tests and the load benchmark)
        self.writes = 0  # writes made durable
        self._thread = threading.Thread(target=self._run, name="knockabout-store-writer", daemon=True)
        self._thread.start()

    @property
    def quick(self) -> int:
        """Transactions committed the quick way (``plain``)."""
        return 0 if self.plain is None else self.plain.transactions

    def submit(self, ops: list[Any]) -> Future[None]:
        """Queue ``ops`` (one write: all or none of them); the future is done once durable."""
        done: Future[None] = Future()
        self._queue.put((ops, done))
        return done

    async def write(self, ops: list[Any]) -> None:
        """:meth:`submit`, awaited without blocking the event loop. The writer answers an
        event loop's writes of one transaction with one wake-up of that loop (not a thread
        future and a callback chain per write)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put((ops, done))
        await done

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        try:
            self._serve()
        finally:
            if self.plain is not None:
                self.plain.close()  # (on this thread, which used it)

    def _serve(self) -> None:
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
        failed, commits = commit_group(self._transaction, [ops for ops, _ in group])
        self.commits += commits
        self.writes += len(group) - len(failed)
        if not failed:
            _answer([done for _, done in group], None)
            return
        for i, (_, done) in enumerate(group):
            _answer([done], failed.get(i))

    def _transaction(self, ops: list[Any]) -> None:
        if self.plain is not None and self.plain.run(ops):
            return
        with Session(self.engine) as s, s.begin():
            self._run_ops(s, ops)


def commit_group(transaction: Callable[[list[Any]], None],
                 group: Sequence[list[Any]]) -> tuple[dict[int, Exception], int]:
    """Commit the writes of ``group`` (each a list of operations) in one ``transaction``;
    if it fails, each write alone, in order, so that one refused write fails alone.
    Returns what each failed write raised (by its index in ``group``) and the number of
    transactions committed."""
    try:
        transaction([op for ops in group for op in ops])
    except Fenced as fenced:  # writes behind a lease that moved on fail alone; the rest go again
        lost = {i: _lost(ops, fenced) for i, ops in enumerate(group) if touches(ops, fenced.pairs)}
        rest = [i for i in range(len(group)) if i not in lost]
        if not lost:  # (cannot happen: a fence fails on the writes' own leases)
            rest = []
            lost = {i: _lost(ops, fenced) for i, ops in enumerate(group)}
        more, commits = commit_group(transaction, [group[i] for i in rest]) if rest else ({}, 0)
        lost.update({rest[j]: exc for j, exc in more.items()})
        return lost, commits
    except Exception as exc:
        if len(group) == 1:
            return {0: exc}, 0
        failed: dict[int, Exception] = {}
        commits = 0
        for i, ops in enumerate(group):
            one_failed, one_commits = commit_group(transaction, [ops])
            commits += one_commits
            if one_failed:
                failed[i] = one_failed[0]
        return failed, commits
    return {}, 1


def _lost(ops: Sequence[Any], fenced: Fenced) -> Exception:
    """What a write behind a lease that moved on raises: :class:`~.fence.LeaseLost`."""
    for op in ops:
        pair = (getattr(op, "table_id", None), getattr(op, "lease", None))
        if pair in fenced.pairs:
            return lease_lost(str(pair[0]), int(pair[1] or 0))
    return lease_lost("?", 0)


def _answer(waiting: list[Future[None] | asyncio.Future[None]], exc: Exception | None) -> None:
    """Tell the writes' callers (from the writer thread): thread futures at once, each
    event loop's futures in one call on that loop."""
    loops: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
    for done in waiting:
        if isinstance(done, asyncio.Future):
            loops.setdefault(done.get_loop(), []).append(done)
        else:
            with contextlib.suppress(InvalidStateError):  # its caller stopped waiting: durable all the same
                if exc is None:
                    done.set_result(None)
                else:
                    done.set_exception(exc)
    for loop, futures in loops.items():
        with contextlib.suppress(RuntimeError):  # that loop has closed: nobody waits any more
            loop.call_soon_threadsafe(_settle, futures, exc)


def _settle(futures: list[asyncio.Future[None]], exc: Exception | None) -> None:
    for f in futures:
        if f.done():  # a cancelled wait (the write is durable all the same)
            continue
        if exc is None:
            f.set_result(None)
        else:
            f.set_exception(exc)

