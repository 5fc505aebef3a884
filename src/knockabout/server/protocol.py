"""The HTTP and WebSocket protocols ``knockabout serve`` runs under uvicorn: uvicorn's own
(httptools; websockets' sans-I/O), each without a reference cycle that outlived every
WebSocket connection.

uvicorn's HTTP protocol object and its request parser refer to each other (the parser
calls the protocol back). On a plain request the protocol breaks that cycle when the
connection closes; on a WebSocket upgrade it hands the connection to the WebSocket
protocol and is never told that the connection closed, so the pair, and through it the
connection's transport and flow control, could only be freed by Python's cyclic garbage
collector. They lived as long as the game's connection, long enough to reach the oldest
generation, which the server collects only every ``--full-gc-every`` seconds
(:mod:`.collector`); under load they were nearly all the garbage that generation held
(docs/measurements.md). :class:`HttpProtocol` drops the parser once the upgrade is
done, so those objects are freed by reference counting the moment the WebSocket closes.

The WebSocket side had the same kind of cycle: websockets' protocol object keeps its frame
parser as a generator, and the generator's frame refers back to the protocol, so every
closed connection's protocol, stream reader, close frame and generators waited for the
hourly full collection. :class:`WebSocketProtocol` closes the parser when
the connection is lost, which clears the generator's frame and so the cycle.

A text message that is not UTF-8 is hostile input like any other: uvicorn closes the
connection with 1007 but logs an ERROR with a traceback for each one (any client could fill
the log with them, no hello needed). :class:`WebSocketProtocol` closes it with 1007 too,
and writes one WARNING line.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from knockabout.server.guards import MAX_MESSAGE_CHARS


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, letting go of its parser after a WebSocket upgrade."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # the WebSocket protocol owns the connection now; nothing reads this parser again
        self.parser = None  # type: ignore[assignment]


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets (sans-I/O) protocol, closing the connection's frame parser when
    the connection is lost (nothing parses for it again: no data arrives after that)."""

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.conn.parser.close()  # the generator's frame, which holds the protocol, is cleared

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            if not data.isascii():  # (JSON is mostly ASCII: checked without decoding it)
                try:
                    data.decode()
                except UnicodeDecodeError:
                    self.frames = []
                    where = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
                    self.logger.warning("%s sent a WebSocket text message that is not UTF-8; closed it (1007)", where)
                    self.conn.send_close(1007, "text messages must be UTF-8")
                    self.handle_parser_exception()
                    return
        super().send_receive_event_to_app()


class ReadyServer(uvicorn.Server):
    """uvicorn's server, calling ``on_ready`` once it answers: the app has started (the
    store open, unfinished tables resumed, the bots' processes started) and its sockets
    listen. ``serve`` prints its address then, not before (it used to, about a second
    early, and a click on the address at once failed)."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[], None]) -> None:
        super().__init__(config)
        self.on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and not self.should_exit:
            self.on_ready()


def server_config(app: Any, host: str, port: int, compress: bool) -> uvicorn.Config:
    """How ``serve`` runs the app under uvicorn (each worker of ``--workers`` too). The
    WebSocket layer drops a frame over ``ws_max_size`` bytes before the app reads it (a
    message of MAX_MESSAGE_CHARS characters is at most 4 bytes each in UTF-8);
    permessage-deflate is negotiated with a browser that offers it only with ``compress``:
    deflating every frame was the event loop's largest cost under load (docs/measurements.md).
    HTTP is :class:`HttpProtocol`, WebSocket :class:`WebSocketProtocol`."""
    return uvicorn.Config(app, host=host, port=port, log_level="warning", http=HttpProtocol, ws=WebSocketProtocol,
                          ws_max_size=4 * MAX_MESSAGE_CHARS + 1024, ws_per_message_deflate=compress)
