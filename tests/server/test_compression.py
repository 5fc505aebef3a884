"""`knockabout serve` compresses WebSocket frames only when asked (``--compress``):
deflating every frame was the server's largest cost under load."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from knockabout.cli.serve import server_config
from knockabout.server import ServerSettings, create_app
from tests.server.conftest import free_port, uvicorn_running

pytestmark = pytest.mark.timeout(60)


def negotiated_extensions(tmp_path: Path, compress: bool) -> str:
    """The extensions a real server agrees to with a client that offers permessage-deflate."""
    port = free_port()
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / f'k{compress}.db'}"))
    with uvicorn_running(server_config(app, "127.0.0.1", port, compress)):
        table = httpx.post(f"http://127.0.0.1:{port}/api/tables",
                           json={"game": "nak-muay", "seats": ["random", "random"]}).json()
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table['id']}") as ws:  # offers deflate by default
            ws.send('{"type":"hello"}')
            assert '"type":"sync"' in str(ws.recv(timeout=10))
            assert ws.response is not None
            return str(ws.response.headers.get("Sec-WebSocket-Extensions", ""))


def test_frames_are_not_compressed_by_default(tmp_path: Path) -> None:
    assert "permessage-deflate" not in negotiated_extensions(tmp_path, compress=False)


def test_compress_negotiates_permessage_deflate(tmp_path: Path) -> None:
    assert "permessage-deflate" in negotiated_extensions(tmp_path, compress=True)
