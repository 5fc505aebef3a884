"""The HTTP protocol ``knockabout serve`` runs under uvicorn: uvicorn's own (httptools),
without a reference cycle that outlived every WebSocket connection.

uvicorn's HTTP protocol object and its request parser refer to each other (the parser
calls the protocol back). On a plain request the protocol breaks that cycle when the
connection closes; on a WebSocket upgrade it hands the connection to the WebSocket
protocol and is never told that the connection closed, so the pair, and through it the
connection's transport and flow control, could only be freed by Python's cyclic garbage
collector. They lived as long as the game's connection, long enough to reach the oldest
generation, which the server collects only every ``--full-gc-every`` seconds
(:mod:`.collector`): measured at 1,000 tables (people thinking 3 s), they were about
9,900 of the 9,900 objects the oldest generation held as garbage after 200 s, about
560 connections' worth. :class:`HttpProtocol` drops the parser once the upgrade is
done, so those objects are freed by reference counting the moment the WebSocket closes.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, letting go of its parser after a WebSocket upgrade."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # the WebSocket protocol owns the connection now; nothing reads this parser again
        self.parser = None  # type: ignore[assignment]
