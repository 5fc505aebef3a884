"""The store off the event loop: group commit, confirmation only once durable, durable
clocks across a restart, finished tables leaving memory."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any, cast

import pytest
from sqlalchemy import text
from starlette.websockets import WebSocket

from knockabout.core import Rng
from knockabout.server import ServerSettings
from knockabout.server.live import Connection, LiveTable, Manager, token_hash
from knockabout.store import Store, StoredTable, action_op, create_op
from knockabout.table import Seat, Table
from tests.server.conftest import my_turn, receive_until, run_async, stored
from tests.table.conftest import FakeClock, legal

pytestmark = pytest.mark.timeout(120)


# -- the writer thread
def test_writes_queued_during_a_commit_share_the_next_transaction(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'k.db'}")
    gate = threading.Event()

    async def main() -> None:
        await store.commit(create_op(stored("t")))
        first = asyncio.ensure_future(store.commit(lambda s: gate.wait(5)))  # a commit that takes a while
        await asyncio.sleep(0.05)
        rest = [asyncio.ensure_future(store.commit(action_op("t", i, 0, f"a{i}", "person"))) for i in range(20)]
        await asyncio.sleep(0.05)
        gate.set()
        await asyncio.gather(first, *rest)

    run_async(main())
    writer = store.writer
    assert writer is not None
    assert writer.writes == 22 and writer.commits == 3, "the 20 writes queued meanwhile went in one transaction"
    assert store.get("t").actions == [f"a{i}" for i in range(20)]  # type: ignore[union-attr]
    store.close()


def test_a_refused_write_fails_alone_and_its_group_is_kept(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'k.db'}")
    store.create(stored("t"))
    store.append_action("t", 0, 0, "draw", "person")
    gate = threading.Event()

    async def main() -> list[BaseException | None]:
        block = asyncio.ensure_future(store.commit(lambda s: gate.wait(5)))
        await asyncio.sleep(0.05)
        group = [store.commit(action_op("t", 1, 0, "one", "person")),
                 store.commit(action_op("t", 0, 0, "rewrite history", "person")),  # step 0 is written
                 store.commit(action_op("t", 2, 0, "two", "person"))]
        futures = [asyncio.ensure_future(g) for g in group]
        await asyncio.sleep(0.05)
        gate.set()
        await block
        return list(await asyncio.gather(*futures, return_exceptions=True))

    results = run_async(main())
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], Exception)
    assert store.get("t").actions == ["draw", "one", "two"]  # type: ignore[union-attr]
    store.close()


def test_sqlite_files_use_write_ahead_logging(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'k.db'}")
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    store.close()


def test_no_frame_tells_of_an_action_before_it_is_durable(make_client: Any) -> None:
    with make_client() as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random"], "seed": 4}).json()
        store: Store = c.app.state.store
        live = c.app.state.manager.get(made["id"])
        durable = [0]
        real_commit = store.commit
        sent_early: list[int] = []

        async def commit(*ops: Any) -> None:
            await asyncio.sleep(0.01)  # a slow disk
            await real_commit(*ops)
            durable[0] = len(store.get(made["id"]).actions)  # type: ignore[union-attr]

        real_send = live.send_text

        async def send_text(conn: Any, text: str) -> None:  # every frame: syncs, updates and patches
            data = json.loads(text)
            if data.get("type") in ("sync", "update", "patch") and data["version"] > durable[0]:
                sent_early.append(data["version"])
            await real_send(conn, text)

        store.commit = commit  # type: ignore[method-assign]
        live.send_text = send_text
        with c.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            for _ in range(6):
                msg = receive_until(ws, my_turn(0))
                if msg["outcome"] is not None:
                    break
                ws.send_json({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
            receive_until(ws, my_turn(0))
        assert durable[0] >= 6
        assert sent_early == [], "every frame came after its actions were in the store"


# -- durable clocks
def countdown_actions(seconds: float) -> tuple[int, list[str]]:
    """A seed and the actions that leave seat 1's answer to a Countdown pending (seat 0
    started it with its last action)."""
    for seed in range(200):
        t = Table("nak-muay", [Seat("person", "a"), Seat("person", "b")],
                  {"players": 2, "countdown_seconds": seconds}, seed)
        rng = Rng(seed)
        for _ in range(300):
            d = t.decision()
            if t.over or d is None:
                break
            options = legal(t)
            if d.player == 0 and "countdown" in options:
                t.act(0, "countdown", t.version)
                d = t.decision()
                if d is not None and d.player == 1 and d.time_limit == seconds:
                    return seed, [e.action for e in t.log]
                break
            t.act(d.player, options[rng.below(len(options))], t.version)
    raise AssertionError("no seed leads to a Countdown")


def test_a_restart_resumes_a_countdown_with_the_time_actually_left_and_a_lapsed_one_times_out(
        tmp_path: Path) -> None:
    seed, actions = countdown_actions(30.0)
    clock, wall = FakeClock(), FakeClock()
    wall.now = 1_700_000_000.0
    settings = ServerSettings(db_url=f"sqlite:///{tmp_path / 'k.db'}", bot_delay=0, bot_pace=0,
                              grace_seconds=600, clock=clock, wall_clock=wall)
    store = Store(settings.db_url)
    tokens = [token_hash("t0"), token_hash("t1")]
    store.create(StoredTable(id="cd", game="nak-muay", rules_version="1.0",
                             config={"players": 2, "countdown_seconds": 30.0}, seed=seed,
                             seats=[{"kind": "person", "name": n, "level": None, "token": tok}
                                    for n, tok in zip("ab", tokens, strict=True)], status="playing"))
    for i, a in enumerate(actions[:-1]):
        store.append_action("cd", i, 0, a, "person")

    async def first_run() -> None:
        m = Manager(settings, store)
        assert m.resume_all() == 1
        live = m.get("cd")
        assert live is not None
        await live.act(Connection(cast(WebSocket, None), 0), "countdown", live.table.version)
        assert live.table.time_left() == pytest.approx(30.0)
        await m.close()

    run_async(first_run())
    clock.advance(1000.0)  # a new process: its monotonic clock has nothing to do with the old one
    wall.advance(5.0)  # the server was down for 5 s of the Countdown's 30

    async def second_run() -> LiveTable:
        m = Manager(settings, store)
        assert m.resume_all() == 1
        live = m.get("cd")
        assert live is not None
        assert live.table.time_left() == pytest.approx(25.0), "the clock goes on, it does not start again"
        await m.close()
        return live

    run_async(second_run())
    wall.advance(40.0)  # down again, past the deadline

    async def third_run() -> None:
        m = Manager(settings, store)
        m.resume_all()
        live = m.get("cd")
        assert live is not None
        for _ in range(200):
            kept = await asyncio.to_thread(store.get, "cd")
            if kept is not None and len(kept.actions) > len(actions):
                break
            await asyncio.sleep(0.01)
        assert live.table.log[len(actions)].by == "timeout", "the lapsed Countdown timed out at once"
        await m.close()

    run_async(third_run())
    kept = store.get("cd")
    assert kept is not None and kept.actions[: len(actions)] == actions
    assert len(kept.actions) > len(actions), "the timeout is in the store too"
    store.close()


def test_finished_tables_leave_memory_after_their_time_and_the_store_answers(make_client: Any) -> None:
    with make_client(finished_ttl=0.2) as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["random", "random"], "seed": 2}).json()
        manager = c.app.state.manager
        for _ in range(500):
            live = manager.get(made["id"])
            if live is None or live.table.over:
                break
            time.sleep(0.02)
        assert c.get(f"/api/tables/{made['id']}").json()["status"] == "finished"
        for _ in range(100):
            if manager.get(made["id"]) is None:
                break
            time.sleep(0.02)
        assert manager.get(made["id"]) is None, "gone from memory"
        info = c.get(f"/api/tables/{made['id']}").json()
        assert info["status"] == "finished" and info["steps"] > 0 and info["version"] == info["steps"]
        assert c.get(f"/api/tables/{made['id']}/replay/1").status_code == 200


def test_a_write_whose_caller_stopped_waiting_is_still_made_and_the_writer_goes_on(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'k.db'}")
    store.create(stored("t"))
    gate = threading.Event()

    async def main() -> None:
        block = asyncio.ensure_future(store.commit(lambda s: gate.wait(5)))
        await asyncio.sleep(0.05)
        given_up = asyncio.ensure_future(store.commit(action_op("t", 0, 0, "draw", "person")))
        await asyncio.sleep(0.01)
        given_up.cancel()  # e.g. its table's task stopped at shutdown
        gate.set()
        await block
        await store.commit(action_op("t", 1, 0, "take", "person"))

    run_async(main())
    assert store.get("t").actions == ["draw", "take"]  # type: ignore[union-attr]
    store.close()
