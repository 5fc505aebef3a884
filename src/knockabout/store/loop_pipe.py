"""One end of a ``multiprocessing`` pipe, fed and read by an event loop without blocking it.

An event loop that watches a pipe's descriptor puts it in non-blocking mode (uvloop does),
and ``Connection.send`` and ``recv`` are not written for that: a send the other process
has not made room for fails half-written (``EAGAIN``), and a message that has only partly
arrived fails to read. :class:`LoopPipe` writes each message whole in the end, keeping what
the pipe will not take yet and writing it when the pipe is writable (``loop.add_writer``),
and reads what has arrived into a buffer, handing over each message once all of it is
there. It uses ``multiprocessing``'s own framing (a 4-byte big-endian length, then the
pickle), so the other process keeps a plain ``Connection``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import select
import struct
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any

_LENGTH = struct.Struct("!i")
_LONG_LENGTH = struct.Struct("!Q")  # after a length of -1: a message of 2 GiB or more
READ_SIZE = 1 << 16


class LoopPipe:
    """``conn``'s messages handed to ``on_message`` on the loop given to :meth:`attach`;
    ``on_closed(why)`` once, when the other end is gone or the pipe fails."""

    def __init__(self, conn: Connection, on_message: Callable[[Any], None],
                 on_closed: Callable[[str], None]) -> None:
        self._conn = conn
        self._fd = conn.fileno()
        self._on_message = on_message
        self._on_closed = on_closed
        self._loop: asyncio.AbstractEventLoop | None = None
        self._out = bytearray()  # written, not yet taken by the pipe
        self._in = bytearray()  # read, not yet a whole message
        self.closed = False

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        return self._loop

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read (and write) on ``loop`` from now on."""
        self._loop = loop
        os.set_blocking(self._fd, False)
        loop.add_reader(self._fd, self._readable)

    def send(self, message: Any) -> None:
        """Queue ``message`` (pickled now: what does not pickle raises here, nothing sent)."""
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        frame = _frame(data)
        if self.closed:
            return
        if self._out or self._loop is None:
            self._out += frame
            if self._loop is None:
                self._write_blocking()
            return
        try:
            n = os.write(self._fd, frame)
        except BlockingIOError:
            n = 0
        except OSError as exc:
            self._close(f"the pipe could not be written: {exc}")
            return
        if n < len(frame):
            self._out += frame[n:]
            self._loop.add_writer(self._fd, self._writable)

    def _writable(self) -> None:
        try:
            n = os.write(self._fd, self._out)
        except BlockingIOError:
            return
        except OSError as exc:
            self._close(f"the pipe could not be written: {exc}")
            return
        del self._out[:n]
        if not self._out and self._loop is not None:
            self._loop.remove_writer(self._fd)

    def _readable(self) -> None:
        try:
            chunk = os.read(self._fd, READ_SIZE)
        except BlockingIOError:
            return
        except OSError as exc:
            self._close(f"the pipe could not be read: {exc}")
            return
        if not chunk:
            self._close("the other end closed it")
            return
        self._in += chunk
        for message in self._messages():
            self._on_message(message)

    def _messages(self) -> Iterator[Any]:
        buf = self._in
        while len(buf) >= _LENGTH.size:
            (size,) = _LENGTH.unpack_from(buf)
            start = _LENGTH.size
            if size == -1:
                if len(buf) < start + _LONG_LENGTH.size:
                    return
                (size,) = _LONG_LENGTH.unpack_from(buf, start)
                start += _LONG_LENGTH.size
            if len(buf) < start + size:
                return
            data = bytes(buf[start:start + size])
            del buf[:start + size]
            yield pickle.loads(data)

    def detach(self) -> None:
        """Stop watching on the loop and go back to blocking reads and writes (what was
        queued is written now)."""
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(Exception):
                loop.remove_reader(self._fd)
            with contextlib.suppress(Exception):
                loop.remove_writer(self._fd)
        if not self.closed:
            os.set_blocking(self._fd, True)
            self._write_blocking()

    def _write_blocking(self) -> None:
        try:
            while self._out:
                n = os.write(self._fd, self._out)
                del self._out[:n]
        except OSError as exc:
            self._close(f"the pipe could not be written: {exc}")

    def read_until_closed(self, timeout: float) -> Iterator[Any]:
        """After :meth:`detach`: every message until the other end closes the pipe, or no
        message has come for ``timeout`` seconds."""
        yield from self._messages()
        deadline = time.monotonic() + timeout
        while not self.closed:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._fd], [], [], left)[0]:
                return
            try:
                chunk = os.read(self._fd, READ_SIZE)
            except OSError:
                chunk = b""
            if not chunk:
                self.closed = True
                return
            self._in += chunk
            deadline = time.monotonic() + timeout
            yield from self._messages()

    def _close(self, why: str) -> None:
        if self.closed:
            return
        self.closed = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(Exception):
                loop.remove_reader(self._fd)
            with contextlib.suppress(Exception):
                loop.remove_writer(self._fd)
        self._out.clear()
        self._on_closed(why)

    def close(self, *, flush: bool = True) -> None:
        """Let the pipe go (without calling ``on_closed``), having written what is queued
        (``flush=False``: dropped, for another end that will not read it)."""
        if not flush:
            self._out.clear()
        if not self.closed:
            self.detach()
        self.closed = True
        self._conn.close()


def _frame(data: bytes) -> bytes:
    if len(data) > 0x7FFFFFFF:
        return _LENGTH.pack(-1) + _LONG_LENGTH.pack(len(data)) + data
    return _LENGTH.pack(len(data)) + data
