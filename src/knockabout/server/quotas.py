"""How much one address may ask of the server, and how full a table may get.

Per-address rate limits (the ``limits`` library's moving windows, in memory or in a
Redis that several hosts share) for
creating tables and for WebSocket messages, and the whole server's: new tables per
minute from every address together, and caps on its live tables and its live bot-only
tables (:class:`~knockabout.server.live.Manager` counts those); a cap on each table's
spectators. Every refusal says which limit it hit and how large it is: HTTP 429
``{"error": ...}``, or for a WebSocket an error message (a message over the rate changes
nothing) or a close with code 4429 and the reason. Only a table that would be made
counts against a creation rate: a request refused as invalid, or by a cap, does not.
"""

from __future__ import annotations

import logging
import time
from typing import Literal, Protocol

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from knockabout.core.errors import ConfigError, KnockaboutError
from knockabout.server.shards import share

log = logging.getLogger("knockabout.quotas")

TOO_MANY = 4429
"""The WebSocket close code for a refusal by a limit (4000 + HTTP's 429)."""


class LimitReached(KnockaboutError):
    """A request the server refuses because a limit is reached (HTTP 429)."""


def rate(text: str | None) -> RateLimitItem | None:
    """A rate such as ``30/minute`` or ``20 per second``; ``off`` or nothing: no limit."""
    if text is None or text.strip().lower() in ("", "off", "none"):
        return None
    try:
        return parse(text)
    except ValueError:
        raise ConfigError(f"{text!r} is not a rate: write e.g. 30/minute, 20/second or off") from None


def describe(item: RateLimitItem) -> str:
    """``30 per minute`` (not the library's ``30 per 1 minute``)."""
    unit = item.GRANULARITY.name
    return f"{item.amount} per {unit}" if item.multiples == 1 else f"{item.amount} per {item.multiples} {unit}s"


class Quotas:
    """The rate limits of one server: per address, and new tables on the whole server.

    ``storage``: a Redis URL, where the counts of every server given the same one are kept
    together (hosts behind a load balancer: an address's limit, and the whole
    deployment's, count its requests to every host), else this process's memory. A Redis
    that does not answer lets the request through (and says so in the log): a limit is
    not worth refusing everyone for."""

    def __init__(self, create_rate: str | None, message_rate: str | None, shards: int = 1,
                 server_create_rate: str | None = None, storage: str | None = None) -> None:
        self.create_rate = rate(create_rate)
        self.message_rate = rate(message_rate)
        self.server_create_rate = rate(server_create_rate)
        self.shared = bool(storage)
        # with serve --workers and no shared storage, an address's new tables alternate
        # over the workers (see .shards), so each worker allows its share of the rate and the
        # address the whole; the new tables of all addresses together are spread the same way
        parts = 1 if self.shared else shards
        self._create_share = _share(self.create_rate, parts)
        self._server_share = _share(self.server_create_rate, parts)
        self._limiter: Limiter = RedisLimiter(storage) if storage else MemoryLimiter()

    async def check_create(self, address: str | None) -> None:
        """Count one new table from ``address`` (None: the server's own, e.g. a rematch, which
        counts only for the whole server); raises :class:`LimitReached`, counting nothing,
        when the address's rate or the server's is reached."""
        mine = self._create_share if address is not None else None
        if mine is not None and not await self._limiter.test(mine, "create", address or ""):
            assert self.create_rate is not None
            raise LimitReached(f"too many new tables from your address: at most {describe(self.create_rate)}; "
                               "try again later")
        everyone = self._server_share
        if everyone is not None and not await self._limiter.test(everyone, "server-create"):
            assert self.server_create_rate is not None
            raise LimitReached(f"too many new tables on this server just now: at most "
                               f"{describe(self.server_create_rate)} from everyone together; try again later")
        # (tested first, then counted: in one process nothing runs in between, and a refusal
        # counts nowhere; across hosts two may both pass a test at the limit, one table over)
        if mine is not None:
            await self._limiter.hit(mine, "create", address or "")
        if everyone is not None:
            await self._limiter.hit(everyone, "server-create")

    async def message_refusal(self, address: str) -> str | None:
        """Count one WebSocket message from ``address``: None if it may be read, else why not."""
        if self.message_rate is None or await self._limiter.hit(self.message_rate, "message", address):
            return None
        return f"too many messages from your address: at most {describe(self.message_rate)}; nothing changed"


class Limiter(Protocol):
    """Moving-window counts (the ``limits`` library's): ``test`` looks, ``hit`` counts one
    (False when that is past the limit, and then nothing is counted)."""

    async def test(self, item: RateLimitItem, *ids: str) -> bool: ...

    async def hit(self, item: RateLimitItem, *ids: str) -> bool: ...


class MemoryLimiter:
    """Counts in this process's memory."""

    def __init__(self) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    async def test(self, item: RateLimitItem, *ids: str) -> bool:
        return self._limiter.test(item, *ids)

    async def hit(self, item: RateLimitItem, *ids: str) -> bool:
        return self._limiter.hit(item, *ids)


class RedisLimiter:
    """Counts in Redis (the ``limits`` library's Redis storage, through the ``redis`` client),
    shared by every server given the same Redis. While Redis does not answer, ``fallback``
    counts instead, or with none every request goes through."""

    WARN_EVERY = 30.0  # seconds between two log lines about a Redis that does not answer

    def __init__(self, url: str, fallback: Limiter | None = None) -> None:
        try:
            import redis.asyncio  # noqa: F401 - (the storage's client)
            from limits.aio.storage import RedisStorage
            from limits.aio.strategies import MovingWindowRateLimiter as SharedLimiter
        except ImportError:
            raise ConfigError("--redis needs the redis client: pip install 'knockabout[multihost]'") from None
        if not url.startswith(("redis://", "rediss://", "unix://")):
            raise ConfigError(f"{url!r} is not a Redis URL (e.g. redis://127.0.0.1:6379/0)")
        storage = RedisStorage(f"async+{url}", implementation="redispy", key_prefix="knockabout-limits")
        self._limiter = SharedLimiter(storage)
        self._fallback = fallback
        self._warned = -self.WARN_EVERY

    async def test(self, item: RateLimitItem, *ids: str) -> bool:
        return await self._count("test", item, ids)

    async def hit(self, item: RateLimitItem, *ids: str) -> bool:
        return await self._count("hit", item, ids)

    async def _count(self, how: Literal["test", "hit"], item: RateLimitItem, ids: tuple[str, ...]) -> bool:
        """``test`` or ``hit`` in Redis; while it does not answer, in the fallback (or let through)."""
        try:
            return bool(await getattr(self._limiter, how)(item, *ids))
        except Exception as exc:
            self._warn(exc)
            return True if self._fallback is None else bool(await getattr(self._fallback, how)(item, *ids))

    def _warn(self, exc: Exception) -> None:
        now = time.monotonic()
        if now - self._warned >= self.WARN_EVERY:
            self._warned = now
            meanwhile = "requests go through unlimited" if self._fallback is None else "this process counts alone"
            log.warning("the rate limits' Redis does not answer (%s): %s meanwhile", exc, meanwhile)


def _share(item: RateLimitItem | None, shards: int) -> RateLimitItem | None:
    """One worker's part of a rate shared by ``shards`` workers (see :func:`.shards.share`)."""
    if item is None or shards <= 1:
        return item
    return type(item)(share(item.amount, shards), item.multiples, item.namespace)


class LoginLimits:
    """How often one address may try to log in or sign up, and how often anyone may try to
    log in to one name. A name is limited whether or not an account has it, with the same
    refusal, so the limit tells nothing about which names exist; changing the password or
    deleting the account (which ask for the password again) count against the same limits.

    ``storage``: a Redis URL, where every server given the same one counts together (an
    attacker spreading guesses at one name over the hosts gets the one limit, not one per
    host), else this process's memory. Unlike :class:`Quotas`, a Redis that does not answer
    does not let attempts through: meanwhile each process counts them in its own memory."""

    def __init__(self, address_rate: str | None, name_rate: str | None, signup_rate: str | None,
                 shards: int = 1, storage: str | None = None) -> None:
        # with serve --workers and no shared storage, requests that name no table go to the
        # workers in turn, so each worker allows its share of each rate; in Redis every
        # worker counts the whole together
        self.shared = bool(storage)
        parts = 1 if self.shared else shards
        self.address_rate = _share(rate(address_rate), parts)
        self.name_rate = _share(rate(name_rate), parts)
        self.signup_rate = _share(rate(signup_rate), parts)
        self._limiter: Limiter = RedisLimiter(storage, fallback=MemoryLimiter()) if storage else MemoryLimiter()

    async def check_login(self, address: str, name_key: str) -> None:
        """Count one attempt at a password from ``address`` for the name ``name_key``;
        :class:`LimitReached` (counting nothing) past either limit."""
        by_address = self.address_rate is not None and not await self._limiter.test(self.address_rate, "login",
                                                                                     address)
        by_name = self.name_rate is not None and not await self._limiter.test(self.name_rate, "login-name", name_key)
        if by_address or by_name:
            raise LimitReached("too many attempts to log in from your address or to this account; "
                               "wait a few minutes and try again")
        # (tested first, then counted, as in Quotas.check_create)
        if self.address_rate is not None:
            await self._limiter.hit(self.address_rate, "login", address)
        if self.name_rate is not None:
            await self._limiter.hit(self.name_rate, "login-name", name_key)

    async def check_signup(self, address: str) -> None:
        if self.signup_rate is not None and not await self._limiter.hit(self.signup_rate, "signup", address):
            raise LimitReached(f"too many new accounts from your address: at most {describe(self.signup_rate)}; "
                               "try again later")
