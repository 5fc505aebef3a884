"""The store's writer in a process of its own: what it commits is durable when answered,
it groups what queues up, it fails clearly when it dies and a new one takes over, it
commits what is queued when the store closes, and it dies with the server."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from knockabout.store import Store, action_op, clock_op, create_op
from knockabout.store.loop_pipe import LoopPipe
from knockabout.store.writer import Writer
from knockabout.store.writer_process import ProcessWriter, WriterGone
from tests.server.conftest import run_async, stored

pytestmark = [pytest.mark.timeout(120), pytest.mark.solo]  # (solo: see tests/conftest.py)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (ended, not yet reaped) counts as gone
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def run_with_blocker(db: Path, store: Store, main: Callable[[sqlite3.Connection], Awaitable[None]]) -> list[str]:
    """Run ``main`` with a second connection to ``db`` (to hold its write lock), close both,
    and read the table's actions back from a store of its own."""
    blocker = sqlite3.connect(db, timeout=10, check_same_thread=False)
    try:
        run_async(main(blocker))
    finally:
        blocker.close()
        store.close()
    again = Store(f"sqlite:///{db}")
    t = again.get("t")
    again.close()
    assert t is not None
    return t.actions


def test_writes_are_committed_by_another_process_and_durable_when_answered(db_url: str) -> None:
    store = Store(db_url, writer="process")
    store.run(create_op(stored("t")))

    async def main() -> int:
        await asyncio.gather(*(store.commit(action_op("t", i, 0, f"a{i}", "person"), clock_op("t", i + 1, 5.0 + i))
                               for i in range(40)))
        writer = store.writer
        assert isinstance(writer, ProcessWriter)
        assert writer.pid != os.getpid() and alive(writer.pid)
        assert writer.writes == 40 and 1 <= writer.commits <= 40
        again = Store(db_url)  # what another reader sees now, before the writer closes
        t = again.get("t")
        again.close()
        assert t is not None and t.actions == [f"a{i}" for i in range(40)] and t.clock_step == 40
        return writer.pid

    pid = run_async(main())
    store.close()
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid), "the writer process ends with its store"


def test_what_queues_while_it_commits_goes_in_one_transaction(tmp_path: Path) -> None:
    """The database is locked by someone else, so the first write waits in the writer
    process; the twenty written meanwhile are committed together once it is free."""
    db = tmp_path / "k.db"
    store = Store(f"sqlite:///{db}", writer="process")
    store.run(create_op(stored("t")))

    async def main(blocker: sqlite3.Connection) -> None:
        await store.commit(clock_op("t", 0, 1.0))  # the process is up
        writer = store.writer
        assert isinstance(writer, ProcessWriter)
        before = writer.commits
        blocker.execute("BEGIN IMMEDIATE")  # the writer's next transaction waits for this one
        first = asyncio.ensure_future(store.commit(action_op("t", 0, 0, "first", "person")))
        await asyncio.sleep(0.3)
        rest = [asyncio.ensure_future(store.commit(action_op("t", i, 0, f"a{i}", "person"))) for i in range(1, 21)]
        await asyncio.sleep(0.3)
        assert not first.done() and not any(r.done() for r in rest), "nothing is answered before it is durable"
        blocker.rollback()
        await asyncio.gather(first, *rest)
        assert writer.writes == 22
        assert writer.commits - before == 2, "the twenty that queued meanwhile went in one transaction"

    assert run_with_blocker(db, store, main) == ["first"] + [f"a{i}" for i in range(1, 21)]


def test_a_function_op_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'k.db'}", writer="process")
    store.run(create_op(stored("t")))

    async def main() -> None:
        with pytest.raises(TypeError, match="declared writes only"):
            await store.commit(action_op("t", 0, 0, "draw", "person"), lambda s: None)
        await store.commit(action_op("t", 0, 0, "take", "person"))  # the writer is unharmed

    run_async(main())
    t = store.get("t")
    store.close()
    assert t is not None and t.actions == ["take"]


def test_a_killed_writer_fails_its_writes_by_name_and_a_new_one_takes_the_next(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    store = Store(f"sqlite:///{db}", writer="process")
    store.run(create_op(stored("t")))

    async def main(blocker: sqlite3.Connection) -> None:
        await store.commit(action_op("t", 0, 0, "zero", "person"))
        first = store.writer
        assert isinstance(first, ProcessWriter)
        blocker.execute("BEGIN IMMEDIATE")
        stuck = asyncio.ensure_future(store.commit(action_op("t", 1, 0, "one", "person")))
        await asyncio.sleep(0.3)
        os.kill(first.pid, signal.SIGKILL)
        with pytest.raises(WriterGone, match=rf"writer process \(pid {first.pid}\) ended.*before this write"):
            await asyncio.wait_for(stuck, 10)
        blocker.rollback()
        await store.commit(action_op("t", 1, 0, "one again", "person"))  # a new process
        second = store.writer
        assert isinstance(second, ProcessWriter) and second.pid != first.pid

    assert run_with_blocker(db, store, main) == ["zero", "one again"]


def test_closing_the_store_commits_and_answers_what_is_queued(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'k.db'}", writer="process")
    store.run(create_op(stored("t")))

    async def main() -> list[Any]:
        await store.commit(action_op("t", 0, 0, "a0", "person"))
        waiting = [asyncio.ensure_future(store.commit(action_op("t", i, 0, f"a{i}", "person"))) for i in range(1, 30)]
        await asyncio.sleep(0)  # they are sent
        store.close()  # (a server's shutdown does this on its loop)
        return await asyncio.gather(*waiting, return_exceptions=True)

    results = run_async(main())
    assert results == [None] * 29, "every queued write was answered durable"
    again = Store(f"sqlite:///{tmp_path / 'k.db'}")
    t = again.get("t")
    again.close()
    assert t is not None and t.actions == [f"a{i}" for i in range(30)]


def test_a_write_larger_than_the_pipe_holds_goes_whole(tmp_path: Path) -> None:
    """Thousands of writes of 2 KB in one turn of the loop: far more than the pipe takes at
    once, so the loop writes it as the process reads (never blocking, never half a message)."""
    store = Store(f"sqlite:///{tmp_path / 'k.db'}", writer="process")
    store.run(create_op(stored("t")))

    async def main() -> None:
        await asyncio.gather(*(store.commit(action_op("t", i, 0, f"{i:04d}" + "x" * 2000, "person"))
                               for i in range(3000)))

    run_async(main())
    t = store.get("t")
    store.close()
    assert t is not None and len(t.actions) == 3000 and t.actions[2999].startswith("2999x")


def test_a_database_in_memory_and_a_store_outside_an_event_loop_use_the_thread() -> None:
    store = Store("sqlite://", writer="process")  # only this process sees that database
    store.run(create_op(stored("t")))
    run_async(store.commit(action_op("t", 0, 0, "draw", "person")))
    assert isinstance(store.writer, Writer)
    t = store.get("t")
    store.close()
    assert t is not None and t.actions == ["draw"]


def test_the_writer_process_dies_with_the_process_that_started_it(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import asyncio, sys, time
        from knockabout.store import Store, StoredTable, action_op, create_op

        async def main():
            store = Store({f"sqlite:///{tmp_path / 'k.db'}"!r}, writer="process")
            store.run(create_op(StoredTable(id="t", game="nak-muay", rules_version="1.0", config={{}}, seed=1,
                                            seats=[])))
            await store.commit(action_op("t", 0, 0, "draw", "person"))
            print(store.writer.pid, flush=True)
            time.sleep(60)

        if __name__ == "__main__":
            asyncio.run(main())
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    try:
        assert proc.stdout is not None
        pid = int(proc.stdout.readline())
        assert alive(pid)
        proc.kill()  # kill -9: nobody closes the store
        proc.wait(10)
        deadline = time.monotonic() + 10
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(pid), "a crashed server's writer must not go on writing beside a restarted one"
    finally:
        if proc.poll() is None:
            proc.kill()


def test_the_loop_pipe_reads_a_message_that_arrives_in_pieces() -> None:
    ours, theirs = socket.socketpair()
    got: list[Any] = []
    closed: list[str] = []
    pipe = LoopPipe(Connection(ours.detach()), got.append, closed.append)
    other = Connection(theirs.detach())

    async def main() -> None:
        pipe.attach(asyncio.get_running_loop())
        import pickle
        import struct

        data = pickle.dumps({"big": "y" * 300_000})
        frame = struct.pack("!i", len(data)) + data
        for at in range(0, len(frame), 70_001):  # in pieces, the length itself split too
            os.write(other.fileno(), frame[at:at + 70_001])
            await asyncio.sleep(0.01)
        os.write(other.fileno(), frame[:2])
        await asyncio.sleep(0.01)
        for at in range(2, len(frame), 70_001):  # the rest in pieces the socket takes at once
            os.write(other.fileno(), frame[at:at + 70_001])
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        pipe.send(["back", "x" * 500_000])  # more than the pipe takes at once
        # read in a thread: the loop must stay free to feed the rest of the message
        assert await asyncio.to_thread(other.recv) == ["back", "x" * 500_000]
        other.close()
        await asyncio.sleep(0.05)

    run_async(main())
    assert got == [{"big": "y" * 300_000}] * 2
    assert closed == ["the other end closed it"]
    pipe.close()
