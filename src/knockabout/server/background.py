"""The server's background tasks: a job repeated every so many seconds, and how each task
is stopped when its owner closes (a table, the lease keeper, the Redis listener ...)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any


async def repeat(every: float, job: Callable[[], object]) -> None:
    """Run ``job`` every ``every`` seconds, the first time after one wait, until the task
    running this is cancelled."""
    while True:
        await asyncio.sleep(every)
        job()


async def cancel(task: asyncio.Task[Any] | None, *, quiet: bool = True) -> None:
    """Cancel ``task`` (None: there is none) and wait until it has ended. ``quiet``: an error
    the task ended with is dropped too (its owner is closing and has no use for it); else it
    is raised here."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, *((Exception,) if quiet else ())):
        await task
