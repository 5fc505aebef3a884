"""Clients that vanish against a real server (uvicorn, real sockets), as a load run does:
a message waiting for the busy table whose sender is gone ends without a traceback."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.sync.client import connect

from knockabout.server import ServerSettings, create_app

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(params=["websockets", "websockets-sansio"])
def real_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[str, Any, str]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # 32 clients on one address act at once here: the message rate is test_limits' subject
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'r.db'}", bot_pace=600.0, bot_delay=600.0,
                                    message_rate="off"))
    # log_config=None: uvicorn's own loggers reach the test's log capture
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, ws=request.param))
    thread = threading.Thread(target=server.run, daemon=True, name=f"disconnects-server-{port}")
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"127.0.0.1:{port}", app, thread.name
    server.should_exit = True
    thread.join(timeout=10)


def test_senders_that_vanish_while_the_table_is_busy_leave_no_traceback(
        real_server: tuple[str, Any, str], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    host, app, server_thread = real_server
    made = httpx.post(f"http://{host}/api/tables", json={"game": "nak-muay", "seats": ["me", "open"],
                                                         "name": "Ann"}).json()
    joined = httpx.post(f"http://{host}/api/tables/{made['id']}/join", json={"name": "Bo"}).json()
    live = app.state.manager.get(made["id"])
    loop = live.task.get_loop()
    url = f"ws://{host}/ws/tables/{made['id']}"
    with connect(url) as bo:
        bo.send(json.dumps({"type": "hello", "token": joined["token"]}))
        assert json.loads(bo.recv(timeout=5))["type"] == "sync"
        for _ in range(4):
            asyncio.run_coroutine_threadsafe(live.lock.acquire(), loop).result(5)  # the table is busy
            for i in range(8):
                # a client's own close waits at most a second for the busy server's answer
                with connect(url, close_timeout=1) as ws:
                    token = made["token"] if i % 2 == 0 else None
                    ws.send(json.dumps({"type": "hello", "token": token}))
                    ws.send(json.dumps({"type": "act", "action": "draw", "version": 0}))
                    ws.send(b"\x00binary")
                    if i % 3:
                        ws.socket.close()  # the network simply goes away (else: a proper close)
            time.sleep(0.05)
            loop.call_soon_threadsafe(live.lock.release)
            time.sleep(0.1)
        bo.send(json.dumps({"type": "ping"}))
        deadline = time.monotonic() + 5
        while json.loads(bo.recv(timeout=5))["type"] != "pong":
            assert time.monotonic() < deadline
    time.sleep(0.2)
    # (only this server's records: another test's server may still run in this process)
    problems = [f"{r.name}: {r.getMessage()}" for r in caplog.records
                if r.threadName == server_thread and (r.levelno >= logging.ERROR or r.exc_info)]
    assert not problems, problems[:3]
