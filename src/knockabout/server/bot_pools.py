"""Where the server's bots think: bounded pools shared by all tables, off the event loop.

Bots that search (:attr:`Bot.searches`: the ISMCTS levels) think in worker *processes*
when ``bot_processes`` > 0 (``knockabout serve`` uses one per CPU but one), so a search
holds neither the event loop nor its interpreter lock: a person at another table is
answered while twenty tables of ``hard`` bots think. A thinking goes there as plain data
(:meth:`Thought.job`: the level, the state, the seat, the generator's state and when it
must end) and comes back as the move and the generator's new state, so the table's bots
make the same choices as in a thread. Quick bots (random, the heuristics) think in
threads, where a process's round trip would cost more than their thinking.

Each level has its own pool (a quick level never waits behind a long search), first come
first served across tables (a table has at most one thinking queued at a time). A worker
process that dies is replaced; the thinking it held runs in a thread instead.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from knockabout.table.thinking import Thought, think_apart, warm_up

log = logging.getLogger("knockabout.server")


class BotPools:
    """The thread and process pools of one server (see the module doc)."""

    def __init__(self, threads: int = 0, processes: int = 0) -> None:
        self.threads = threads or os.cpu_count() or 2
        self.processes = processes
        self._threads: dict[str, ThreadPoolExecutor] = {}
        self._processes: dict[str, ProcessPoolExecutor] = {}

    def thread_pool(self, level: str) -> Executor:
        """The threads bots of ``level`` think in."""
        pool = self._threads.get(level)
        if pool is None:
            pool = self._threads[level] = ThreadPoolExecutor(self.threads, f"knockabout-bot-{level}")
        return pool

    def process_pool(self, level: str) -> ProcessPoolExecutor:
        """The worker processes searches of ``level`` run in (started the first time)."""
        pool = self._processes.get(level)
        if pool is None:
            # spawn, not fork: the server has threads, which a forked child would inherit half-way
            pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"))
            self._processes[level] = pool
        return pool

    def warm(self, level: str, game_id: str, searches: bool) -> None:
        """Start the worker processes of a searching level early (a new table calls this),
        so its first move does not wait for Python to start and import everything."""
        if searches and self.processes > 0:
            for _ in range(self.processes):
                self.process_pool(level).submit(warm_up, level, game_id)

    async def think(self, thought: Thought) -> None:
        """Run ``thought`` in the right pool; it holds its move when this returns."""
        loop = asyncio.get_running_loop()
        if thought.searches and self.processes > 0 and thought.level:
            job = thought.job()
            try:
                answer = await loop.run_in_executor(self.process_pool(thought.level), think_apart, job)
            except BrokenProcessPool:
                log.error("a bot process of level %s died; its pool starts again", thought.level)
                self._processes.pop(thought.level, None)
            else:
                thought.finish(answer)
                return
        await loop.run_in_executor(self.thread_pool(thought.level), thought.run)

    def close(self) -> None:
        for threads in self._threads.values():
            threads.shutdown(wait=True, cancel_futures=True)
        for processes in self._processes.values():
            processes.shutdown(wait=True, cancel_futures=True)
        self._threads.clear()
        self._processes.clear()
