"""``knockabout serve`` prints its address once the server answers there (it used to print
it about a second early: a click on it at once failed), with one process or with
``--workers``: the front says it once every worker has told it that it serves."""

from __future__ import annotations

import multiprocessing
import os
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.process import BaseProcess
from pathlib import Path

import httpx
import pytest

from knockabout.server.front import READY, Front
from tests.server.conftest import free_port
from tests.server.test_workers import workers_of

pytestmark = [pytest.mark.timeout(180), pytest.mark.solo]  # (solo: see tests/conftest.py)


def address_line(proc: subprocess.Popen[str]) -> str:
    """The line where serve says its address (everything it printed before is skipped)."""
    assert proc.stdout is not None
    for line in proc.stdout:
        if "is serving at" in line:
            return line
    raise AssertionError(f"serve ended without saying where: {proc.wait()}")


@pytest.mark.parametrize("workers", [1, 2])
def test_the_address_is_printed_when_the_server_answers_there(tmp_path: Path, workers: int) -> None:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), COLUMNS="200")
    proc = subprocess.Popen([sys.executable, "-m", "knockabout.cli.main", "serve", "--port", str(port),
                             "--db", f"sqlite:///{tmp_path / 'k.db'}", "--workers", str(workers),
                             "--bot-processes", "1"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert f"http://localhost:{port}/" in address_line(proc)
        if workers > 1:  # every worker has started (its app up: its bots' processes started)
            started = workers_of(proc.pid)
            assert len(started) == workers and all(w.children() for w in started), started
        # at once, no retry: the port listens (it refused connections for a second or more)
        # and the request is answered
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        r = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=60)
        assert r.status_code == 200 and r.json()["games"]
    finally:
        proc.terminate()
        proc.wait(60)


def _worker(control: socket.socket, go: multiprocessing.synchronize.Event) -> None:
    """A stand-in worker: says READY when told to, then waits for the front to close its socket."""
    go.wait(30)
    control.send(READY)
    control.recv(16)


def test_the_front_is_ready_only_when_every_worker_has_said_so() -> None:
    ctx = multiprocessing.get_context("fork")
    goes = [ctx.Event() for _ in range(3)]
    ready_at: list[int] = []
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))

    def spawn(index: int, control: socket.socket) -> BaseProcess:
        p = ctx.Process(target=_worker, args=(control, goes[index]))
        p.start()
        return p

    front = Front(listener, 3, spawn, on_ready=lambda: ready_at.append(sum(g.is_set() for g in goes)))
    runner = threading.Thread(target=front.run)
    runner.start()
    try:
        for g in goes:
            time.sleep(0.3)
            assert not ready_at, "ready before every worker said so"
            g.set()
        deadline = time.monotonic() + 20
        while not ready_at and time.monotonic() < deadline:
            time.sleep(0.02)
        assert ready_at == [3], "ready once, when all three had said so"
    finally:
        assert front._loop is not None
        front._loop.call_soon_threadsafe(front.stop)
        runner.join(60)
