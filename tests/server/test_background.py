"""The server's background tasks (knockabout.server.background): a job repeated on a timer,
and a task stopped with or without the error it ended with."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from knockabout.server.background import cancel, repeat
from tests.server.conftest import run_async


def test_a_repeated_job_runs_after_each_wait_until_cancelled() -> None:
    async def run() -> tuple[int, int, bool]:
        ran: list[float] = []
        task = asyncio.get_running_loop().create_task(repeat(0.02, lambda: ran.append(1)))
        await asyncio.sleep(0.01)
        before = len(ran)  # (not yet: the first run comes after one wait)
        await asyncio.sleep(0.15)
        await cancel(task)
        after = len(ran)
        await asyncio.sleep(0.05)
        return before, after, len(ran) == after and task.done()

    before, after, stopped = run_async(run())
    assert before == 0 and after >= 2 and stopped


def test_cancel_waits_for_the_task_and_keeps_its_error_only_when_asked() -> None:
    async def failing() -> None:
        raise OSError("disk full")

    async def run(stop: Callable[[asyncio.Task[Any]], Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(failing())
        await asyncio.sleep(0)
        await stop(task)
        return task

    assert run_async(run(cancel)).done()  # quiet: the owner is closing
    with pytest.raises(OSError, match="disk full"):
        run_async(run(lambda t: cancel(t, quiet=False)))
    run_async(cancel(None))  # no task: nothing to do

