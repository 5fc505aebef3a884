"""`knockabout serve --workers 2`, for real: the front passes each connection to the worker
that holds its table, the tables alternate over the workers, the lobby shows every
worker's tables, a killed worker is started again and resumes its tables, and no process
outlives the server (stopped, or killed outright)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest
from websockets.sync.client import connect

from knockabout.server.frames import Follower
from knockabout.server.shards import shard_of
from tests.server.conftest import free_port

pytestmark = [pytest.mark.timeout(180), pytest.mark.solo]  # (solo: see tests/conftest.py)


def start(db: str, port: int, *extra: str, group: bool = False) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-m", "knockabout.cli.main", "serve", "--port", str(port), "--db", db,
                             "--workers", "2", "--pace", "0.01", "--bot-delay", "0.01", "--bot-processes", "1",
                             *extra], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=group)
    wait_for(port, proc)
    return proc


def wait_for(port: int, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if proc.poll() is not None:
            raise AssertionError(f"the server ended: {proc.stderr.read().decode() if proc.stderr else ''}")
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not start")


def workers_of(front: int) -> list[psutil.Process]:
    """The front's worker processes (not multiprocessing's resource tracker)."""
    out = []
    for k in psutil.Process(front).children():
        try:
            if "resource_tracker" not in " ".join(k.cmdline()):
                out.append(k)
        except psutil.Error:  # ended (a zombie until the front reaps it)
            continue
    return out


def play(port: int, made: dict[str, Any], moves: int) -> int:
    """Connect to the table, make ``moves`` moves as seat 0; the version seen last."""
    with connect(f"ws://127.0.0.1:{port}/ws/tables/{made['id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": made["token"]}))
        copy, acted, last, seen = Follower(), 0, -1, 0
        while True:
            msg: dict[str, Any] = copy.read(json.loads(ws.recv(timeout=20)))
            if msg.get("type") not in ("sync", "update"):
                continue
            seen = max(seen, msg["version"])
            # Done once the last move is applied: a frame that changes nothing else (a presence
            # or clock update) can come between a move and its result.
            if (acted >= moves and msg["version"] > last) or msg["outcome"] is not None:
                return seen
            d = msg["decision"]
            if d is not None and d["player"] == 0 and msg["legal"] and msg["version"] > last:
                last = msg["version"]
                ws.send(json.dumps({"type": "act", "action": msg["legal"][0], "version": msg["version"]}))
                acted += 1


def create(port: int, seats: list[str]) -> dict[str, Any]:
    answer = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={
        "game": "nak-muay", "seats": seats, "name": "Ann", "config": {"max_turns": 2000}}, timeout=20)
    assert answer.status_code == 200, answer.text
    made: dict[str, Any] = answer.json()
    return made


def test_two_workers_share_the_tables_and_survive_a_killed_worker(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'k.db'}"
    port = free_port()
    proc = start(db, port)
    try:
        made = [create(port, ["me", "random"]) for _ in range(4)]
        shards = [shard_of(m["id"], 2) for m in made]
        assert set(shards) == {0, 1} and shards[0] != shards[1], "one address's new tables alternate"
        for m in made:
            assert httpx.get(f"http://127.0.0.1:{port}/api/tables/{m['id']}", timeout=30).json()["id"] == m["id"]
            seen = play(port, m, 2)
            info = httpx.get(f"http://127.0.0.1:{port}/api/tables/{m['id']}", timeout=30).json()
            # (a deal can end at the first move, a KO card played at once: that came through the front too)
            assert seen >= 2 or (seen >= 1 and info["outcome"] is not None), \
                "each table plays through the front, whichever worker holds it"

        waiting = create(port, ["me", "open"])
        for _ in range(4):  # the lobby is answered by each worker in turn: every answer lists every table
            listed = {t["id"]: t for t in httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=30).json()["tables"]}
            assert {m["id"] for m in made} | {waiting["id"]} <= set(listed)
            assert listed[waiting["id"]]["free_seats"] == [1]
        answer = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=30)
        assert answer.headers["connection"] == "close", "no kept-alive connection crosses to another worker"

        workers = workers_of(proc.pid)
        assert len(workers) == 2
        before = {m["id"]: play(port, m, 0) for m in made}
        workers[0].kill()  # kill -9 one worker: the front starts it again, its tables resume
        for _ in range(200):
            now = workers_of(proc.pid)
            if len(now) == 2 and workers[0].pid not in {w.pid for w in now}:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the killed worker was not started again")
        wait_for(port, proc)
        for m in made:
            info = httpx.get(f"http://127.0.0.1:{port}/api/tables/{m['id']}", timeout=30).json()
            if info["status"] == "finished":  # a short game that ended before the kill: served from the store
                assert info["version"] >= before[m["id"]] and info["outcome"] is not None
            else:
                assert play(port, m, 1) >= before[m["id"]], "every table goes on from where it was"
        kept = workers_of(proc.pid)
        family = [p for w in kept for p in [w, *w.children(recursive=True)]]
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=40)
    assert proc.returncode == 0
    assert b"Traceback" not in err, err.decode(errors="replace")
    assert b"ended with exit code -9" in err, "the front says how the killed worker ended"
    _gone, alive = psutil.wait_procs(family, timeout=10)
    assert not alive, f"left running after the server stopped: {alive}"


def test_workers_leave_when_the_front_is_killed(tmp_path: Path) -> None:
    port = free_port()
    proc = start(f"sqlite:///{tmp_path / 'k.db'}", port)
    create(port, ["me", "random"])
    family = [p for w in workers_of(proc.pid) for p in [w, *w.children(recursive=True)]]
    assert len(family) >= 2
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    _gone, alive = psutil.wait_procs(family, timeout=30)
    for p in alive:
        p.kill()
    assert not alive, f"workers or their bot processes outlived a killed front: {alive}"


def test_a_worker_that_cannot_start_stops_the_server_with_a_message(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-m", "knockabout.cli.main", "serve", "--port", str(port),
                             "--data-dir", str(folder), "--workers", "2"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for(port, proc)
    for f in folder.iterdir():  # the database turns into a folder: a restarted worker cannot open it
        f.unlink()
    (folder / "knockabout.db").mkdir()
    workers_of(proc.pid)[0].kill()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1
    assert b"could not start" in err, err.decode(errors="replace")


def test_ctrl_c_stops_every_process_quietly(tmp_path: Path) -> None:
    """Ctrl+C in a terminal signals the whole process group: the front stops the workers,
    which do not stop (and complain) on their own."""
    port = free_port()
    proc = start(f"sqlite:///{tmp_path / 'k.db'}", port, group=True)
    create(port, ["me", "random"])
    family = [p for w in workers_of(proc.pid) for p in [w, *w.children(recursive=True)]]
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err, err.decode(errors="replace")
    _gone, alive = psutil.wait_procs(family, timeout=10)
    assert not alive
