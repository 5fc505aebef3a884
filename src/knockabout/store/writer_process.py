"""The store's writer in a process of its own: group commit without the server's
interpreter lock.

The writer thread (:mod:`.writer`) needs the interpreter lock to wake, and again after
each statement the driver runs without it; in a server whose event loop keeps the lock
busy, it waited for it far longer than it ran (docs/measurements.md). Here the writes go
to a process that does nothing else, so it waits only for a core and the disk.

How it works:

- :meth:`ProcessWriter.write` (on the event loop) sends the write's declared operations
  (:data:`knockabout.store.store.Write`: plain records, which pickle) down a pipe: at
  once when the process is idle, else at the end of this turn of the loop, with every
  other write of the turn in the same message (the process is busy committing anyway).
- The process (:func:`serve_writes`) takes every message waiting in its pipe when it
  wakes and commits them all in one transaction, as the thread does (the same
  :func:`~knockabout.store.writer.commit_group`: a failed group is retried write by
  write, so one refused write fails alone), then answers with one message: which writes
  failed and with what.
- The event loop reads answers when the pipe becomes readable (``loop.add_reader``) and
  settles the waiting writes; a caller hears its write is durable only after the commit.

Function operations (any function of a session) cannot be sent to another process: a
store that must run them uses the thread. A writer process that ends unasked (killed,
out of memory) fails the writes it had not answered with :class:`WriterGone` (they may or
may not be durable, as with any failed commit) and the store starts a new one for the
next write. The process ends with the server: on Linux the kernel kills it when the
server's process dies (so a crashed server's writer commits nothing after the crash and
cannot race a restarted server), and everywhere it ends when its pipe closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import itertools
import logging
import os
import pickle
import signal
import socket
import subprocess
import sys
from multiprocessing.connection import Connection
from typing import Any

from sqlalchemy.engine import URL
from sqlalchemy.orm import Session

from knockabout.store.loop_pipe import LoopPipe
from knockabout.store.store import PlainWrites, StoreError, open_engine, run_ops
from knockabout.store.writer import MAX_GROUP, commit_group

log = logging.getLogger("knockabout.store")

CLOSE_SECONDS = 30.0
"""How long :meth:`ProcessWriter.close` waits for the process to commit what is queued."""

_Answer = tuple[list[tuple[int, Exception]], list[int], int, int]
"""What the process sends back after a transaction: the failed writes (id, exception), the
ids of the durable ones, and its counts of transactions and of quick transactions."""


class WriterGone(StoreError):
    """The store's writer process ended before it answered a write."""


class ProcessWriter:
    """One process committing the store's declared writes, grouped; fed by one event loop."""

    def __init__(self, url: URL, kinds: tuple[type, ...]) -> None:
        self.kinds = kinds
        ours, theirs = socket.socketpair()
        # its own interpreter running this module alone: no fork of a server with threads,
        # and none of the server's imports to repeat (multiprocessing's spawn would import
        # the server's main module again)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        with theirs:
            self._process = subprocess.Popen(
                [sys.executable, "-m", __name__, str(theirs.fileno()), str(os.getpid())],
                pass_fds=[theirs.fileno()], env=env, stdin=subprocess.DEVNULL)
        self._pipe = LoopPipe(Connection(ours.detach()), self._take, self._gone)
        self._pipe.send(url)  # its first message: the database (never on a command line)
        self._ids = itertools.count()
        self._waiting: dict[int, asyncio.Future[None]] = {}
        self._outbox: list[tuple[int, list[Any]]] = []
        self.broken: str | None = None  # why the process is gone, once it is
        self.closed = False
        self.commits = 0  # transactions committed (for tests and the load benchmark)
        self.writes = 0  # writes made durable
        self.quick = 0  # transactions committed the quick way (PlainWrites)

    @staticmethod
    def usable() -> bool:
        """Whether this process can feed a writer process: on a Unix system (the pipe is
        handed over as a descriptor), from a running event loop."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return os.name == "posix"

    @property
    def pid(self) -> int:
        return self._process.pid

    async def write(self, ops: list[Any]) -> None:
        """Queue ``ops`` (one write: all or none of them); returns once durable, raises what
        the transaction raised."""
        for op in ops:
            if not isinstance(op, self.kinds):
                raise TypeError(f"the store's writer process takes declared writes only, not {op!r} "
                                "(a store that runs functions of a session uses writer='thread')")
        if self.closed:
            raise WriterGone("the store is closed")
        if self.broken is not None:
            raise WriterGone(self.broken)
        loop = asyncio.get_running_loop()
        if self._pipe.loop is None:
            self._pipe.attach(loop)
        elif self._pipe.loop is not loop:
            raise RuntimeError("a store's writer process serves one event loop")
        done: asyncio.Future[None] = loop.create_future()
        job = next(self._ids)
        self._waiting[job] = done
        self._outbox.append((job, ops))
        if len(self._outbox) == 1:
            if len(self._waiting) == 1:  # nothing else unanswered: the process is idle, so at once
                self._flush()
            else:  # it is committing: what comes meanwhile in this turn of the loop goes as one message
                loop.call_soon(self._flush)
        await done

    def _flush(self) -> None:
        batch, self._outbox = self._outbox, []
        if not batch or self.broken is not None or self.closed:
            return
        try:
            self._pipe.send(batch)
        except Exception:  # a write holding something that does not pickle: it alone fails
            for job, ops in batch:
                try:
                    self._pipe.send([(job, ops)])
                except Exception as exc:
                    self._settle(job, exc)

    def _take(self, answer: _Answer) -> None:
        failed, durable, commits, quick = answer
        self.commits, self.quick = commits, quick
        self.writes += len(durable)
        waiting = self._waiting
        for job in durable:
            done = waiting.pop(job, None)
            if done is not None and not done.done():  # (a cancelled wait: durable all the same)
                done.set_result(None)
        for job, exc in failed:
            self._settle(job, exc)

    def _settle(self, job: int, exc: Exception) -> None:
        done = self._waiting.pop(job, None)
        if done is not None and not done.done():
            done.set_exception(exc)

    def _gone(self, how: str) -> None:
        """The pipe closed or failed while the server was using it: the process is gone."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(1)
        code = self._process.returncode
        self._break(f"the store's writer process (pid {self.pid}) ended"
                    + ("" if code is None else f" with exit code {code}") + f" ({how})")

    def _break(self, why: str) -> None:
        """Fail every write the process had not answered."""
        if self.broken is not None or self.closed:
            return
        self.broken = why
        log.error("%s; %d unanswered writes failed, and a new writer process takes the next", why,
                  len(self._waiting))
        self._outbox.clear()
        for job in list(self._waiting):
            self._settle(job, WriterGone(f"{why}, before this write was known to be durable"))

    def close(self) -> None:
        """Commit what is queued, answer it, and end the process. Call it from the event
        loop's thread (or once that loop has stopped)."""
        if self.closed:
            return
        if self.broken is None and (self._waiting or self._outbox):
            self._flush()
            self._pipe.detach()
            with contextlib.suppress(OSError):
                self._pipe.send(None)
            for answer in self._pipe.read_until_closed(CLOSE_SECONDS):
                self._take(answer)
        self.closed = True
        for job in list(self._waiting):
            self._settle(job, WriterGone("the store closed before this write was known to be durable"))
        self._pipe.close()
        # every write it was given is answered: nothing is lost if it is ended now (it may
        # still be starting, which a short-lived store should not wait for)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(0.05)
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait(5)


def _die_with(parent: int) -> None:
    """Ask the kernel to kill this process when the process that started it dies (Linux)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it died before that was asked
        os._exit(0)


def serve_writes(conn: Connection, parent: int) -> None:
    """The writer process's life: the database's URL first, then every write waiting in
    ``conn`` committed in one transaction and answered, until the store closes (a
    ``None``) or its end of the pipe is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's: it closes the store
    _die_with(parent)
    try:
        url: URL = conn.recv()
    except (EOFError, OSError):
        return
    engine = open_engine(url)
    plain = PlainWrites(engine)

    def transaction(ops: list[Any]) -> None:
        if plain.run(ops):
            return
        with Session(engine) as s, s.begin():
            run_ops(s, ops)

    commits = 0
    stop = False
    try:
        while not stop:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                return  # the server is gone: nothing more is committed
            if message is None:
                break
            group: list[tuple[int, list[Any]]] = list(message)
            while len(group) < MAX_GROUP and conn.poll(0):
                try:
                    more = conn.recv()
                except (EOFError, OSError):
                    return  # the server is gone mid-message: nothing more is committed
                if more is None:
                    stop = True
                    break
                group.extend(more)
            failures: list[tuple[int, Exception]] = []
            durable: list[int] = []
            for at in range(0, len(group), MAX_GROUP):  # (one message may hold more)
                part = group[at:at + MAX_GROUP]
                failed, made = commit_group(transaction, [ops for _, ops in part])
                commits += made
                failures += [(part[i][0], _sendable(exc)) for i, exc in failed.items()]
                durable += [job for i, (job, _) in enumerate(part) if i not in failed]
            answer: _Answer = (failures, durable, commits, plain.transactions)
            try:
                conn.send(answer)
            except (EOFError, OSError):
                return
    finally:
        plain.close()
        engine.dispose()
        with contextlib.suppress(Exception):
            conn.close()


def _sendable(exc: Exception) -> Exception:
    """``exc`` if it pickles, else a :class:`StoreError` carrying its message."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return StoreError(f"{type(exc).__name__}: {exc}")
    return exc


if __name__ == "__main__":  # python -m knockabout.store.writer_process FD PARENT (see ProcessWriter)
    serve_writes(Connection(int(sys.argv[1])), int(sys.argv[2]))
