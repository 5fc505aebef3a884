"""The load benchmark (benchmarks/load.py) in small: its people act and think as the
script says, and a few tables against a real `knockabout serve` give round trips with no
error and no server traceback. The numbers themselves belong in docs/live-play.md."""

from __future__ import annotations

import importlib.util
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import httpx
import pytest

pytestmark = pytest.mark.solo  # (solo: see tests/conftest.py)

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "load.py"


@pytest.fixture(scope="module")
def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("load_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


def test_people_think_as_told(load: ModuleType) -> None:
    rng = random.Random(4)
    assert load.think_time(0.0, rng, None) == 0.0, "--think 0: act as soon as allowed"
    pauses = [load.think_time(3.0, rng, None) for _ in range(4000)]
    assert 2.6 < statistics.fmean(pauses) < 3.4, "the mean asked for"
    assert statistics.median(pauses) < 3.0, "most answers quicker than the mean, a few slow"
    assert max(pauses) <= 30.0
    timed = [load.think_time(3.0, rng, {"seat": 0, "left": 4.0, "limit": 10}) for _ in range(500)]
    assert max(timed) <= 2.0, "at most half a timed decision's time left"


def test_a_few_tables_against_a_real_server(load: ModuleType, tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--levels", "3", "--seconds", "6", "--think", "0.3", "--pace", "0.1",
         "--bot-delay", "0.2", "--ramp", "1", "--db", f"sqlite:///{tmp_path / 'load.db'}"],
        capture_output=True, text=True, timeout=180, check=True).stdout
    assert "people think 0.3 s on average, arriving over 1 s" in out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert len(rows) == 1, out
    tables, actions, p50, p99 = (float(x) for x in rows[0][:4])
    errors, bots, writer = float(rows[0][8]), float(rows[0][10]), float(rows[0][11])
    assert tables == 3 and actions >= 5 and errors == 0, out
    assert bots >= 0 and writer >= 0, "the bot processes' and the store writer's CPU, apart"
    assert 0 < p50 <= p99, out
    assert "server tracebacks: 0" in out


def test_logged_in_people_sign_up_play_and_find_their_games_on_their_profiles(load: ModuleType,
                                                                               tmp_path: Path) -> None:
    """``--accounts 0.5``: half the people have accounts (signed up before the level, as a
    browser does, with the page's CSRF token) and play logged in; their seats are their
    accounts', and each profile they read after a game shows it (one that did not would
    be an error)."""
    assert [load.logged_in(i, 0.5) for i in range(4)] == [False, True, False, True]
    assert not any(load.logged_in(i, 0.0) for i in range(10)) and all(load.logged_in(i, 1.0) for i in range(10))
    db = tmp_path / "load.db"
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--levels", "4", "--seconds", "8", "--think", "0.2", "--pace", "0.1",
         "--bot-delay", "0.2", "--accounts", "0.5", "--db", f"sqlite:///{db}"],
        capture_output=True, text=True, timeout=180, check=True).stdout
    assert "50 % logged in" in out and "signed up 2 logged-in people in" in out, out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert len(rows) == 1, out
    actions, errors, profiles = float(rows[0][1]), float(rows[0][8]), float(rows[0][13])
    assert actions >= 5 and errors == 0 and profiles >= 0, out
    assert "server tracebacks: 0" in out

    from sqlalchemy import create_engine, select

    from knockabout.store.schema import AccountRow, AccountSeatRow

    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        names = conn.execute(select(AccountRow.name)).scalars().all()
        linked = conn.execute(select(AccountSeatRow.account_id).distinct()).scalars().all()
    engine.dispose()
    assert len(names) == 2 and all(n.startswith("load") for n in names)
    assert len(linked) == 2, "each logged-in person's tables are their account's"


def test_the_store_writer_is_told_apart_from_the_bot_processes(load: ModuleType, tmp_path: Path) -> None:
    """The writer process's CPU has its own column: found among the server's children by
    what it runs, and a bot process is not taken for it."""
    import psutil

    from knockabout.store import Store
    from tests.server.conftest import run_async

    async def main() -> tuple[bool, bool]:
        store = Store(f"sqlite:///{tmp_path / 'k.db'}", writer="process")
        writer = store.open_writer()
        pid = getattr(writer, "pid", None)
        assert isinstance(pid, int), "a file database in an event loop gets the process"
        try:
            return load.is_store_writer(psutil.Process(pid)), load.is_store_writer(psutil.Process())
        finally:
            store.close()

    found, me = run_async(main())
    assert found and not me


def test_people_arrive_evenly_over_the_ramp(load: ModuleType) -> None:
    assert [load.arrival(i, 4, 0.0) for i in range(4)] == [0.0] * 4, "--ramp 0: all at once"
    assert [load.arrival(i, 4, 10.0) for i in range(4)] == [0.0, 2.5, 5.0, 7.5]


def test_bad_flags_are_one_clear_line() -> None:
    r = subprocess.run([sys.executable, str(SCRIPT), "--think", "-1"], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "--think takes 0-60 seconds" in r.stderr
    r = subprocess.run([sys.executable, str(SCRIPT), "--ramp", "30", "--seconds", "20"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode != 0 and "--ramp takes 0 to --seconds (20) seconds" in r.stderr


def test_a_server_started_elsewhere_is_played_and_measured_by_its_pid(tmp_path: Path) -> None:
    """``--server URL`` plays against a running server (so the load client can run on another
    machine); ``--server-pid`` adds its CPU and RSS, which are ``-`` without it."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "knockabout.cli.main", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", f"sqlite:///{tmp_path / 'elsewhere.db'}", "--create-rate", "off", "--server-create-rate", "off",
         "--max-tables", "1000000", "--message-rate", "off", "--grace", "86400", "--pace", "0.1", "--bot-delay", "0.2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(400):
            try:
                httpx.get(f"{base}/api/games", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        out = subprocess.run(
            [sys.executable, str(SCRIPT), "--server", base + "/", "--server-pid", str(server.pid), "--levels", "3",
             "--seconds", "5", "--think", "0.2"], capture_output=True, text=True, timeout=120, check=True).stdout
        assert f"started elsewhere, pid {server.pid}" in out, out
        row = next(line.split() for line in out.splitlines() if line.strip()[:1].isdigit())
        tables, actions, cpu, rss, errors = float(row[0]), float(row[1]), row[5], row[6], float(row[8])
        assert tables == 3 and actions >= 3 and errors == 0, out
        assert float(cpu) >= 0 and float(rss) > 20, "the server's own CPU and RSS, by its pid"
        bare = subprocess.run([sys.executable, str(SCRIPT), "--server", base, "--levels", "2", "--seconds", "3",
                               "--think", "0.2"], capture_output=True, text=True, timeout=120, check=True).stdout
        row = next(line.split() for line in bare.splitlines() if line.strip()[:1].isdigit())
        assert row[5] == "-" and row[6] == "-" and row[10] == "-" and row[11] == "-", "not measured, and not made up"
        assert "not seen here" in bare
    finally:
        server.terminate()
        _, err = server.communicate(timeout=30)
    assert b"Traceback" not in err


@pytest.mark.parametrize(("flags", "says"), [
    (["--server", "localhost:8000"], "--server takes the server's address as http://HOST:PORT"),
    (["--server", "http://127.0.0.1:9"], "no knockabout server answers at http://127.0.0.1:9"),
    (["--server", "http://127.0.0.1:9", "--db", "sqlite://"], "--db: with --server these are the running"),
    (["--server-pid", "1"], "--server-pid goes with --server"),
])
def test_bad_server_flags_are_one_clear_line(flags: list[str], says: str) -> None:
    r = subprocess.run([sys.executable, str(SCRIPT), *flags], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and says in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_a_soak_sums_up_the_whole_run(tmp_path: Path) -> None:
    """Besides a line per window, a soak gives the round trip over all its windows and how
    many windows had a p99 over 50 ms (a pause once in a while shows there)."""
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--levels", "2", "--soak", "0.1", "--seconds", "3", "--think", "0.2",
         "--pace", "0.1", "--bot-delay", "0.2", "--db", f"sqlite:///{tmp_path / 'soak.db'}"],
        capture_output=True, text=True, timeout=180, check=True).stdout
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert len(rows) == 2, out
    summary = next(line for line in out.splitlines() if line.startswith("soak:") and "whole run" in line)
    actions = int(summary.split()[1])
    assert actions == sum(int(r[1]) for r in rows), "every window's round trips, no more"
    assert "of 2 windows had a p99 over 50 ms" in summary


def test_a_server_of_two_workers_is_measured_whole(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--levels", "4", "--seconds", "6", "--think", "0.2", "--pace", "0.1",
         "--bot-delay", "0.2", "--workers", "2", "--db", f"sqlite:///{tmp_path / 'load.db'}"],
        capture_output=True, text=True, timeout=180, check=True).stdout
    assert "(2 worker processes)" in out, out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert len(rows) == 1, out
    actions, cpu, rss, errors = float(rows[0][1]), float(rows[0][5]), float(rows[0][6]), float(rows[0][8])
    assert actions >= 5 and errors == 0, out
    # the workers play the tables: counted as the server (the front alone is idle and ~60 MB)
    assert cpu >= 1 and rss > 150, out  # (a loaded machine gives the workers little CPU; their memory shows them)
    assert "server tracebacks: 0" in out
