"""The server's garbage-collection schedule (knockabout.server.collector): while a server
runs, Python starts no full collection by itself, the server runs one every so often, and
Python's own schedule is back once the last server stops."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from knockabout.cli.main import app as cli
from knockabout.server import ServerSettings, create_app
from knockabout.server.collector import NEVER, CollectorSchedule
from tests.server.test_durable_store import run_async  # (asyncio.run on a thread of its own)


@pytest.fixture(autouse=True)
def python_schedule() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)  # (a failing test must not leave its schedule to the others)
    gc.unfreeze()


def test_a_running_schedule_stops_full_collections_and_freezes_what_the_server_holds() -> None:
    young, middle, oldest = gc.get_threshold()
    kept = [object() for _ in range(10)] + [[i] for i in range(10)]  # noqa: F841 (held through start)

    async def run() -> tuple[tuple[int, int, int], int]:
        schedule = CollectorSchedule(300.0)
        schedule.start()
        try:
            return gc.get_threshold(), gc.get_freeze_count()
        finally:
            await schedule.stop()

    during, frozen = run_async(run())
    assert during == (young, middle, NEVER)
    assert frozen > 0
    assert gc.get_threshold() == (young, middle, oldest)
    assert gc.get_freeze_count() == 0


def test_the_schedule_runs_full_collections_itself_and_they_free_cycles() -> None:
    class Node:
        def __init__(self) -> None:
            self.me = self

    async def run() -> list[float]:
        schedule = CollectorSchedule(0.05)
        schedule.start()
        try:
            for _ in range(50):
                Node()  # unreachable cycles: only a full (or young) collection frees them
            await asyncio.sleep(0.3)
            return list(schedule.pauses)
        finally:
            await schedule.stop()

    pauses = run_async(run())
    assert len(pauses) >= 2, "a full collection every 0.05 s"
    assert not any(isinstance(o, Node) for o in gc.get_objects())


def test_servers_in_one_process_share_one_schedule() -> None:
    before = gc.get_threshold()

    async def run() -> list[int]:
        a, b = CollectorSchedule(300.0), CollectorSchedule(300.0)
        a.start()
        b.start()
        seen = [gc.get_threshold()[2]]
        await a.stop()
        seen.append(gc.get_threshold()[2])  # b still runs: still no full collection by Python
        await b.stop()
        seen.append(gc.get_threshold()[2])
        return seen

    assert run_async(run()) == [NEVER, NEVER, before[2]]


def test_zero_leaves_pythons_schedule_alone() -> None:
    before = gc.get_threshold()

    async def run() -> tuple[int, int, int]:
        schedule = CollectorSchedule(0.0)
        schedule.start()
        try:
            return gc.get_threshold()
        finally:
            await schedule.stop()

    assert run_async(run()) == before
    with pytest.raises(ValueError, match=r"0 \(Python's schedule\) or more"):
        CollectorSchedule(-1.0)


def test_a_server_keeps_the_schedule_while_it_runs(tmp_path: Path) -> None:
    before = gc.get_threshold()
    settings = ServerSettings(db_url=f"sqlite:///{tmp_path / 'k.db'}", full_gc_every=300.0)
    with TestClient(create_app(settings)) as client:
        assert client.get("/api/games").status_code == 200
        assert gc.get_threshold()[2] == NEVER
        assert client.app.state.collector.every == 300.0  # type: ignore[attr-defined]
    assert gc.get_threshold() == before
    with TestClient(create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'k.db'}"))):
        assert gc.get_threshold() == before  # the settings' default: Python's schedule


def test_serve_refuses_a_negative_interval_in_one_line() -> None:
    out = CliRunner().invoke(cli, ["serve", "--full-gc-every", "-5"])
    assert out.exit_code != 0
    assert "--full-gc-every" in out.output
    assert "Traceback" not in out.output
