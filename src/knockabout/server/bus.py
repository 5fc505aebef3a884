"""What the servers of one deployment tell each other: short messages on named channels
(the lobby's updates, a table asked for and let go). Over Redis pub/sub when the servers
are given one (``serve --redis URL``): every server subscribed to a channel hears what any
of them publishes, its own messages too. Without Redis, a server tells only itself
(:class:`Bus`, in memory), which is all a server alone needs.

Messages are hints, never the truth: the truth is in the store (a table's lease, the
lobby's list of tables). A message lost while Redis is away costs a moment (a hand-over
found at the next lease renewal, a lobby refreshed at the next change), nothing more; a
server whose Redis goes away keeps serving and tries again with a growing pause.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import orjson

from knockabout.core.errors import ConfigError
from knockabout.server.background import cancel

log = logging.getLogger("knockabout.bus")

Handler = Callable[[dict[str, Any]], None]
"""Called on the event loop with each message of a channel."""

PREFIX = "knockabout:"
"""Every channel's name in Redis starts with it."""


class Bus:
    """Channels inside one process (a server alone)."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[Handler]] = {}
        self.published = 0  # messages sent (for GET /api/host and tests)
        self.heard = 0  # messages received

    def subscribe(self, channel: str, handler: Handler) -> None:
        """Call ``handler`` with every message on ``channel`` (before :meth:`start`)."""
        self._handlers.setdefault(channel, []).append(handler)

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every subscriber of ``channel``."""
        self.published += 1
        self._deliver(channel, message)

    def _deliver(self, channel: str, message: dict[str, Any]) -> None:
        self.heard += 1
        for handler in self._handlers.get(channel, ()):
            try:
                handler(message)
            except Exception:  # one subscriber's failure is not the others'
                log.exception("a handler of channel %s failed", channel)

    async def start(self) -> None:
        """Start listening (nothing to do in memory)."""

    async def close(self) -> None:
        """Stop listening."""

    def info(self) -> dict[str, Any]:
        return {"kind": "memory", "published": self.published, "heard": self.heard}


class RedisBus(Bus):
    """Channels over Redis pub/sub (``redis://host:port/db``), shared by every server given
    the same Redis."""

    RETRY_FIRST = 0.2
    RETRY_MOST = 5.0

    def __init__(self, url: str) -> None:
        super().__init__()
        try:
            from redis.asyncio import Redis
        except ImportError:
            raise ConfigError("--redis needs the redis client: pip install 'knockabout[multihost]'") from None
        self.url = url
        self.client: Any = Redis.from_url(url)
        self._task: asyncio.Task[None] | None = None
        self.connected = False

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        try:
            await self.client.publish(PREFIX + channel, orjson.dumps(message))
            self.published += 1
        except Exception as exc:  # Redis away: the store still holds the truth
            log.warning("could not publish on %s: %s", channel, exc)

    async def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._listen(), name="bus-listener")

    async def _listen(self) -> None:
        pause = self.RETRY_FIRST
        while True:
            pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(*(PREFIX + c for c in self._handlers))
                self.connected, pause = True, self.RETRY_FIRST
                while True:
                    msg = await pubsub.get_message(timeout=None)
                    if msg is None or msg.get("type") != "message":
                        continue
                    channel = msg["channel"].decode() if isinstance(msg["channel"], bytes) else msg["channel"]
                    try:
                        data = orjson.loads(msg["data"])
                    except orjson.JSONDecodeError:
                        continue
                    if isinstance(data, dict):
                        self._deliver(channel.removeprefix(PREFIX), data)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.connected:
                    log.warning("lost Redis at %s (%s); trying again", _shown(self.url), exc)
                self.connected = False
                await asyncio.sleep(pause)
                pause = min(self.RETRY_MOST, pause * 2)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def close(self) -> None:
        task, self._task = self._task, None
        await cancel(task)
        with contextlib.suppress(Exception):
            await self.client.aclose()

    def info(self) -> dict[str, Any]:
        return {"kind": "redis", "url": _shown(self.url), "connected": self.connected,
                "published": self.published, "heard": self.heard}


def _shown(url: str) -> str:
    """A Redis URL without its password."""
    if "@" not in url:
        return url
    scheme, rest = url.split("://", 1) if "://" in url else ("redis", url)
    return f"{scheme}://***@{rest.split('@', 1)[1]}"


def make_bus(url: str | None) -> Bus:
    """The bus of a server: over Redis at ``url``, else in memory."""
    return Bus() if not url else RedisBus(url)
