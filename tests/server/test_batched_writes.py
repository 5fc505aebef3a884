"""The store's writes batched by kind: a group commit of many tables' changes is a few
statements, not one per write, and means exactly what the writes in order mean."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from knockabout.store import Store, action_op, clock_op, create_op, finish_op, seats_op
from knockabout.store.store import PlainWrites, StoreError, TableRow
from tests.server.conftest import run_async, stored

pytestmark = pytest.mark.timeout(120)


@contextmanager
def statements(store: Store) -> Iterator[list[str]]:
    """The SQL statements the store sends while inside (an executemany counts once)."""
    seen: list[str] = []

    def log(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement.split()[0].upper())

    event.listen(store.engine, "before_cursor_execute", log)
    try:
        yield seen
    finally:
        event.remove(store.engine, "before_cursor_execute", log)


def test_many_tables_changes_commit_in_one_insert_and_one_update(db_url: str) -> None:
    store = Store(db_url)
    store.run(*[create_op(stored(f"t{i}")) for i in range(50)])
    ops = []
    for i in range(50):  # what 50 tables' moves queue up: an action and a clock each, twice
        ops += [action_op(f"t{i}", 0, 0, "draw", "person"), clock_op(f"t{i}", 1, 100.0 + i),
                action_op(f"t{i}", 1, 1, "take", "bot"), clock_op(f"t{i}", 2, 200.0 + i)]
    with statements(store) as seen:
        store.run(*ops)
    assert seen.count("INSERT") == 1 and seen.count("UPDATE") == 1, seen
    for i in (0, 17, 49):
        t = store.get(f"t{i}")
        assert t is not None
        assert t.actions == ["draw", "take"]
        assert (t.clock_step, t.clock_deadline) == (2, 200.0 + i)  # the last clock of a table wins
    store.close()


def test_batched_writes_mean_what_they_mean_in_order(db_url: str) -> None:
    store = Store(db_url)
    seats = [{"kind": "person", "name": "Ann", "level": None, "token": None}] * 2
    store.run(
        create_op(stored("a")), create_op(stored("b")),  # created and written in one transaction
        seats_op("a", seats, "playing"), action_op("a", 0, 0, "draw", "person"), clock_op("a", 1, 50.0),
        clock_op("b", 0, 9.0),
        action_op("a", 1, 1, "take", "bot"), clock_op("a", 2, 60.0),
        finish_op("a", {"winners": [1]}),  # its clock goes with the finish
        seats_op("a", [dict(s, name="Bo") for s in seats], "finished"),  # the last seats win
    )
    a, b = store.get("a"), store.get("b")
    assert a is not None and b is not None
    assert a.actions == ["draw", "take"] and a.status == "finished" and a.result == {"winners": [1]}
    assert (a.clock_step, a.clock_deadline) == (None, None)
    assert a.seats[0]["name"] == "Bo"
    assert b.actions == [] and (b.clock_step, b.clock_deadline) == (0, 9.0) and b.status == "waiting"
    store.close()


def test_a_function_op_runs_in_its_place_between_batches(db_url: str) -> None:
    store = Store(db_url)
    seen: list[list[str]] = []

    def look(s: Any) -> None:  # sees the writes before it, not those after
        seen.append(store._load(s, s.get(TableRow, "t")).actions)

    store.run(create_op(stored("t")), action_op("t", 0, 0, "draw", "person"), look,
              action_op("t", 1, 0, "take", "person"))
    assert seen == [["draw"]]
    t = store.get("t")
    assert t is not None and t.actions == ["draw", "take"]
    store.close()


@pytest.mark.parametrize("write", [
    lambda: seats_op("ghost", [], "playing"),
    lambda: clock_op("ghost", 3, 1.0),
    lambda: finish_op("ghost", {}),
])
def test_an_update_of_a_table_never_stored_is_refused_by_name(db_url: str, write: Any) -> None:
    store = Store(db_url)
    with pytest.raises(StoreError, match="no stored table 'ghost'"):
        store.run(write())
    store.close()


WRITERS = pytest.mark.parametrize("writer", ["thread", "process"])


@WRITERS
def test_in_a_group_commit_the_write_for_a_missing_table_fails_alone(db_url: str, writer: str) -> None:
    store = Store(db_url, writer=writer)
    store.run(create_op(stored("t")))

    async def main() -> list[BaseException | None]:
        jobs = [store.commit(action_op("t", 0, 0, "draw", "person"), clock_op("t", 1, 5.0)),
                store.commit(clock_op("ghost", 1, 5.0)),
                store.commit(action_op("t", 1, 0, "take", "person"))]
        return [r if isinstance(r, BaseException) else None
                for r in await asyncio.gather(*jobs, return_exceptions=True)]

    results = run_async(main())
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], StoreError) and "ghost" in str(results[1])
    t = store.get("t")
    assert t is not None and t.actions == ["draw", "take"] and t.clock_step == 1
    store.close()


@WRITERS
def test_the_writer_commits_actions_and_clocks_on_the_driver_s_connection(db_url: str, writer: str) -> None:
    """Nearly every group commit of a busy server is actions and clocks only: the writer
    runs those straight on the driver (one INSERT and one UPDATE, no session), and they
    mean what they mean the usual way; anything else, or a refused write, goes the usual
    way and fails as it always did (in the writer process too: what it raised comes back)."""
    store = Store(db_url, writer=writer)
    store.run(*[create_op(stored(f"t{i}")) for i in range(5)])

    async def main() -> None:
        await asyncio.gather(*(store.commit(action_op(f"t{i}", 0, 0, "draw", "person"), clock_op(f"t{i}", 1, 9.5))
                               for i in range(5)))
        used = store.writer
        assert used is not None and type(used).__name__ == {"thread": "Writer", "process": "ProcessWriter"}[writer]
        assert used.quick >= 1, "actions and clocks went the quick way"
        quick = used.quick
        await store.commit(finish_op("t0", {"winners": [0]}))  # not actions and clocks only: the usual way
        assert used.quick == quick
        with pytest.raises(IntegrityError, match=r"(?i)unique|duplicate"):  # as through a session
            await store.commit(action_op("t1", 0, 1, "again", "person"))  # step 0 is taken: refused
        with pytest.raises(StoreError, match="no stored table 'nowhere'"):
            await store.commit(clock_op("nowhere", 3, 1.0))
        with pytest.raises(IntegrityError, match=r"(?i)foreign key"):
            await store.commit(action_op("nowhere", 0, 0, "draw", "person"))
        await store.commit(action_op("t1", 1, 1, "take", "bot"), clock_op("t1", 2, None))  # still writes after

    run_async(main())
    for i in range(5):
        t = store.get(f"t{i}")
        assert t is not None and t.actions == (["draw", "take"] if i == 1 else ["draw"])
        assert (t.clock_step, t.clock_deadline) == ((2, None) if i == 1 else (None, None) if i == 0 else (1, 9.5))
    store.close()


class CountingConnection:
    """The driver's connection, counting the statements sent through its cursors."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.calls: list[tuple[str, str, int]] = []  # (method, first word, parameters)

    def cursor(self) -> Any:
        outer = self
        inner = self.conn.cursor()

        class Cursor:
            def execute(self, sql: str, params: Any = ()) -> Any:
                outer.calls.append(("execute", sql.split()[0].upper(), len(params)))
                return inner.execute(sql, params)

            def executemany(self, sql: str, rows: Any) -> Any:
                outer.calls.append(("executemany", sql.split()[0].upper(), len(rows)))
                return inner.executemany(sql, rows)

            @property
            def rowcount(self) -> int:
                return int(inner.rowcount)

            def close(self) -> None:
                inner.close()

        return Cursor()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


def test_the_quick_way_sends_one_statement_per_hundred_rows(db_url: str) -> None:
    """Not a statement per row (``executemany``), which let the event loop hold the writer
    up once per row: 250 actions are three INSERTs and 150 clocks two UPDATEs, and what
    they write is exactly what the writes mean, NULL deadlines included (the first UPDATE
    has only NULLs: PostgreSQL must still know the column's type)."""
    store = Store(db_url)
    store.run(*[create_op(stored(f"t{i}")) for i in range(150)])
    plain = PlainWrites(store.engine)
    assert plain.usable
    counting = CountingConnection(store.engine.raw_connection())
    plain._connection = counting
    ops: list[Any] = []
    for i in range(150):
        ops.append(action_op(f"t{i}", 0, 0, "draw", "person"))
        if i < 100:
            ops.append(action_op(f"t{i}", 1, 1, f"take {i}", "bot"))
        ops.append(clock_op(f"t{i}", 2, None if i < 120 else 50.5 + i))
    assert plain.run(ops)
    assert [c[:2] for c in counting.calls] == [("execute", "INSERT")] * 3 + [("execute", "UPDATE")] * 2
    assert [c[2] for c in counting.calls] == [700, 700, 350, 300, 150]  # (7 columns an action)
    for i in (0, 99, 100, 119, 120, 149):
        t = store.get(f"t{i}")
        assert t is not None
        assert t.actions == (["draw", f"take {i}"] if i < 100 else ["draw"])
        assert (t.clock_step, t.clock_deadline) == (2, None if i < 120 else 50.5 + i)
    # a clock for a table never stored, in the second UPDATE: nothing of the transaction is kept
    before = len(counting.calls)
    refused = [action_op("t0", 2, 0, "late", "person"), *(clock_op(f"t{i}", 4, 1.0) for i in range(130))]
    assert not plain.run([*refused, clock_op("ghost", 4, 1.0)])
    assert [c[1] for c in counting.calls[before:]] == ["INSERT", "UPDATE", "UPDATE"]
    t0 = store.get("t0")
    assert t0 is not None and t0.actions == ["draw", "take 0"] and t0.clock_step == 2
    plain.close()
    store.close()
