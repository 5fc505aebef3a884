"""Which server process holds which table, when one server runs on several
(``knockabout serve --workers N``; the processes themselves are :mod:`.front`).

A table lives in exactly one worker process, its *shard*: :func:`shard_of` its id. Every
request that names a table goes to that worker, so all of a table's state (its seats, its
connections, its clock, its driver) stays in one process, exactly as on a one-process
server; nothing is shared between workers but the store.

:class:`Router` reads a connection's request line (``GET /ws/tables/ID?… HTTP/1.1``) and
picks the worker:

* a path that names a table (``/ws/tables/ID``, ``/api/tables/ID…``, ``/t/ID``,
  ``/replay/ID``) or a studio test (``/api/studio/jobs/ID…``): ID's shard;
* a new table (``POST /api/tables``): the next worker *of that address* in turn, so one
  address's new tables alternate over the workers (each worker then allows its
  :func:`share` of ``--create-rate``, and the address the whole rate); the worker gives the
  table an id of its own shard (:func:`shard_id`);
* anything else (the lobby, the pages, scripts): the next worker in turn.

Workers answer HTTP with ``Connection: close`` (:class:`OneRequestPerConnection`), so no
kept-alive connection carries a second request that belongs to another worker.
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
from collections import OrderedDict
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

TABLE_PATH: Final = re.compile(rb"/(?:ws/tables|api/tables|t|replay|api/studio/jobs)/([A-Za-z0-9_-]+)(?:/|$)")
"""A request path that names a table, or a studio test (the id is the group; a test's id is
made in its worker's shard the way a table's is)."""

CREATE_PATH: Final = b"/api/tables"
REMEMBERED_ADDRESSES: Final = 65_536
"""Addresses whose next worker for a new table the router keeps (the least recent go first)."""


def shard_of(table_id: str, shards: int) -> int:
    """The worker (0 … shards-1) that holds ``table_id``: a hash of the id, the same in every
    process and every run (a restarted worker resumes exactly its own tables)."""
    if shards <= 1:
        return 0
    digest = hashlib.blake2b(table_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % shards


def shard_id(nbytes: int, shard: int, shards: int) -> str:
    """A new random table id (``nbytes`` random bytes, URL-safe) that :func:`shard_of` puts in
    ``shard``: drawn again until it does (``shards`` draws on average)."""
    while True:
        table_id = secrets.token_urlsafe(nbytes).replace("-", "x").replace("_", "y")
        if shard_of(table_id, shards) == shard:
            return table_id


def share(amount: int, shards: int) -> int:
    """One worker's part of a limit of ``amount`` shared by ``shards`` workers (rounded up, so
    a limit above zero stays above zero in every worker)."""
    return amount if shards <= 1 else math.ceil(amount / shards)


def table_in(target: bytes) -> str | None:
    """The table id a request target (path and query) names, or None."""
    found = TABLE_PATH.match(target.split(b"?", 1)[0])
    return None if found is None else found.group(1).decode()


class Router:
    """Picks the worker for a connection from its first request line (see the module)."""

    def __init__(self, shards: int) -> None:
        if shards < 1:
            raise ValueError("a server needs at least one worker")
        self.shards = shards
        self._turn = -1
        self._creates: OrderedDict[str, int] = OrderedDict()  # address -> its last new table's worker

    def route(self, head: bytes, address: str) -> int:
        """The worker for a connection whose first bytes are ``head`` (at least its request
        line, unless the client sent a longer one than the router looks at) from ``address``."""
        line = head.split(b"\n", 1)[0].rstrip(b"\r")
        parts = line.split(b" ")
        if len(parts) >= 2:
            method, target = parts[0], parts[1]
            table = table_in(target)
            if table is not None:
                return shard_of(table, self.shards)
            if method == b"POST" and target.split(b"?", 1)[0].rstrip(b"/") == CREATE_PATH:
                return self._next_create(address)
        self._turn = (self._turn + 1) % self.shards
        return self._turn

    def _next_create(self, address: str) -> int:
        last = self._creates.pop(address, None)
        worker = (shard_of(address, self.shards) if last is None else last + 1) % self.shards
        self._creates[address] = worker
        if len(self._creates) > REMEMBERED_ADDRESSES:
            self._creates.popitem(last=False)
        return worker


class OneRequestPerConnection:
    """ASGI middleware for a worker: every HTTP answer says ``Connection: close`` (uvicorn
    then closes the connection after it), so the front routes each request by its own
    line. WebSocket connections are one request already."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def closing(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"connection"]
                message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        await self.app(scope, receive, closing)
