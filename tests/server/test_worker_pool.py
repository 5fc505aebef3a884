"""The worker processes the event loop feeds itself (server/worker_pool.py)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import signal
import threading
from concurrent.futures.process import BrokenProcessPool

import pytest

from knockabout.server.worker_pool import WorkerPool
from tests.server.conftest import run_async

pytestmark = pytest.mark.solo  # (solo: see tests/conftest.py)


def _nothing() -> None:
    pass


def _pid_after(seconds: float) -> int:
    import time

    time.sleep(seconds)
    return os.getpid()


def _fails(text: str) -> None:
    raise ValueError(text)


def _gives_a_lock() -> object:
    return threading.Lock()  # (does not pickle)


def pool(size: int) -> WorkerPool:
    return WorkerPool(size, multiprocessing.get_context("spawn"), _nothing)


def test_jobs_run_in_the_workers_first_come_first_served_and_answer_or_raise() -> None:
    workers = pool(2)
    try:
        assert len(workers.processes) == 2 and os.getpid() not in workers.processes

        async def go() -> None:
            pids = await asyncio.gather(*(workers.run(_pid_after, 0.05) for _ in range(6)))
            assert set(pids) <= set(workers.processes) and len(set(pids)) == 2, "both workers took jobs"
            with pytest.raises(ValueError, match="no such card"):
                await workers.run(_fails, "no such card")
            with pytest.raises(RuntimeError, match="could not be sent back"):
                await workers.run(_gives_a_lock)
            with pytest.raises((pickle.PicklingError, AttributeError)):  # a job that will not pickle fails alone
                await workers.run(lambda: 1)
            assert await workers.run(os.getpid) in workers.processes, "the pool still works"

        run_async(go())
    finally:
        workers.close()
    assert all(not p.is_alive() for p in workers.processes.values()), "closed: the workers are gone"


def test_no_thread_is_started_in_the_server() -> None:
    """The point of the pool: the executor's feeder and result threads took the
    interpreter lock from the event loop."""
    workers = pool(1)
    try:
        async def go() -> None:
            before = threading.active_count()
            for _ in range(20):
                await workers.run(os.getpid)
            assert threading.active_count() == before

        run_async(go())
    finally:
        workers.close()


def test_a_worker_that_dies_breaks_the_pool_and_fails_its_jobs() -> None:
    workers = pool(1)
    try:
        async def go() -> None:
            (pid,) = workers.processes
            long = workers.submit(_pid_after, 30)
            queued = workers.submit(os.getpid)
            await asyncio.sleep(0.5)
            os.kill(pid, signal.SIGKILL)
            for job in (long, queued):
                with pytest.raises(BrokenProcessPool, match=f"pid {pid}"):
                    await asyncio.wait_for(job, 10)
            assert workers.broken
            with pytest.raises(BrokenProcessPool):
                await workers.run(os.getpid)

        run_async(go())
    finally:
        workers.close()


def test_closing_ends_a_worker_deep_in_a_job_at_once() -> None:
    import time

    workers = pool(1)

    async def go() -> None:
        job = workers.submit(_pid_after, 60)
        await asyncio.sleep(0.5)
        started = time.monotonic()
        workers.close()
        assert time.monotonic() - started < 5
        with pytest.raises(BrokenProcessPool):
            await job

    run_async(go())
    assert all(not p.is_alive() for p in workers.processes.values())


def test_a_pool_needs_a_process() -> None:
    with pytest.raises(ValueError, match="at least one"):
        pool(0)


def _echo_bigger(data: bytes) -> bytes:
    return data + data


def test_jobs_and_answers_bigger_than_the_pipe_holds_go_whole_on_uvloop() -> None:
    """uvloop makes the descriptors it watches non-blocking: a job or an answer bigger than
    the pipe takes at once must still go whole, without breaking the pool or blocking the
    loop (a search's state for a long game can be that big)."""
    import uvloop

    workers = pool(2)
    try:
        async def go() -> None:
            big = os.urandom(3 << 20)  # more than a socket pair's buffer, both ways
            ticks = 0

            async def tick() -> None:
                nonlocal ticks
                while True:
                    await asyncio.sleep(0.001)
                    ticks += 1

            ticker = asyncio.ensure_future(tick())
            answers = await asyncio.gather(*(workers.run(_echo_bigger, big) for _ in range(4)))
            ticker.cancel()
            assert all(a == big + big for a in answers)
            assert not workers.broken
            assert ticks > 0, "the loop went on while the jobs were on their way"

        run_async(go(), uvloop.run)
    finally:
        workers.close()
