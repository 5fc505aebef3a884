"""The Ray backend on a real local cluster (``ray start --head`` on a free port, 2 CPUs):
the same results as the process pool, and a worker killed in the middle of a run is
retried by Ray with the result unchanged. Tiny runs; skipped when Ray is not installed."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ray")

from knockabout.sim.balance_run import BalanceSpec, run_balance
from knockabout.sim.executor import PoolExecutor, make_executor
from knockabout.sim.tournament import SimSpec, run

pytestmark = pytest.mark.solo  # (solo: see tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
RAY = Path(sys.executable).with_name("ray")
ENV = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _session(sid: int) -> list[int]:
    """The processes of session ``sid`` (the cluster this module started)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if os.getsid(int(d.name)) == sid:
                    out.append(int(d.name))
            except OSError:
                continue
    return out


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, int]]:
    """The cluster's address and its session id (every process of it is in that session)."""
    port = _free_port()
    env = {**os.environ, **ENV, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    head = subprocess.Popen(
        [str(RAY), "start", "--head", "--port", str(port), "--num-cpus", "2", "--include-dashboard=false",
         "--disable-usage-stats", "--block"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    saved = {k: os.environ.get(k) for k in ENV}
    os.environ.update(ENV)
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or head.poll() is not None:
                    pytest.fail("the local Ray head did not start")
                time.sleep(0.5)
        time.sleep(2)  # the raylet registers after the GCS answers
        yield address, head.pid
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        os.killpg(head.pid, signal.SIGTERM)  # `ray start --block` stops its own processes
        try:
            head.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        for pid in _session(head.pid):  # workers left behind (their own process groups)
            os.kill(pid, signal.SIGKILL)


def _keys(res: Any) -> list[Any]:
    return [g.outcome_key() for g in res.games]


def test_ray_gives_the_same_games_and_matches_as_the_process_pool(cluster: tuple[str, int]) -> None:
    spec = SimSpec("nak-muay", players=2, games=40, seed=6, bots=("easy", "random"))
    balance = BalanceSpec("knockback", {"scoring": "speed"}, 1, "random", seed=2)
    with PoolExecutor(2) as pool:
        want = _keys(run(spec, executor=pool))
        want_balance = [[(m.payoffs, m.length) for m in p.matches] for p in run_balance(balance, pool).pairs[0]]
    with make_executor("ray", None, cluster[0]) as ex:
        assert ex.workers == 2 and ex.name == "ray"
        got = run(spec, executor=ex)
        got_balance = run_balance(balance, ex)
    assert _keys(got) == want and got.meta["backend"] == "ray"
    assert [[(m.payoffs, m.length) for m in p.matches] for p in got_balance.pairs[0]] == want_balance


def test_a_worker_killed_mid_run_is_retried_and_the_result_is_unchanged(cluster: tuple[str, int]) -> None:
    spec = SimSpec("knockdown", players=2, games=16, seed=9, bots=("easy", "random"))
    with PoolExecutor(2) as pool:
        want = _keys(run(spec, executor=pool))
    address, sid = cluster
    killed: list[int] = []

    def kill_one() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            for pid in _titled("ray::run_unit"):
                if os.getsid(pid) == sid:  # a worker of this module's cluster, no one else's
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    return
            time.sleep(0.05)

    with make_executor("ray", None, address) as ex:
        killer = threading.Thread(target=kill_one)
        killer.start()
        got = run(spec, executor=ex, chunk=2)
        killer.join()
    assert killed, "no Ray worker was seen running a unit"
    assert _keys(got) == want


def _titled(title: str) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if (d / "cmdline").read_bytes().startswith(title.encode()):
                    out.append(int(d.name))
            except OSError:
                continue
    return out
