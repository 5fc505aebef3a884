"""How much one address may ask of the server, and how full a table may get.

Per-address rate limits (the ``limits`` library's moving windows, in memory) for
creating tables and for WebSocket messages, a cap on live anonymous bot-only tables and
a cap on each table's spectators. Every refusal says which limit it hit and how large it
is: HTTP 429 ``{"error": ...}``, or for a WebSocket an error message (a message over the
rate changes nothing) or a close with code 4429 and the reason.
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
    """The per-address rate limits of one server."""

    def __init__(self, create_rate: str | None, message_rate: str | None, shards: int = 1) -> None:
        self.create_rate = rate(create_rate)
        self.message_rate = rate(message_rate)
        # with serve --workers, an address's new tables alternate over the workers (see
        # .shards), so each worker allows its share of the rate and the address the whole
        self._create_share = self.create_rate
        if self.create_rate is not None and shards > 1:
            c = self.create_rate
            self._create_share = type(c)(share(c.amount, shards), c.multiples, c.namespace)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def check_create(self, address: str) -> None:
        """Count one table creation from ``address``; raises :class:`LimitReached` past the rate."""
        if (self.create_rate is not None and self._create_share is not None
                and not self._limiter.hit(self._create_share, "create", address)):
            raise LimitReached(f"too many new tables from your address: at most {describe(self.create_rate)}; "
                               "try again later")

    def message_refusal(self, address: str) -> str | None:
        """Count one WebSocket message from ``address``: None if it may be read, else why not."""
        if self.message_rate is None or self._limiter.hit(self.message_rate, "message", address):
            return None
        return f"too many messages from your address: at most {describe(self.message_rate)}; nothing changed"
