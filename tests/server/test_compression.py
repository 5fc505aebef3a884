"""`knockabout serve` compresses WebSocket frames only when asked (``--compress``):
deflating every frame was the server's largest cost under load."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest
import uvicorn
from websockets.sync.client import connect

from knockabout.cli.serve import server_config
from knockabout.server import ServerSettings, create_app

pytestmark = pytest.mark.timeout(60)


def negotiated_extensions(tmp_path: Path, compress: bool) -> str:
    """The extensions a real server agrees to with a client that offers permessage-deflate."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / f'k{compress}.db'}"))
    server = uvicorn.Server(server_config(app, "127.0.0.1", port, compress))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        import httpx

        table = httpx.post(f"http://127.0.0.1:{port}/api/tables",
                           json={"game": "nak-muay", "seats": ["random", "random"]}).json()
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table['id']}") as ws:  # offers deflate by default
            ws.send('{"type":"hello"}')
            assert '"type":"sync"' in str(ws.recv(timeout=10))
            assert ws.response is not None
            return str(ws.response.headers.get("Sec-WebSocket-Extensions", ""))
    finally:
        server.should_exit = True
        thread.join(10)


def test_frames_are_not_compressed_by_default(tmp_path: Path) -> None:
    assert "permessage-deflate" not in negotiated_extensions(tmp_path, compress=False)


def test_compress_negotiates_permessage_deflate(tmp_path: Path) -> None:
    assert "permessage-deflate" in negotiated_extensions(tmp_path, compress=True)
