"""A WebSocket connection's HTTP objects are freed when it closes, not left as cyclic
garbage for the oldest collection (which `serve` runs only every few minutes): uvicorn's
protocol and its parser refer to each other, and after an upgrade nothing broke that."""

from __future__ import annotations

import gc
import time
from pathlib import Path

import httpx
import pytest
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.sync.client import connect

from knockabout.cli.serve import server_config
from knockabout.server import ServerSettings, create_app
from tests.server.conftest import free_port, uvicorn_running

pytestmark = pytest.mark.timeout(120)


def protocols() -> int:
    """The HTTP protocol objects the cyclic collector tracks (live or garbage)."""
    return sum(issubclass(type(o), HttpToolsProtocol) for o in gc.get_objects())


def left_behind(tmp_path: Path, stock: bool, connections: int = 12) -> int:
    """How many HTTP protocol objects are still tracked after ``connections`` WebSocket
    connections opened and closed, with the cyclic collector off meanwhile (so what only it
    could free is still there)."""
    port = free_port()
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / f'c{stock}.db'}"))
    config = server_config(app, "127.0.0.1", port, compress=False)
    if stock:
        config.http = "httptools"  # uvicorn's own protocol, as before
    with uvicorn_running(config):
        table = httpx.post(f"http://127.0.0.1:{port}/api/tables",
                           json={"game": "nak-muay", "seats": ["random", "random"]}).json()
        gc.collect()
        gc.disable()
        try:
            before = protocols()
            for _ in range(connections):
                with connect(f"ws://127.0.0.1:{port}/ws/tables/{table['id']}") as ws:
                    ws.send('{"type":"hello"}')
                    assert '"type":"sync"' in str(ws.recv(timeout=10))
            time.sleep(0.3)  # the server sees the last close
            return protocols() - before
        finally:
            gc.enable()


def test_a_closed_websocket_leaves_no_http_protocol_for_the_cyclic_collector(tmp_path: Path) -> None:
    assert left_behind(tmp_path, stock=True) >= 10, "uvicorn's own protocol leaves one per connection"
    assert left_behind(tmp_path, stock=False) <= 1, "serve's protocol is freed when its connection closes"
