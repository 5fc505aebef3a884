"""kill -9 a real server mid-burst: every action any client was told of is in the store,
and the restarted server goes on from there."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from knockabout.server.frames import Follower
from knockabout.store import Store

pytestmark = [pytest.mark.timeout(120), pytest.mark.solo]  # (solo: see tests/conftest.py)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: str, port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-m", "knockabout.cli.main", "serve", "--port", str(port), "--db", db,
                             "--pace", "0.01", "--bot-delay", "0.01"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start")


def test_every_confirmed_action_survives_kill_9_mid_burst(db_url: str) -> None:
    db = db_url  # SQLite and PostgreSQL (see conftest)
    port = free_port()
    proc = start(db, port)
    seen = 0
    try:
        made = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={
            "game": "nak-muay", "seats": ["me", "random", "random", "random"], "seed": 11,
            "config": {"max_turns": 2000}}, timeout=30).json()  # a busy machine answers slowly
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{made['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            acted, last = 0, -1
            copy = Follower()  # patches read as the updates they stand for
            while acted < 4:
                msg: dict[str, Any] = copy.read(json.loads(ws.recv(timeout=10)))
                if msg.get("type") not in ("sync", "update"):
                    continue
                seen = max(seen, msg["version"])
                d = msg["decision"]
                if (msg["outcome"] is None and d is not None and d["player"] == 0 and msg["legal"]
                        and msg["version"] > last):
                    last = msg["version"]
                    ws.send(json.dumps({"type": "act", "action": msg["legal"][0], "version": msg["version"]}))
                    acted += 1
            msg = copy.read(json.loads(ws.recv(timeout=10)))  # my last action's update; the bots' burst goes on
            seen = max(seen, msg["version"])
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    store = Store(db)
    kept = store.get(made["id"])
    store.close()
    assert kept is not None and len(kept.actions) >= seen > 4, "nothing a client was told of is lost"

    proc = start(db, port)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{made['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            sync = json.loads(ws.recv(timeout=10))
            assert sync["type"] == "sync" and sync["version"] >= len(kept.actions)
        err = b""
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    assert b"Traceback" not in err, err.decode(errors="replace")
