"""Where a running server's memory goes: ``tracemalloc`` snapshots on a schedule, for
finding what grows in a long run (``benchmarks/load.py --trace-memory``; compare two with
``benchmarks/memory_growth.py``). Off unless asked for; it costs memory and CPU.

``KNOCKABOUT_TRACE_MEMORY=DIR`` (a folder that exists) starts tracing as the server
starts, ``KNOCKABOUT_TRACE_EVERY`` seconds apart (600 by default) it writes
``DIR/memory-<pid>-<n>.snapshot`` (``tracemalloc.Snapshot.dump``) and beside it
``...-garbage.json``: what a full collection (run just after the snapshot, with
``gc.DEBUG_SAVEALL``) found unreachable, counted by type. So a snapshot holds the cyclic
garbage still waiting for the server's full collection (see :mod:`.collector`) as well as
what is alive, and the garbage file says how much of a growth was garbage, and whose.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import tracemalloc
from collections import Counter
from pathlib import Path

from knockabout.server.background import cancel, repeat

FRAMES = 12
"""Frames kept per allocation's traceback."""


class MemoryProbe:
    """Snapshots every ``every`` seconds into ``folder`` (see the module)."""

    def __init__(self, folder: Path, every: float) -> None:
        self.folder = folder
        self.every = every
        self.taken = 0
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def from_environment(cls) -> MemoryProbe | None:
        folder = os.environ.get("KNOCKABOUT_TRACE_MEMORY")
        if not folder:
            return None
        return cls(Path(folder), float(os.environ.get("KNOCKABOUT_TRACE_EVERY", "600")))

    def start(self) -> None:
        if not tracemalloc.is_tracing():
            tracemalloc.start(FRAMES)
        self._task = asyncio.get_running_loop().create_task(repeat(self.every, self.take), name="memory-probe")

    def take(self) -> Path:
        """One snapshot now, and the count of the garbage a full collection then frees."""
        self.taken += 1
        path = self.folder / f"memory-{os.getpid()}-{self.taken:03d}.snapshot"
        tracemalloc.take_snapshot().dump(str(path))
        was = gc.get_debug()
        gc.set_debug(was | gc.DEBUG_SAVEALL)
        try:
            found = gc.collect()
            kinds = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
        finally:
            gc.garbage.clear()
            gc.set_debug(was)
        path.with_name(path.stem + "-garbage.json").write_text(json.dumps(
            {"unreachable": found, "traced_bytes": tracemalloc.get_traced_memory()[0],
             "by_type": dict(kinds.most_common(40))}, indent=1))
        return path

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel(task, quiet=False)
