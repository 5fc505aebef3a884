"""How much one address may ask of the server, and how full a table may get.

Per-address rate limits (the ``limits`` library's moving windows, in memory) for
creating tables and for WebSocket messages, and the whole server's: new tables per
minute from every address together, and caps on its live tables and its live bot-only
tables (:class:`~knockabout.server.live.Manager` counts those); a cap on each table's
spectators. Every refusal says which limit it hit and how large it is: HTTP 429
``{"error": ...}``, or for a WebSocket an error message (a message over the rate changes
nothing) or a close with code 4429 and the reason. Only a table that would be made
counts against a creation rate: a request refused as invalid, or by a cap, does not.
"""

from __future__ import annotations

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from knockabout.core.errors import ConfigError, KnockaboutError
from knockabout.server.shards import share

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
    """The rate limits of one server: per address, and new tables on the whole server."""

    def __init__(self, create_rate: str | None, message_rate: str | None, shards: int = 1,
                 server_create_rate: str | None = None) -> None:
        self.create_rate = rate(create_rate)
        self.message_rate = rate(message_rate)
        self.server_create_rate = rate(server_create_rate)
        # with serve --workers, an address's new tables alternate over the workers (see
        # .shards), so each worker allows its share of the rate and the address the whole;
        # the new tables of all addresses together are spread over the workers the same way
        self._create_share = _share(self.create_rate, shards)
        self._server_share = _share(self.server_create_rate, shards)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def check_create(self, address: str | None) -> None:
        """Count one new table from ``address`` (None: the server's own, e.g. a rematch, which
        counts only for the whole server); raises :class:`LimitReached`, counting nothing,
        when the address's rate or the server's is reached."""
        mine = self._create_share if address is not None else None
        if mine is not None and not self._limiter.test(mine, "create", address or ""):
            assert self.create_rate is not None
            raise LimitReached(f"too many new tables from your address: at most {describe(self.create_rate)}; "
                               "try again later")
        everyone = self._server_share
        if everyone is not None and not self._limiter.test(everyone, "server-create"):
            assert self.server_create_rate is not None
            raise LimitReached(f"too many new tables on this server just now: at most "
                               f"{describe(self.server_create_rate)} from everyone together; try again later")
        # (tested first, then counted: nothing awaits in between, and a refusal counts nowhere)
        if mine is not None:
            self._limiter.hit(mine, "create", address or "")
        if everyone is not None:
            self._limiter.hit(everyone, "server-create")

    def message_refusal(self, address: str) -> str | None:
        """Count one WebSocket message from ``address``: None if it may be read, else why not."""
        if self.message_rate is None or self._limiter.hit(self.message_rate, "message", address):
            return None
        return f"too many messages from your address: at most {describe(self.message_rate)}; nothing changed"


def _share(item: RateLimitItem | None, shards: int) -> RateLimitItem | None:
    """One worker's part of a rate shared by ``shards`` workers (see :func:`.shards.share`)."""
    if item is None or shards <= 1:
        return item
    return type(item)(share(item.amount, shards), item.multiples, item.namespace)
