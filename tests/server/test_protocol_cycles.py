"""A WebSocket connection's objects are freed when it closes, not left as cyclic garbage for
the oldest collection (which `serve` runs only every hour): uvicorn's HTTP protocol and its
parser refer to each other, and after an upgrade nothing broke that; websockets' protocol
and its parser (a generator whose frame holds the protocol) did the same."""

from __future__ import annotations

import gc
import time
from pathlib import Path

import httpx
import pytest
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.server import ServerProtocol
from websockets.sync.client import connect

from knockabout.cli.serve import server_config
from knockabout.server import ServerSettings, create_app
from tests.server.conftest import free_port, uvicorn_running

pytestmark = pytest.mark.timeout(120)


def tracked(kind: type) -> int:
    """Objects of ``kind`` the cyclic collector tracks (live or garbage)."""
    return sum(issubclass(type(o), kind) for o in gc.get_objects())


def left_behind(tmp_path: Path, kind: type, stock: str | None, connections: int = 12) -> int:
    """How many ``kind`` objects are still tracked after ``connections`` WebSocket
    connections opened and closed, with the cyclic collector off meanwhile (so what only it
    could free is still there). ``stock`` names the uvicorn setting ("http" or "ws") put
    back to uvicorn's own protocol."""
    port = free_port()
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / f'c{stock}.db'}"))
    config = server_config(app, "127.0.0.1", port, compress=False)
    if stock == "http":
        config.http = "httptools"  # uvicorn's own protocols, as before
    elif stock == "ws":
        config.ws = "websockets-sansio"
    with uvicorn_running(config):
        table = httpx.post(f"http://127.0.0.1:{port}/api/tables",
                           json={"game": "nak-muay", "seats": ["random", "random"]}).json()
        gc.collect()
        gc.disable()
        try:
            before = tracked(kind)
            for _ in range(connections):
                with connect(f"ws://127.0.0.1:{port}/ws/tables/{table['id']}") as ws:
                    ws.send('{"type":"hello"}')
                    assert '"type":"sync"' in str(ws.recv(timeout=10))
            time.sleep(0.3)  # the server sees the last close
            return tracked(kind) - before
        finally:
            gc.enable()


def test_a_closed_websocket_leaves_no_http_protocol_for_the_cyclic_collector(tmp_path: Path) -> None:
    assert left_behind(tmp_path, HttpToolsProtocol, "http") >= 10, "uvicorn's own protocol leaves one per connection"
    assert left_behind(tmp_path, HttpToolsProtocol, None) <= 1, "serve's protocol is freed when its connection closes"


def test_a_closed_websocket_leaves_no_websocket_protocol_for_the_cyclic_collector(tmp_path: Path) -> None:
    assert left_behind(tmp_path, ServerProtocol, "ws") >= 10, "uvicorn's own leaves websockets' protocol behind"
    assert left_behind(tmp_path, ServerProtocol, None) <= 1, "serve's is freed when its connection closes"
