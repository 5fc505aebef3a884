"""One server on several processes (``knockabout serve --workers N``).

The process ``serve`` starts becomes the *front*: it listens on the server's address and
starts N worker processes, each a whole server (the app, its tables, its bots, its store
writer) for the tables of its shard (:mod:`.shards`). For every connection the front
accepts, it peeks at the request line without taking it off the socket (``MSG_PEEK``),
asks the :class:`~knockabout.server.shards.Router` for the worker, and passes the
connection itself to that worker over a Unix socket (``SCM_RIGHTS``). The worker's
uvicorn then reads the request from the start, as if it had accepted the connection
itself. After the hand-off the front never touches the connection again, so a game's
frames cost it nothing: a proxy would copy every frame through a third process.

A worker that ends (a crash, the OOM killer) is started again, and resumes its shard's
unfinished tables from the store exactly as a restarted server does; connections for it
wait in the front meanwhile. A worker that cannot start (it ends within
:data:`QUICK_END` seconds, :data:`QUICK_ENDS` times running) stops the server with a
message. A worker whose front is gone (``kill -9`` of the front) sees its end of the Unix
socket close and shuts down. Ctrl+C or SIGTERM to the front stops the workers gracefully.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import signal
import socket
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from multiprocessing.process import BaseProcess
from typing import Any, Final

import uvicorn

from knockabout.server.settings import ServerSettings
from knockabout.server.shards import Router

log = logging.getLogger("knockabout.front")

PEEK: Final = 8192
"""Bytes of a connection's start the front looks at for its request line."""
FIRST_LINE_WAIT: Final = 10.0
"""Seconds a new connection has to send its request line before the front closes it."""
WAITING_CAP: Final = 4096
"""Connections kept for a worker that is (re)starting; past that the oldest are closed."""
QUICK_END: Final = 10.0
QUICK_ENDS: Final = 3
STOP_WAIT: Final = 15.0
"""Seconds the front gives its workers to stop gracefully before it kills them."""
READY: Final = b"ready"
"""What a worker sends the front over its Unix socket once it serves."""


Spawn = Callable[[int, socket.socket], BaseProcess]
"""Starts worker ``index`` with its end of the Unix socket; returns its (started) process."""


@dataclass
class Worker:
    index: int
    process: BaseProcess | None = None
    control: socket.socket | None = None  # the front's end of the Unix socket to it
    waiting: deque[socket.socket] = field(default_factory=deque)  # connections not yet passed on
    started: float = 0.0
    quick_ends: int = 0


class Front:
    """The front process: accept, route, hand off, keep the workers running."""

    def __init__(self, listener: socket.socket, workers: int, spawn: Spawn,
                 on_ready: Callable[[], None] | None = None) -> None:
        self.listener = listener
        self.router = Router(workers)
        self.workers = [Worker(i) for i in range(workers)]
        self.spawn = spawn
        # called once, when every worker has said it serves (READY); serve prints its address then
        self.on_ready = on_ready
        self._ready: set[int] = set()
        self.failed: str | None = None  # why the server stopped, if a worker could not start
        self._stop = asyncio.Event()
        self._pending: dict[socket.socket, asyncio.TimerHandle] = {}  # accepted, request line not seen yet
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- running
    def run(self) -> int:
        """Serve until Ctrl+C or SIGTERM (0), or until a worker cannot start (1)."""
        asyncio.run(self.main())
        return 0 if self.failed is None else 1

    async def main(self) -> None:
        loop = self._loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):  # (not the main thread: tests)
                loop.add_signal_handler(sig, self.stop)
        for w in self.workers:
            self._start(w)
        self.listener.setblocking(False)
        self.listener.listen(2048)
        loop.add_reader(self.listener.fileno(), self._accept)
        try:
            await self._stop.wait()
        finally:
            await self._shut_down()

    def stop(self) -> None:
        self._stop.set()

    async def _shut_down(self) -> None:
        loop = asyncio.get_running_loop()
        loop.remove_reader(self.listener.fileno())
        self.listener.close()
        for conn, timer in list(self._pending.items()):
            timer.cancel()
            self._drop(conn)
        for w in self.workers:
            if w.process is not None:
                with contextlib.suppress(ValueError, OSError):
                    loop.remove_reader(w.process.sentinel)
            if w.control is not None:
                with contextlib.suppress(ValueError, OSError):
                    loop.remove_writer(w.control.fileno())
                    loop.remove_reader(w.control.fileno())
                w.control.close()  # the worker sees its socket close and shuts down gracefully
                w.control = None
            while w.waiting:
                w.waiting.popleft().close()
        await loop.run_in_executor(None, self._reap)

    def _reap(self) -> None:
        """Wait for the workers to stop; SIGTERM, then SIGKILL, those that take too long."""
        due = time.monotonic() + STOP_WAIT
        for w in self.workers:
            if w.process is not None:
                w.process.join(max(0.0, due - time.monotonic()))
        for w in self.workers:
            p = w.process
            if p is not None and p.is_alive():
                p.terminate()
                p.join(5.0)
                if p.is_alive():
                    p.kill()
                    p.join(5.0)

    # -- workers
    def _start(self, w: Worker) -> None:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            w.process = self.spawn(w.index, theirs)
        finally:
            theirs.close()
        mine.setblocking(False)
        w.control, w.started = mine, time.monotonic()
        loop = asyncio.get_running_loop()
        loop.add_reader(w.process.sentinel, self._ended, w)
        loop.add_reader(mine.fileno(), self._heard, w)
        self._flush(w)

    def _heard(self, w: Worker) -> None:
        """A message from a worker: READY once it serves (the first time every worker has
        said so, ``on_ready``). Its end closing is left to :meth:`_ended`."""
        if w.control is None:
            return
        try:
            msg = w.control.recv(16)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            msg = b""
        if not msg:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(w.control.fileno())
            return
        if msg == READY and w.index not in self._ready:
            self._ready.add(w.index)
            if len(self._ready) == len(self.workers) and self.on_ready is not None:
                self.on_ready()

    def _ended(self, w: Worker) -> None:
        loop = asyncio.get_running_loop()
        p = w.process
        assert p is not None
        loop.remove_reader(p.sentinel)
        # Not join(0): the sentinel closes a moment before the process can be reaped, and a
        # non-zero timeout makes the join wait for that moment (so the exit code is known).
        p.join(1.0)
        if w.control is not None:
            with contextlib.suppress(ValueError, OSError):
                loop.remove_writer(w.control.fileno())
            with contextlib.suppress(ValueError, OSError):
                loop.remove_reader(w.control.fileno())
            w.control.close()
            w.control = None
        if self._stop.is_set():
            return
        lived = time.monotonic() - w.started
        w.quick_ends = w.quick_ends + 1 if lived < QUICK_END else 0
        if w.quick_ends >= QUICK_ENDS:
            self.failed = (f"worker {w.index} could not start: it ended {QUICK_ENDS} times within {QUICK_END:.0f} s"
                           f" of starting (exit code {p.exitcode}); see its messages above")
            log.error(self.failed)
            self.stop()
            return
        log.warning("worker %d (pid %s) ended with exit code %s after %.0f s; starting it again",
                    w.index, p.pid, p.exitcode, lived)
        self._start(w)

    # -- connections
    def _accept(self) -> None:
        for _ in range(256):  # then let the loop breathe
            try:
                conn, peer = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:  # out of file descriptors, say: try again on the next wake
                log.warning("could not accept a connection: %s", exc)
                return
            conn.setblocking(False)
            address = peer[0] if isinstance(peer, tuple) else str(peer)
            loop = asyncio.get_running_loop()
            self._pending[conn] = loop.call_later(FIRST_LINE_WAIT, self._too_slow, conn)
            self._look(conn, address)

    def _look(self, conn: socket.socket, address: str) -> None:
        """Route ``conn`` once its request line is in; until then wait for more bytes."""
        try:
            head = conn.recv(PEEK, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            head = None
        except OSError:
            self._drop(conn)
            return
        loop = asyncio.get_running_loop()
        if head == b"":  # closed before it said anything
            self._drop(conn)
        elif head is not None and (b"\n" in head or len(head) >= PEEK):
            timer = self._pending.pop(conn, None)
            if timer is not None:
                timer.cancel()
            self._hand(self.workers[self.router.route(head, address)], conn)
        elif head is None:
            loop.add_reader(conn.fileno(), self._readable, conn, address)
        else:  # part of a line: the peeked bytes stay readable, so look again shortly
            loop.call_later(0.005, self._look_again, conn, address)

    def _readable(self, conn: socket.socket, address: str) -> None:
        asyncio.get_running_loop().remove_reader(conn.fileno())
        self._look(conn, address)

    def _look_again(self, conn: socket.socket, address: str) -> None:
        if conn in self._pending:
            self._look(conn, address)

    def _too_slow(self, conn: socket.socket) -> None:
        if conn in self._pending:
            self._drop(conn)

    def _drop(self, conn: socket.socket) -> None:
        timer = self._pending.pop(conn, None)
        if timer is not None:
            timer.cancel()
        if conn.fileno() >= 0:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(conn.fileno())
        conn.close()

    def _hand(self, w: Worker, conn: socket.socket) -> None:
        w.waiting.append(conn)
        if len(w.waiting) > WAITING_CAP:
            w.waiting.popleft().close()
        if len(w.waiting) == 1:
            self._flush(w)

    def _flush(self, w: Worker) -> None:
        """Pass the worker its waiting connections, as many as its socket takes now."""
        if w.control is None:
            return  # (re)starting: _start flushes
        loop = asyncio.get_running_loop()
        while w.waiting:
            conn = w.waiting[0]
            try:
                socket.send_fds(w.control, [b"c"], [conn.fileno()])
            except (BlockingIOError, InterruptedError):
                loop.add_writer(w.control.fileno(), self._writable, w)
                return
            except OSError:  # the worker is going; its end will be noticed and it restarted
                return
            w.waiting.popleft().close()  # the worker holds its own copy now

    def _writable(self, w: Worker) -> None:
        if w.control is not None:
            asyncio.get_running_loop().remove_writer(w.control.fileno())
        self._flush(w)


class ShardServer(uvicorn.Server):
    """A worker's uvicorn: it listens on nothing and serves the connections the front
    passes it over ``control``; it stops when the front closes that socket."""

    def __init__(self, config: uvicorn.Config, control: socket.socket) -> None:
        super().__init__(config)
        self.control = control
        self._factory: Callable[[], asyncio.Protocol] | None = None
        self._handoffs: set[asyncio.Task[Any]] = set()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await self.lifespan.startup()
        if self.lifespan.should_exit:
            sys.exit(3)  # uvicorn's STARTUP_FAILURE
        config = self.config

        def create_protocol(_loop: asyncio.AbstractEventLoop | None = None) -> asyncio.Protocol:
            protocol: asyncio.Protocol = config.http_protocol_class(  # type: ignore[call-arg]
                config=config, server_state=self.server_state, app_state=self.lifespan.state, _loop=_loop)
            return protocol

        self._factory = create_protocol
        self.servers = []
        self.control.setblocking(False)
        asyncio.get_running_loop().add_reader(self.control.fileno(), self._take)
        self.started = True
        with contextlib.suppress(OSError):  # (a front that is gone: _take sees it and stops)
            self.control.send(READY)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """The front says when a worker stops (it closes the worker's socket). Ctrl+C in a
        terminal reaches every process of the group, so a worker ignores SIGINT (rather than
        stopping on its own, and raising it again after, as uvicorn does); SIGTERM stops it
        gracefully."""
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, self._terminate)
        yield

    def _terminate(self, _sig: int, _frame: Any) -> None:
        self.should_exit = True

    def _take(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._factory is not None
        while True:
            try:
                msg, fds, _flags, _addr = socket.recv_fds(self.control, 16, 8)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                msg, fds = b"", []
            if not msg and not fds:  # the front is gone: stop serving
                loop.remove_reader(self.control.fileno())
                self.should_exit = True
                return
            for fd in fds:
                conn = socket.socket(fileno=fd)
                conn.setblocking(False)
                task = loop.create_task(loop.connect_accepted_socket(self._factory, conn))
                self._handoffs.add(task)
                task.add_done_callback(self._handed)

    def _handed(self, task: asyncio.Task[Any]) -> None:
        self._handoffs.discard(task)
        if not task.cancelled() and task.exception() is not None:  # (the client left meanwhile)
            log.debug("a passed connection could not be served: %s", task.exception())

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(self.control.fileno())
        await super().shutdown(sockets)
        self.control.close()


def run_worker(index: int, workers: int, settings: ServerSettings, control: socket.socket,
               host: str, port: int, compress: bool) -> None:
    """A worker process's whole life (the target ``spawn`` starts)."""
    from knockabout.server.app import create_app
    from knockabout.server.protocol import server_config

    logging.basicConfig(level=logging.WARNING, format=f"worker {index}: %(message)s")
    mine = replace(settings, shard=index, shards=workers)
    ShardServer(server_config(create_app(mine), host, port, compress), control).run()


def spawner(workers: int, settings: ServerSettings, host: str, port: int, compress: bool) -> Spawn:
    """How ``serve`` starts its workers: fresh interpreters (``spawn``), each given its end
    of the Unix socket."""
    ctx = multiprocessing.get_context("spawn")

    def spawn(index: int, control: socket.socket) -> BaseProcess:
        p = ctx.Process(target=run_worker, name=f"knockabout-worker-{index}",
                        args=(index, workers, settings, control, host, port, compress))
        p.start()
        return p

    return spawn
