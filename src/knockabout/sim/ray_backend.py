"""The Ray backend of :mod:`knockabout.sim.executor` (the optional ``cluster`` extra).

Each unit of a run is one Ray task (``max_retries``: a task whose worker dies is run
again; a unit's result depends only on the unit, so a retry gives the same result).
With ``--address`` the run joins an existing cluster (``ray start --head`` on one
machine, ``ray start --address=...`` on the others; every node needs knockabout
installed); without it a local Ray instance is started for the run and stopped after.
"""

from __future__ import annotations

import importlib
import logging
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from knockabout.core.errors import ConfigError, KnockaboutError
from knockabout.sim.executor import Executor

T = TypeVar("T")
R = TypeVar("R")

INSTALL = "--backend ray needs Ray, which is not installed: pip install 'knockabout[cluster]'"
RETRIES = 3
"""How many times Ray runs a unit again when its worker dies."""


def run_unit(fn: Callable[[Any], Any], i: int, item: Any) -> tuple[int, Any]:
    """One unit, in a Ray worker (its process title is ``ray::run_unit`` while it runs)."""
    return i, fn(item)


def _reachable(address: str) -> None:
    """One clear line when nothing answers at ``host:port`` (Ray itself would retry for minutes)."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ConfigError(f"--address must look like HOST:PORT (the head's GCS address), not {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ConfigError(
            f"no Ray cluster answers at {address} ({reason}); start one with `ray start --head --port {port}` "
            "or leave out --address to start a local one"
        ) from None


class RayExecutor(Executor):
    name = "ray"

    def __init__(self, workers: int | None, address: str | None) -> None:
        os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "error")  # Ray's core logs only what fails
        try:
            ray: Any = importlib.import_module("ray")  # the optional extra: not typed here
        except ImportError:
            raise ConfigError(INSTALL) from None
        self._ray = ray
        self.address = address
        self._started = False
        if address is not None:
            _reachable(address)
        if not ray.is_initialized():
            quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
            if address is not None:
                try:
                    ray.init(address=address, **quiet)
                except (ConnectionError, RuntimeError) as exc:
                    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                    raise ConfigError(f"cannot join the Ray cluster at {address}: {first}") from None
            else:
                ray.init(
                    address="local",  # a new instance for this run, never a cluster found lying around
                    num_cpus=workers or os.cpu_count() or 1,
                    include_dashboard=False,
                    runtime_env={"env_vars": {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}},
                    **quiet,
                )
            self._started = True
        self.workers = int(ray.cluster_resources().get("CPU", 1))
        self._remote = ray.remote(max_retries=RETRIES, retry_exceptions=False)(run_unit)

    def describe(self) -> str:
        where = f"cluster at {self.address}" if self.address else "local"
        return f"ray ({where}), {self.workers} CPUs"

    def run(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        ray = self._ray
        fn_ref = ray.put(fn)
        pending = [self._remote.remote(fn_ref, i, x) for i, x in enumerate(items)]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=len(pending), timeout=0.2, fetch_local=True)
                for ref in done:
                    try:
                        yield ray.get(ref)
                    except ray.exceptions.RayTaskError as exc:
                        cause = exc.cause
                        if isinstance(cause, KnockaboutError):
                            raise cause from None
                        raise
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False
