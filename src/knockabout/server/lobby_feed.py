"""The lobby's live updates: each listed table made, joined, started or finished is told
to every lobby page open on any server (``WS /ws/lobby``), which then reads the list
again (``GET /api/tables``).

A server gathers its notices over :data:`GATHER` seconds and tells them to the
deployment's bus (:mod:`.bus`: Redis when the hosts share one, else this process) as one
message; every server hears it and sends it on to the lobby pages connected to it,
gathered again into one message (a lobby page gets at most a few messages a second, and
the bus carries a few per host, whatever the number of tables). Unlisted tables are never
told.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

from knockabout.server.bus import Bus

CHANNEL = "lobby"
GATHER = 0.5
"""Seconds the notices of a lobby page's next message are gathered over."""
MAX_WATCHERS = 5000
"""Lobby pages one server keeps up to date at once."""


class Gathering:
    """Notices about tables gathered over :data:`GATHER` seconds from the first, the latest
    of each table only, then handed to ``send`` as one list."""

    def __init__(self, send: Callable[[list[dict[str, Any]]], None]) -> None:
        self._send = send
        self._notices: dict[str, dict[str, Any]] = {}  # table id -> its latest notice, not yet sent
        self._timer: asyncio.TimerHandle | None = None

    def add(self, notice: dict[str, Any]) -> None:
        self._notices[notice["id"]] = notice
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(GATHER, self._flush)

    def _flush(self) -> None:
        self._timer = None
        notices, self._notices = list(self._notices.values()), {}
        if notices:
            self._send(notices)

    def cancel(self) -> None:
        """Drop what is gathered (the feed is closing)."""
        if self._timer is not None:
            self._timer.cancel()


class LobbyFeed:
    """This server's lobby pages and the notices it tells the others."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.watchers: set[WebSocket] = set()
        self._outbox = Gathering(self._publish)  # this server's own notices, for the bus
        self._inbox = Gathering(self._send_on)  # the notices heard on the bus, for this server's lobby pages
        self._tasks: set[asyncio.Task[Any]] = set()
        bus.subscribe(CHANNEL, self._heard)

    def tell(self, table_id: str, game: str, status: str, what: str) -> None:
        """Tell every server's lobby pages that a listed table changed (``what``: made,
        joined, started, finished). The notices of :data:`GATHER` seconds go as one message
        (at 100,000 tables, hundreds of changes a second would otherwise be as many messages
        to every host)."""
        self._outbox.add({"id": table_id, "game": game, "status": status, "what": what})

    def _publish(self, notices: list[dict[str, Any]]) -> None:
        self._spawn(self.bus.publish(CHANNEL, {"changed": notices}))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _heard(self, message: dict[str, Any]) -> None:
        changed = message.get("changed")
        if not self.watchers or not isinstance(changed, list):
            return
        for notice in changed:
            if isinstance(notice, dict) and isinstance(notice.get("id"), str):
                self._inbox.add(notice)

    def _send_on(self, changed: list[dict[str, Any]]) -> None:
        self._spawn(self._send_all({"type": "tables", "changed": changed}))

    async def _send_all(self, message: dict[str, Any]) -> None:
        from knockabout.server.frames import frame_text

        text = frame_text(message)
        for ws in list(self.watchers):
            with contextlib.suppress(Exception):  # a page that left: its own loop drops it
                await ws.send_text(text)

    def full(self) -> bool:
        return len(self.watchers) >= MAX_WATCHERS

    async def close(self) -> None:
        self._inbox.cancel()
        self._outbox.cancel()
        for task in list(self._tasks):
            task.cancel()
