"""Table leases and the fence on every write, on SQLite and PostgreSQL: one holder at a
time, a lease that runs out is taken with a new generation, and a write made under an
old generation is refused on every way the store writes (a session, the writer thread's
quick path, the writer process), alone in its group commit, with nothing written."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from knockabout.store import Store, action_op, clock_op, create_op, finish_op, undo_op
from knockabout.store.fence import LeaseLost
from knockabout.store.leases import Lease, Leases, preferred
from knockabout.store.schema import ActionRow, LeaseRow
from knockabout.store.store import PlainWrites, run_ops
from knockabout.store.writer import Writer
from tests.server.conftest import stored

pytestmark = pytest.mark.timeout(120)


def lease(store: Store, table_id: str) -> Lease | None:
    return Leases(store.engine, "reader", 5.0).get(table_id)


def leased_table(store: Store, table_id: str, owner: str = "h1", seconds: float = 30.0) -> None:
    """A new table held by ``owner``, whose hold runs ``seconds`` from now (negative: it ran out)."""
    Leases(store.engine, owner, seconds).renew()
    store.run(create_op(stored(table_id), owner=owner))


def actions(store: Store, table_id: str) -> list[tuple[int, str, int | None]]:
    with Session(store.engine) as s:
        rows = s.execute(select(ActionRow.step, ActionRow.action, ActionRow.lease)
                         .where(ActionRow.table_id == table_id).order_by(ActionRow.step)).all()
        return [(r[0], r[1], r[2]) for r in rows]


def test_a_new_table_is_leased_to_its_maker_and_a_running_lease_cannot_be_taken(db_url: str) -> None:
    store = Store(db_url, writer="thread")
    leased_table(store, "t")
    got = lease(store, "t")
    assert got is not None and got.owner == "h1" and got.generation == 1 and 25 < got.left <= 30
    assert not got.free
    other = Leases(store.engine, "h2", 5.0)
    assert other.claim("t", got) is None, "a running lease is not taken"
    store.run(action_op("t", 0, 0, "draw", "person", lease=1))
    assert actions(store, "t") == [(0, "draw", 1)]
    store.close()


def test_a_lease_that_ran_out_is_taken_with_the_next_generation_and_the_old_one_writes_nothing(db_url: str) -> None:
    store = Store(db_url, writer="thread")
    leased_table(store, "t", seconds=-1.0)  # run out at once
    seen = lease(store, "t")
    assert seen is not None and seen.free
    h2 = Leases(store.engine, "h2", 30.0)
    assert h2.claim("t", seen) == 2
    assert Leases(store.engine, "h3", 30.0).claim("t", seen) is None, "one taker only"
    with pytest.raises(LeaseLost, match="another server"):
        store.run(action_op("t", 0, 0, "late", "bot", lease=1))
    with pytest.raises(LeaseLost):
        store.run(clock_op("t", 0, 99.0, lease=1))
    with pytest.raises(LeaseLost):
        store.run(finish_op("t", {"winner": 0}, lease=1))
    store.run(action_op("t", 0, 0, "draw", "person", lease=2))
    store.run(action_op("t", 1, 0, "pass", "person", lease=2))
    with pytest.raises(LeaseLost):  # moves taken back on the old holder's table: nothing goes
        store.run(undo_op("t", 1, lease=1))
    assert actions(store, "t") == [(0, "draw", 2), (1, "pass", 2)]
    store.run(undo_op("t", 1, lease=2))  # the holder's undo takes step 1 out of the log
    assert actions(store, "t") == [(0, "draw", 2)]
    t = store.get("t")
    assert t is not None and t.status == "waiting" and t.clock_deadline is None
    store.close()


def test_the_quick_path_and_the_group_commit_fence_each_write_alone(db_url: str) -> None:
    """The writer thread's group: writes behind a lease that moved on fail alone with
    LeaseLost; the other tables' writes in the same transaction are committed."""
    store = Store(db_url, writer="thread")
    for t in ("a", "b"):
        leased_table(store, t)
    leased_table(store, "c", owner="h0", seconds=-1.0)  # (h0's hold ran out; h1's runs)
    seen = lease(store, "c")
    assert Leases(store.engine, "h2", 30.0).claim("c", seen) == 2
    plain = PlainWrites(store.engine)
    assert plain.usable
    writer = Writer(store.engine, run_ops, plain)

    async def main() -> list[Any]:
        return await asyncio.gather(
            writer.write([action_op("a", 0, 0, "x", "person", lease=1), clock_op("a", 1, 5.0, lease=1)]),
            writer.write([action_op("c", 0, 0, "late", "bot", lease=1)]),
            writer.write([action_op("b", 0, 0, "y", "person", lease=1)]),
            return_exceptions=True)

    a, c, b = asyncio.run(main())
    writer.close()
    assert a is None and b is None
    assert isinstance(c, LeaseLost)
    assert actions(store, "a") == [(0, "x", 1)] and actions(store, "b") == [(0, "y", 1)]
    assert actions(store, "c") == []
    plain_alone = PlainWrites(store.engine)
    with pytest.raises(Exception, match="leases moved on"):
        plain_alone.run([action_op("c", 0, 0, "late", "bot", lease=1)])
    assert actions(store, "c") == []
    assert plain_alone.run([action_op("c", 0, 0, "ok", "bot", lease=2)]), "the connection is still good"
    assert actions(store, "c") == [(0, "ok", 2)]
    store.close()


def test_the_writer_process_refuses_a_write_behind_an_old_lease(db_url: str) -> None:
    store = Store(db_url, writer="process")
    leased_table(store, "t", owner="h0", seconds=-1.0)
    leased_table(store, "u")
    assert Leases(store.engine, "h2", 30.0).claim("t", lease(store, "t")) == 2

    async def main() -> list[Any]:
        return await asyncio.gather(store.commit(action_op("t", 0, 0, "late", "bot", lease=1)),
                                    store.commit(action_op("u", 0, 0, "fine", "bot", lease=1)),
                                    return_exceptions=True)

    late, fine = asyncio.run(main())
    store.close()
    assert isinstance(late, LeaseLost) and fine is None
    store = Store(db_url, writer="thread")
    assert actions(store, "t") == [] and actions(store, "u") == [(0, "fine", 1)]
    store.close()


def test_renewing_asking_and_releasing(db_url: str) -> None:
    store = Store(db_url, writer="thread")
    leased_table(store, "t", seconds=-1.0)
    assert lease(store, "t").free  # type: ignore[union-attr]
    assert "h1" not in Leases(store.engine, "x", 1.0).alive()
    h1 = Leases(store.engine, "h1", 30.0)
    assert h1.renew() == 1, "one row renewed: the holder's; it holds one table"
    got = lease(store, "t")
    assert got is not None and got.left > 25 and not got.free
    assert h1.held() == {"t": 1}
    assert "h1" in h1.alive()
    h2 = Leases(store.engine, "h2/1", 30.0)
    h2.ask("t")
    assert h1.wanted() == [("t", 1, "h2/1")]
    assert h2.claim("t", lease(store, "t")) is None, "asking is not taking"
    assert h1.release("t", 1)
    assert not h1.release("t", 1), "released once"
    freed = lease(store, "t")
    assert freed is not None and freed.owner is None and freed.generation == 2 and freed.free
    assert freed.wanted_by == "h2/1", "the others leave it to the holder that asked"
    with pytest.raises(LeaseLost):  # a write still on its way from the holder that let it go
        store.run(action_op("t", 0, 0, "late", "bot", lease=1))
    assert h2.claim("t", freed) == 3
    assert h1.held() == {} and h2.held() == {"t": 3}
    store.close()


def test_a_holder_that_leaves_frees_its_tables_at_once(db_url: str) -> None:
    store = Store(db_url, writer="thread")
    leased_table(store, "t", owner="h1/0")
    h1 = Leases(store.engine, "h1/0", 30.0)
    h2 = Leases(store.engine, "h2", 30.0)
    assert h2.renew() == 0
    assert h2.free() == [] and sorted(h2.alive()) == ["h1", "h2"]
    h1.leave()
    freed = h2.free()
    assert [x.table_id for x in freed] == ["t"] and freed[0].owner == "h1/0" and freed[0].free
    assert h2.alive() == ["h2"]
    assert h2.claim("t", freed[0]) == 2
    store.close()


def test_a_finished_table_has_no_lease_and_a_table_without_one_is_taken_by_inserting_it(db_url: str) -> None:
    store = Store(db_url, writer="thread")
    leased_table(store, "t")
    store.run(finish_op("t", {}, lease=1))
    assert lease(store, "t") is None
    store.run(create_op(stored("old")))  # made without a lease (a tool, or before leases)
    h1 = Leases(store.engine, "h1", 30.0)
    assert h1.unleased() == ["old"]
    assert h1.claim("old", None) == 1
    assert Leases(store.engine, "h2", 30.0).claim("old", None) is None
    assert h1.unleased() == []
    store.close()


def test_a_write_past_the_fence_commits_before_a_taking_that_came_meanwhile(db_url: str) -> None:
    """The taker waits for a transaction that passed the fence, and then reads its write:
    no confirmed move is lost in a hand-over."""
    store = Store(db_url, writer="thread")
    leased_table(store, "t", seconds=-1.0)
    seen = lease(store, "t")
    taken: list[int | None] = []
    with Session(store.engine) as s, s.begin():
        run_ops(s, [action_op("t", 0, 0, "just in time", "person", lease=1)])
        taker = threading.Thread(target=lambda: taken.append(Leases(store.engine, "h2", 30.0).claim("t", seen)))
        taker.start()
        time.sleep(0.5)
        assert taken == [], "the taking waits for the write's transaction"
    taker.join(30)
    assert taken == [2]
    assert actions(store, "t") == [(0, "just in time", 1)]
    store.close()


def test_the_preferred_host_is_stable_and_spreads_the_tables() -> None:
    hosts = ["h1", "h2", "h3"]
    ids = [f"table{i}" for i in range(3000)]
    first = {t: preferred(t, hosts) for t in ids}
    counts = {h: sum(1 for p in first.values() if p == h) for h in hosts}
    assert all(800 < n < 1200 for n in counts.values()), counts
    without = {t: preferred(t, ["h1", "h3"]) for t in ids}
    assert all(without[t] == first[t] for t in ids if first[t] != "h2"), "only the gone host's tables move"
    assert preferred("x", []) is None


def test_lease_rows_are_declared(db_url: str) -> None:
    store = Store(db_url, writer="thread")
    leased_table(store, "t", owner="h1/0")
    with Session(store.engine) as s:
        row = s.get(LeaseRow, "t")
        assert row is not None and row.owner == "h1/0" and row.wanted_by is None
    store.close()


def test_a_writer_stopped_past_the_fence_holds_the_lease_no_longer_than_its_idle_time(postgres_url: str) -> None:
    """A server stopped (or cut off) between its fence and its commit keeps its lease rows
    locked; PostgreSQL ends that idle transaction after the store's idle time, so another
    host takes the table then instead of waiting for the lost connection to be noticed,
    and the stopped write is never committed."""
    store = Store(postgres_url, writer="thread", idle_transaction_seconds=0.5)
    leased_table(store, "t", seconds=-1.0)
    seen = lease(store, "t")
    taken: list[int | None] = []
    waited = 0.0
    with pytest.raises(DBAPIError), Session(store.engine) as s, s.begin():  # (the ended session's error)
        run_ops(s, [action_op("t", 0, 0, "never committed", "person", lease=1)])
        taker = threading.Thread(target=lambda: taken.append(Leases(store.engine, "h2", 30.0).claim("t", seen)))
        started = time.monotonic()
        taker.start()
        taker.join(10)  # the stopped writer sends nothing meanwhile
        waited = time.monotonic() - started
    assert taken == [2], "the taking waited for the stopped writer's transaction past its idle time"
    assert waited < 5
    assert actions(store, "t") == []
    assert lease(store, "t") is not None and lease(store, "t").generation == 2  # type: ignore[union-attr]
    store.close()


def test_the_idle_time_is_set_on_postgresql_only_beside_the_options_a_url_sets() -> None:
    from knockabout.store.store import database_url, end_idle_transactions

    pg = end_idle_transactions(database_url("postgresql://u@h/db"), 2.0)
    assert pg.query["options"] == "-c idle_in_transaction_session_timeout=2000"
    own = end_idle_transactions(database_url("postgresql://u@h/db?options=-csearch_path%3Dx"), 0.5)
    assert own.query["options"] == "-csearch_path=x -c idle_in_transaction_session_timeout=500"
    chosen = database_url("postgresql://u@h/db?options=-c%20idle_in_transaction_session_timeout%3D9000")
    assert end_idle_transactions(chosen, 2.0) == chosen
    lite = database_url("sqlite:///x.db")
    assert end_idle_transactions(lite, 2.0) == lite


def test_a_renewal_on_a_connection_the_database_ended_is_made_once_more(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that was stopped in the middle of a renewal finds its connection ended; the
    renewal is made again on a new one (else the server would think its database away and
    let every table go, not only the ones taken meanwhile). Other errors are raised."""
    store = Store(f"sqlite:///{tmp_path / 'k.db'}", writer="thread")
    leased_table(store, "t")
    h1 = Leases(store.engine, "h1", 30.0)
    real = h1._renew
    calls: list[int] = []

    def ended_once(invalidated: bool) -> Any:
        def renew() -> int:
            calls.append(1)
            if len(calls) == 1:
                raise DBAPIError("UPDATE", {}, Exception("server closed the connection"),
                                 connection_invalidated=invalidated)
            return real()
        return renew

    monkeypatch.setattr(h1, "_renew", ended_once(True))
    assert h1.renew() == 1 and len(calls) == 2
    calls.clear()
    monkeypatch.setattr(h1, "_renew", ended_once(False))
    with pytest.raises(DBAPIError):
        h1.renew()
    assert len(calls) == 1
    store.close()
