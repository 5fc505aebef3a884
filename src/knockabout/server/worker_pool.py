"""Worker processes that the server's event loop feeds itself, over one pipe each.

:class:`WorkerPool` does what a ``concurrent.futures.ProcessPoolExecutor`` does for the
bots (:mod:`.bot_pools`), without the two threads the executor keeps in the server: one
that pickles and writes the jobs, one that waits for and reads the answers. Both run
Python, so both take the interpreter lock from the event loop, and under load they held it
a noticeable share of the time (docs/measurements.md). Here the event
loop writes a job straight into an idle worker's pipe and reads the answer when the pipe
becomes readable, so a job costs the server its pickling and two system calls, and no
other thread wakes. The pipe is a :class:`~knockabout.store.loop_pipe.LoopPipe` (the store's
writer process uses it too): a job or an answer bigger than the pipe holds at once goes
in pieces as the pipe takes them, never blocking the loop and never failing half-sent.

It needs an event loop that can watch a pipe (``add_reader``: uvloop and every Unix
loop, not the proactor loop Windows uses by default). Jobs wait in one
first-come-first-served queue for the next idle worker. A worker that
dies (killed, out of memory) breaks the pool: its job and every queued one fail with
``BrokenProcessPool``, as the executor's would, and the owner starts a new pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any

from knockabout.store.loop_pipe import LoopPipe

log = logging.getLogger("knockabout.server")

JOIN_SECONDS = 5.0
"""How long :meth:`WorkerPool.close` waits for an ended worker to be gone."""


@dataclass
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    done: asyncio.Future[Any]


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    job: _Job | None = None
    pipe: LoopPipe | None = None  # its pipe on the event loop, from the first job on


class WorkerPool:
    """``size`` worker processes (started now, from ``context``), each running
    ``initializer(*initargs)`` first; jobs are submitted from one event loop."""

    def __init__(self, size: int, context: SpawnContext, initializer: Callable[..., None],
                 initargs: tuple[Any, ...] = ()) -> None:
        if size < 1:
            raise ValueError("a worker pool needs at least one process")
        self._workers: list[_Worker] = []
        self._waiting: deque[_Job] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.broken = False
        self.closed = False
        for _ in range(size):
            ours, theirs = context.Pipe(duplex=True)
            process = context.Process(target=serve_jobs, args=(theirs, initializer, initargs),
                                      name="knockabout-bot-worker", daemon=True)
            process.start()
            theirs.close()
            self._workers.append(_Worker(process, ours))

    @property
    def processes(self) -> dict[int, BaseProcess]:
        """The workers by process id."""
        return {w.process.pid: w.process for w in self._workers if w.process.pid is not None}

    def submit(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """Run ``fn(*args)`` (both picklable) in a worker; call from the event loop. The
        future holds what it returned, or what it raised."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        if self.closed or self.broken:
            done.set_exception(BrokenProcessPool("this worker pool is closed" if self.closed
                                                 else "a worker of this pool died"))
            return done
        if self._loop is None:
            self._loop = loop
        elif self._loop is not loop:
            raise RuntimeError("a worker pool serves one event loop")
        for w in self._workers:
            if w.pipe is None:
                w.pipe = LoopPipe(w.conn, partial(self._answered, w), partial(self._gone, w))
                w.pipe.attach(loop)
        self._waiting.append(_Job(fn, args, done))
        self._dispatch()
        return done

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """:meth:`submit`, awaited."""
        return await self.submit(fn, *args)

    def _dispatch(self) -> None:
        for w in self._workers:
            if not self._waiting:
                return
            if w.job is not None:
                continue
            job = self._waiting.popleft()
            if job.done.cancelled():
                continue
            assert w.pipe is not None
            w.job = job  # (a pipe that fails while it is sent breaks the pool, this job with it)
            try:
                w.pipe.send((job.fn, job.args))
            except Exception as exc:  # the job would not pickle: it alone fails
                w.job = None
                job.done.set_exception(exc)
                continue
            if self.broken:
                return

    def _gone(self, w: _Worker, why: str) -> None:
        code = w.process.exitcode
        self._break(f"a bot worker process (pid {w.process.pid}) ended"
                    + ("" if code is None else f" with exit code {code}") + f" ({why})")

    def _answered(self, w: _Worker, answer: tuple[bool, Any]) -> None:
        ok, value = answer
        job, w.job = w.job, None
        if job is not None and not job.done.done():
            if ok:
                job.done.set_result(value)
            else:
                job.done.set_exception(value)
        self._dispatch()

    def _break(self, why: str) -> None:
        """A worker died: fail its job and every waiting one, and stop the others."""
        if self.broken or self.closed:
            return
        self.broken = True
        log.error("%s; its pool starts again", why)
        failed = [w.job for w in self._workers if w.job is not None] + list(self._waiting)
        self._waiting.clear()
        for job in failed:
            if not job.done.done():
                job.done.set_exception(BrokenProcessPool(why))
        self.close()

    def close(self) -> None:
        """End the workers; their jobs and the waiting ones fail."""
        if self.closed:
            return
        self.closed = True
        for job in [w.job for w in self._workers if w.job is not None] + list(self._waiting):
            if not job.done.done():
                job.done.set_exception(BrokenProcessPool("this worker pool is closed"))
        self._waiting.clear()
        for w in self._workers:
            # a worker holds nothing worth keeping, and one deep in a search would read the
            # end of its pipe only when the search is over: it is ended at once, and what
            # was on its way to it is dropped
            if w.pipe is not None:
                w.pipe.close(flush=False)
            else:
                w.conn.close()
            with contextlib.suppress(Exception):
                w.process.kill()
        for w in self._workers:
            w.process.join(JOIN_SECONDS)


def serve_jobs(conn: Connection, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
    """A worker process's life: jobs from ``conn``, each answered with ``(True, result)`` or
    ``(False, exception)``, until the server closes its end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's to handle: it closes the pipes
    initializer(*initargs)
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, Any] = (True, fn(*args))
        except Exception as exc:
            answer = (False, exc)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as exc:  # an answer that does not pickle
            conn.send((False, RuntimeError(f"the answer could not be sent back: {exc!r}")))
