"""Where the work of a run is done: one interface, three backends.

A run (a sim batch, a balance matrix) is cut into independent *units* of plain data —
whole paired deals, or blocks of matches of one pairing — whose results depend only on
the unit itself (its seeds are derived from the run's seed and the deal or match number,
never from the worker). An :class:`Executor` plays units and hands back each result as
it finishes, in any order; the caller puts them back in plan order, so every backend and
worker count gives identical results.

* :class:`InlineExecutor` — in this process, one unit after another (``--workers 1``);
* :class:`PoolExecutor` — a local process pool (``--workers N``);
* ``RayExecutor`` (:mod:`knockabout.sim.ray_backend`) — a Ray cluster, local (started on
  demand) or an existing one (``--address``); Ray retries a unit whose worker died.

Interrupting (Ctrl+C) while waiting stops the workers at once: the generator's clean-up
terminates the pool (or cancels the Ray tasks), so finished units are kept by the caller
and nothing keeps running.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any, TypeVar

from knockabout.core.errors import ConfigError

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("auto", "inline", "process", "ray")
"""``auto``: in this process for one worker, else a process pool."""


class Executor(ABC):
    """Plays units of a run; a context manager that releases its workers on exit."""

    name: str = ""
    workers: int = 1

    @abstractmethod
    def run(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        """``(position, fn(items[position]))`` for every item, as each finishes (any order).

        ``fn`` must be a module-level function (or a partial of one) and the items plain
        data: they travel to other processes."""

    def close(self) -> None:  # noqa: B027 - most backends have nothing to release
        """Release the workers (nothing to do by default)."""

    def describe(self) -> str:
        return f"{self.name}, {self.workers} worker{'s' if self.workers != 1 else ''}"

    def __enter__(self) -> Executor:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class InlineExecutor(Executor):
    name = "in-process"

    def run(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        for i, item in enumerate(items):
            yield i, fn(item)


def _ignore_sigint() -> None:
    """Workers leave Ctrl+C to the parent, which terminates them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _call(job: tuple[Callable[[Any], Any], int, Any]) -> tuple[int, Any]:
    fn, i, item = job
    return i, fn(item)


class PoolExecutor(Executor):
    """A local process pool; workers are forked where the platform allows (so games
    registered at run time are known to them), spawned elsewhere."""

    name = "process pool"

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def run(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        if not items:
            return
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        pool = ctx.Pool(min(self.workers, len(items)), initializer=_ignore_sigint)
        finished = False
        try:
            yield from pool.imap_unordered(_call, [(fn, i, x) for i, x in enumerate(items)], chunksize=1)
            finished = True
        finally:
            if finished:
                pool.close()
            else:  # interrupted or failed: stop the workers now, not after their units
                pool.terminate()
            pool.join()


def make_executor(backend: str, workers: int | None = None, address: str | None = None) -> Executor:
    """The executor a command's ``--backend``, ``--workers`` and ``--address`` ask for.

    ``workers`` None: one for ``auto`` and ``inline``, every CPU of this machine for
    ``process``, and for ``ray`` every CPU of the cluster."""
    if backend not in BACKENDS:
        raise ConfigError(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if workers is not None and workers < 1:
        raise ConfigError(f"--workers must be at least 1, not {workers}")
    if address is not None and backend != "ray":
        raise ConfigError("--address names a Ray cluster; use it with --backend ray")
    if backend == "ray":
        from knockabout.sim.ray_backend import RayExecutor

        return RayExecutor(workers, address)
    if backend == "inline" or (backend == "auto" and (workers or 1) == 1):
        return InlineExecutor()
    return PoolExecutor(workers or os.cpu_count() or 1)
