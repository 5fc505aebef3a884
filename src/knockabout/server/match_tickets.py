"""Where quick match keeps its tickets (:mod:`.quickmatch`): this process's memory, or a
Redis the hosts share (``serve --redis``), so that a person waiting on one host is paired
with a person waiting on another, and asks after their ticket on any host.

A store holds every ticket, waiting or seated, and says who may pair the queues now
(:meth:`TicketStore.matching`): in memory always this server; in Redis the one host that
holds a short lock, so no two hosts seat the same ticket. Ticket times are then the
wall clock's (the hosts' monotonic clocks have nothing in common).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from knockabout.core.errors import ConfigError

if TYPE_CHECKING:
    from knockabout.server.quickmatch import Ticket

PREFIX = "knockabout:quickmatch:"
LOCK_MS = 5000
"""How long a host holds the right to pair the queues (it lets go after each round; a
host that dies holding it is replaced this long after)."""


class TicketStore(Protocol):
    """The quick-match tickets of a server, or of every host sharing the store."""

    shared: bool  # whether other hosts see these tickets (times are then the wall clock's)

    async def add(self, ticket: Ticket) -> None: ...

    async def get(self, ticket_id: str) -> Ticket | None: ...

    async def put(self, ticket: Ticket) -> None: ...

    async def remove(self, ticket_id: str) -> None: ...

    async def all(self) -> list[Ticket]: ...

    def matching(self) -> contextlib.AbstractAsyncContextManager[bool]:
        """While it is open: whether this server may pair the queues now."""
        ...

    async def close(self) -> None: ...


class MemoryTickets:
    """The tickets in this process's memory (a server alone)."""

    shared = False

    def __init__(self) -> None:
        self.tickets: dict[str, Ticket] = {}

    async def add(self, ticket: Ticket) -> None:
        self.tickets[ticket.id] = ticket

    async def get(self, ticket_id: str) -> Ticket | None:
        return self.tickets.get(ticket_id)

    async def put(self, ticket: Ticket) -> None:
        self.tickets[ticket.id] = ticket

    async def remove(self, ticket_id: str) -> None:
        self.tickets.pop(ticket_id, None)

    async def all(self) -> list[Ticket]:
        return list(self.tickets.values())

    @contextlib.asynccontextmanager
    async def matching(self) -> AsyncIterator[bool]:
        yield True

    async def close(self) -> None:
        pass


class RedisTickets:
    """The tickets in a Redis hash shared by the hosts; the right to pair them is a lock
    key with an expiry (``SET NX PX``)."""

    shared = True

    def __init__(self, url: str, holder: str) -> None:
        try:
            from redis.asyncio import Redis
        except ImportError:
            raise ConfigError("--redis needs the redis client: pip install 'knockabout[multihost]'") from None
        self.client: Any = Redis.from_url(url)
        self.holder = holder
        self.key = PREFIX + "tickets"
        self.lock = PREFIX + "matcher"

    async def add(self, ticket: Ticket) -> None:
        await self.put(ticket)

    async def get(self, ticket_id: str) -> Ticket | None:
        raw = await self.client.hget(self.key, ticket_id)
        return None if raw is None else _ticket(raw)

    async def put(self, ticket: Ticket) -> None:
        await self.client.hset(self.key, ticket.id, orjson.dumps(dataclasses.asdict(ticket)))

    async def remove(self, ticket_id: str) -> None:
        await self.client.hdel(self.key, ticket_id)

    async def all(self) -> list[Ticket]:
        return [_ticket(raw) for raw in (await self.client.hgetall(self.key)).values()]

    @contextlib.asynccontextmanager
    async def matching(self) -> AsyncIterator[bool]:
        mine = bool(await self.client.set(self.lock, self.holder, nx=True, px=LOCK_MS))
        try:
            yield mine
        finally:
            if mine:
                with contextlib.suppress(Exception):
                    if (await self.client.get(self.lock) or b"").decode() == self.holder:
                        await self.client.delete(self.lock)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.client.aclose()


def _ticket(raw: bytes) -> Ticket:
    from knockabout.server.quickmatch import Ticket

    return Ticket(**orjson.loads(raw))


def ticket_store(redis_url: str | None, holder: str) -> TicketStore:
    """Memory for a server alone, else the Redis the hosts share."""
    return MemoryTickets() if not redis_url else RedisTickets(redis_url, holder)
