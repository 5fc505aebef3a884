"""Two servers sharing one database (SQLite and PostgreSQL), in one process: a table is
played by one at a time, under its lease. It moves to the server its connections reach,
a server that stops renewing (its event loop frozen past its lease) has its tables taken
and writes nothing more, and a server that stops gracefully lets its tables go at once.
(The same with real processes behind HAProxy: tests/server/test_multihost.py.)"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from knockabout.bots import levels
from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.replay import GameRecord, replay
from knockabout.core.rng import Rng
from knockabout.server import ServerSettings, create_app
from knockabout.store import Store
from knockabout.store.schema import ActionRow
from tests.server.conftest import my_turn, receive, receive_until

pytestmark = pytest.mark.timeout(180)

LEASE = 2.0


@contextmanager
def host(db_url: str, name: str, **kw: Any) -> Iterator[TestClient]:
    settings = ServerSettings(db_url=db_url, host_name=name, lease_seconds=LEASE,
                              bot_delay=kw.pop("bot_delay", 0.0), bot_pace=kw.pop("bot_pace", 0.0),
                              grace_seconds=kw.pop("grace", 60.0), **kw)
    with TestClient(create_app(settings)) as client:
        yield client


def wait_for(what: Any, seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = what()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("it never happened")


def leases_by_step(db_url: str, table_id: str) -> list[int | None]:
    store = Store(db_url, writer="thread")
    try:
        with Session(store.engine) as s:
            return [r[0] for r in s.execute(select(ActionRow.lease).where(ActionRow.table_id == table_id)
                                            .order_by(ActionRow.step))]
    finally:
        store.close()


def replays_to_its_result(db_url: str, table_id: str) -> None:
    store = Store(db_url, writer="thread")
    try:
        st = store.get(table_id)
        assert st is not None and st.status == "finished" and st.result is not None
        state = replay(GameRecord(game=st.game, rules_version=st.rules_version, config=st.config, seed=st.seed,
                                  content_hash=st.content_hash, actions=st.actions))
        outcome = state.outcome()
        assert outcome is not None and outcome.to_dict() == st.result
    finally:
        store.close()


def test_a_table_moves_to_the_server_its_connections_reach(db_url: str) -> None:
    with host(db_url, "h1") as one, host(db_url, "h2") as two:
        made = one.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random"], "name": "Ann",
                                             "seed": 3, "config": {"max_turns": 2000}}).json()
        table_id = made["id"]
        with one.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            for _ in range(3):
                msg = receive_until(ws, my_turn(0))
                assert msg["outcome"] is None
                ws.send_json({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
            before = receive_until(ws, my_turn(0))
            with two.websocket_connect(f"/ws/tables/{table_id}") as ws2:  # the balancer sends the table to h2 now
                ws2.send_json({"type": "hello", "token": made["token"]})
                sync = receive_until(ws2, lambda m: m["type"] == "sync")
                assert sync["version"] == before["version"] and sync["view"] == before["view"]
                assert sync["legal"] == before["legal"], "the same decision, resumed"
                with pytest.raises(Exception):  # noqa: B017 - h1 closed its connection: 1012, connect again
                    for _ in range(100):
                        receive(ws)
                ws2.send_json({"type": "act", "action": sync["legal"][0], "version": sync["version"]})
                after = receive_until(ws2, lambda m: m["type"] == "update" and m["version"] > sync["version"])
                assert after["version"] > before["version"]
        assert one.get("/api/host").json()["released"] == 1
        assert two.get("/api/host").json()["taken"] == 1
        assert table_id not in one.app.state.manager.tables  # type: ignore[attr-defined]
        again = one.get(f"/api/tables/{table_id}")
        assert again.status_code == 200, again.text
        assert again.json()["version"] >= after["version"], "asked again, h1 takes it back (the balancer's choice)"
    assert leases_by_step(db_url, table_id) == sorted(leases_by_step(db_url, table_id))


def fail_next_commit(client: Any, error: Exception) -> list[int]:
    """Make the next write of ``client``'s server raise ``error`` (the rest go through);
    the list returned gets a 1 when it did."""
    store = client.app.state.store
    commit = store.commit
    failed: list[int] = []

    async def fails_once(*ops: Any) -> None:
        if not failed:
            failed.append(1)
            raise error
        await commit(*ops)

    store.commit = fails_once
    return failed


def test_a_table_taken_by_another_while_it_was_resumed_here_stays_playable_here(db_url: str) -> None:
    """The resumed clock's write is the first under a new lease; if the fence refuses it
    (another server took the table meanwhile) the table is only not this server's yet: a
    request for it goes on waiting and then resumes it. (Once it was counted a game this
    build cannot replay, and every later request for it here was refused for good.)"""
    from knockabout.store.fence import lease_lost

    with host(db_url, "h1") as one, host(db_url, "h2") as two:
        made = one.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random"], "name": "Ann",
                                             "seed": 3, "config": {"max_turns": 2000}}).json()
        refused = fail_next_commit(two, lease_lost(made["id"], 0))
        with two.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            sync = receive_until(ws, lambda m: m["type"] in ("sync", "error"))
            assert sync["type"] == "sync", sync
        assert refused == [1], "the first resume's write was refused"
        assert two.get(f"/api/tables/{made['id']}").status_code == 200


def test_a_move_that_could_not_be_saved_is_not_kept_and_the_table_resumes_from_the_store(db_url: str) -> None:
    """A write that fails (the database away, a connection it ended) leaves the table here
    ahead of its stored log: it is let go (the connection closed with 1012) and the next
    connection resumes it from the store, where the move is not, so the player is asked
    again; the stored log stays whole and replays."""
    with host(db_url, "h1") as one:
        made = one.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random"], "name": "Ann",
                                             "seed": 3, "config": {"max_turns": 60}}).json()
        with one.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            before = receive_until(ws, my_turn(0))
            failed = fail_next_commit(one, OperationalError("INSERT", {}, Exception("server closed the connection")))
            ws.send_json({"type": "act", "action": before["legal"][0], "version": before["version"]})
            with pytest.raises(Exception):  # noqa: B017 - the table was let go: 1012, connect again
                for _ in range(100):
                    receive(ws)
        assert failed == [1]
        assert one.get("/api/host").json()["unsaved"] == 1
        with one.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            sync = receive_until(ws, lambda m: m["type"] == "sync")
            assert sync["version"] == before["version"] and sync["legal"] == before["legal"], "asked again"
            msg = sync
            for _ in range(400):
                ws.send_json({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
                msg = receive_until(ws, lambda m: m["outcome"] is not None or my_turn(0)(m))
                if msg["outcome"] is not None:
                    break
    replays_to_its_result(db_url, made["id"])


def test_a_player_connecting_to_a_table_that_ended_elsewhere_is_shown_its_end(db_url: str) -> None:
    """A game can end while its player is away (a bot's move, a reaction window running
    out), on another server or long enough ago that it left this one's memory: connecting
    shows the end, rebuilt from the store, instead of 'no such live table'."""
    with host(db_url, "h1", finished_ttl=0.2) as one:
        made = one.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random"], "name": "Ann",
                                             "seed": 3, "config": {"max_turns": 60}}).json()
        with one.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            for _ in range(400):
                msg = receive_until(ws, lambda m: m["outcome"] is not None or my_turn(0)(m))
                if msg["outcome"] is not None:
                    break
                ws.send_json({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
        end = msg
        tables = one.app.state.manager.tables  # type: ignore[attr-defined]
        wait_for(lambda: made["id"] not in tables, 5)
        with one.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            sync = receive_until(ws, lambda m: m["type"] in ("sync", "error"))
        assert sync["type"] == "sync", sync
        assert sync["outcome"] == end["outcome"] and sync["version"] == end["version"] and sync["legal"] == []


def bots_playing(client: Any, steps: int) -> dict[str, Any]:
    """A Nak Muay table of two random bots on ``client``'s host, once it has played ``steps``
    steps and is still playing. A deal can end at once (a KO drawn with no Block): then
    another table is made, so the tests below always have a game in progress to move."""
    for _ in range(10):
        made: dict[str, Any] = client.post("/api/tables", json={"game": "nak-muay", "seats": ["random", "random"],
                                                                "config": {"max_turns": 60}}).json()
        url = f"/api/tables/{made['id']}"

        def moved_on(url: str = url) -> dict[str, Any] | None:
            f: dict[str, Any] = client.get(url).json()
            return f if f["version"] >= steps or f["status"] == "finished" else None

        facts = wait_for(moved_on)
        if facts["status"] != "finished":
            return made
    raise AssertionError("ten deals in a row ended at once")


def test_a_frozen_server_loses_its_table_and_writes_nothing_after(db_url: str) -> None:
    """h1's event loop stops for three lease times (as a stopped or cut-off host): h2
    takes the table by sweeping, plays it to its end, and what h1 tries when it wakes is
    refused; the stored log replays to the stored result, each step written under a
    generation no older than the step before's."""
    with host(db_url, "h1", bot_pace=0.05) as one, host(db_url, "h2", bot_pace=0.05) as two:
        table_id = bots_playing(one, 3)["id"]
        frozen = threading.Thread(target=one.portal.call, args=(time.sleep, 3 * LEASE + 0.5))  # type: ignore[union-attr]
        frozen.start()
        taken = wait_for(lambda: two.get("/api/host").json()["taken"] >= 1, 3 * LEASE + 2)
        assert taken and frozen.is_alive(), "taken while h1 was still frozen"
        frozen.join()
        wait_for(lambda: one.get("/api/host").json()["lost"] >= 1)
        assert table_id not in one.app.state.manager.tables  # type: ignore[attr-defined]
        wait_for(lambda: two.get(f"/api/tables/{table_id}").json()["status"] == "finished", 60)
    generations = leases_by_step(db_url, table_id)
    assert generations == sorted(generations) and generations[0] == 1 and generations[-1] >= 2
    replays_to_its_result(db_url, table_id)


def test_a_server_that_stops_lets_its_tables_go_at_once(db_url: str) -> None:
    with host(db_url, "h2", bot_pace=0.05) as two:
        with host(db_url, "h1", bot_pace=0.05) as one:
            made = bots_playing(one, 2)
        stopped = time.monotonic()
        wait_for(lambda: two.get("/api/host").json()["taken"] >= 1, 10)
        assert time.monotonic() - stopped < LEASE + 1, "taken at the next renewal, not after the lease ran out"
        wait_for(lambda: two.get(f"/api/tables/{made['id']}").json()["status"] == "finished", 60)
    replays_to_its_result(db_url, made["id"])


def test_a_late_renewal_lets_nothing_go_and_failing_ones_do(tmp_path: Path) -> None:
    """A renewal that works but whose round ends late (a long sweep after it, a busy
    machine) keeps the tables; renewals that fail for a lease time (the database away)
    let every table go and turn the health check to 503 until one works again."""
    with host(f"sqlite:///{tmp_path / 'k.db'}", "h1") as one:
        made = one.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "open"]}).json()
        tables = one.app.state.manager.tables  # type: ignore[attr-defined]
        ownership = one.app.state.manager.ownership  # type: ignore[attr-defined]
        sweep, renew, let_go = ownership.sweep, ownership.leases.renew, ownership.let_go
        slow: list[float] = []
        gone: list[str] = []

        def letting_go(live: Any, why: str) -> None:
            gone.append(live.id)
            let_go(live, why)

        ownership.let_go = letting_go

        async def slow_sweep() -> None:
            if not slow:
                slow.append(time.monotonic())
                await asyncio.sleep(1.5 * LEASE)  # the round ends past the lease time
            await sweep()

        ownership.sweep = slow_sweep
        wait_for(lambda: slow and time.monotonic() - slow[0] > 2 * LEASE)
        assert one.get("/healthz").status_code == 200 and made["id"] in tables
        assert gone == [], "a renewal that worked, late, let the tables go"

        def away() -> int:
            raise OperationalError("renew", {}, Exception("the database is away"))

        ownership.leases.renew = away
        wait_for(lambda: one.get("/healthz").status_code == 503, 4 * LEASE)
        assert gone == [made["id"]] and made["id"] not in tables
        ownership.leases.renew = renew
        wait_for(lambda: one.get("/healthz").status_code == 200, 4 * LEASE)


class Ponderer(Bot):
    """Thinks a while on every move, and says when a thinking has begun."""

    name = "ponderer"

    def __init__(self, begun: threading.Event) -> None:
        self.begun = begun

    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        self.begun.set()
        time.sleep(0.2)
        return legal[0]


def test_a_server_that_was_away_learns_its_bots_release_floors_afresh(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot thinking under way when the server stopped (a stopped or cut-off host: here its
    event loop stops for three lease times) ends only after it, so its time counts the time
    away. That must teach no release floor: one would hold back every move of that level on
    this server (and on each table that comes to it) for its next thinkings."""
    begun = threading.Event()
    monkeypatch.setitem(levels.LEVELS, "ponderer", lambda game_id: Ponderer(begun))
    with host(f"sqlite:///{tmp_path / 'k.db'}", "h1", bot_pace=0.05) as one:
        manager = one.app.state.manager  # type: ignore[attr-defined]
        made = one.post("/api/tables", json={"game": "nak-muay", "seats": ["ponderer", "ponderer"],
                                             "config": {"max_turns": 60}}).json()
        live = manager.get(made["id"])
        begun.clear()
        assert begun.wait(10)
        one.portal.call(time.sleep, 3 * LEASE)  # type: ignore[union-attr]
        back = time.monotonic()
        wait_for(lambda: manager.ownership.renewed_at > back)
        first = manager.ownership.renewed_at
        wait_for(lambda: manager.ownership.renewed_at > first)  # (the renewal that found it away has ended)
        learned = [f for recent in manager.think_floors.recent.values() for f in recent]
        assert max(learned, default=0.0) < LEASE, f"a floor counted the time away: {learned}"
        assert live.table.think_floor < LEASE
        later = one.post("/api/tables", json={"game": "nak-muay", "seats": ["ponderer", "random"]}).json()
        assert manager.get(later["id"]).table.think_floor < LEASE
