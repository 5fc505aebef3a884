"""Where the server's bots think: bounded pools shared by all tables, off the event loop.

Bots that search (:attr:`Bot.searches`: the ISMCTS levels) think in worker *processes*
when ``bot_processes`` > 0 (``knockabout serve`` uses one per CPU but one), so a search
holds neither the event loop nor its interpreter lock: a person at another table is
answered while twenty tables of ``hard`` bots think. A thinking goes there as plain data
(:meth:`Thought.job`: the level, the state, the seat, the generator's state and when it
must end) and comes back as the move and the generator's new state, so the table's bots
make the same choices as in a thread. Quick bots (random, the heuristics) think there
too, after their first :data:`LEARN_FROM` thinkings in a game (in threads, while the
level's processes start): a thinking in a thread holds the interpreter lock for all its
CPU, and under load the bot threads held it often enough to lag the event loop several
times as much as bots in processes do (docs/measurements.md). :data:`SLOW_THINKING` (a server's
``slow_thinking``) keeps a quick level in threads while its thinkings in a game average
less CPU than that; by default none does.

Each level has its own pool (a quick level never waits behind a long search), first come
first served across tables (a table has at most one thinking queued at a time). The
processes are a :class:`~knockabout.server.worker_pool.WorkerPool`, fed by the event
loop itself. A worker process that dies breaks its pool: the thinkings it held or that
waited run in threads instead, and the level's next thinking starts a new pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from knockabout.bots.levels import levels_for, make_bot
from knockabout.server.worker_pool import WorkerPool
from knockabout.table.thinking import Thought, think_apart, warm_up

log = logging.getLogger("knockabout.server")

SLOW_THINKING = 0.0
"""CPU seconds: a quick level whose thinkings in a game average more than this thinks in
the worker processes from then on (0: every quick level does, see the module doc)."""
LEARN_FROM = 16
"""Thinkings of a level in a game measured before deciding where it thinks."""


class BotPools:
    """The thread and process pools of one server (see the module doc)."""

    def __init__(self, threads: int = 0, processes: int = 0, slow_thinking: float = SLOW_THINKING) -> None:
        self.threads = threads or os.cpu_count() or 2
        self.processes = processes
        self.slow_thinking = slow_thinking
        self._threads: dict[str, ThreadPoolExecutor] = {}
        self._processes: dict[str, WorkerPool] = {}
        self._took: dict[tuple[str, str], deque[float]] = {}  # CPU seconds of recent thread thinkings
        self._warming: dict[tuple[str, str], list[asyncio.Future[int]]] = {}  # slow quick levels' processes starting
        self.apart: set[tuple[str, str]] = set()  # (level, game) of quick levels that think in processes

    def thread_pool(self, level: str) -> Executor:
        """The threads bots of ``level`` think in."""
        pool = self._threads.get(level)
        if pool is None:
            pool = self._threads[level] = ThreadPoolExecutor(self.threads, f"knockabout-bot-{level}")
        return pool

    def process_pool(self, level: str) -> WorkerPool:
        """The worker processes bots of ``level`` think in (started the first time, and
        again after one of them died)."""
        pool = self._processes.get(level)
        if pool is None or pool.broken:
            # spawn, not fork: the server has threads, which a forked child would inherit half-way
            pool = WorkerPool(self.processes, multiprocessing.get_context("spawn"), start_worker, (os.getpid(),))
            self._processes[level] = pool
        return pool

    def warm(self, level: str, game_id: str, searches: bool) -> None:
        """Start the worker processes of a searching level early (a new table calls this),
        so its first move does not wait for Python to start and import everything."""
        if searches and self.processes > 0:
            self._warm_up(level, game_id)

    def _warm_up(self, level: str, game_id: str) -> list[asyncio.Future[int]]:
        """A warm-up for each worker process of ``level`` (started now if need be); none
        outside an event loop (the processes start all the same)."""
        pool = self.process_pool(level)
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return []
        warming = [pool.submit(warm_up, level, game_id) for _ in range(self.processes)]
        for done in warming:
            done.add_done_callback(_seen)  # a pool that broke meanwhile has already said so
        return warming

    def warm_all(self, game_ids: list[str]) -> int:
        """Start every searching level's worker processes now, each ready for ``game_ids``
        (``knockabout serve`` calls this at startup): the first tables of ``hard`` bots
        then do not start Python processes beside the people already playing. Returns the
        warm-ups queued (0 without worker processes)."""
        if self.processes <= 0:
            return 0
        searching = [(level, game_id) for game_id in game_ids for level in levels_for(game_id)
                     if make_bot(level, game_id).searches]
        for level, game_id in searching:
            self.warm(level, game_id, True)
        return len(searching) * self.processes

    def _in_processes(self, thought: Thought) -> bool:
        if self.processes <= 0 or not thought.level:
            return False
        if thought.searches:
            return True
        key = (thought.level, thought.game_id)
        warming = self._warming.get(key)
        if warming is not None and all(f.done() for f in warming):
            del self._warming[key]
            self.apart.add(key)
        return key in self.apart

    def _learn(self, thought: Thought, took: float) -> None:
        """Remember a quick level's thinking time; start its processes once it is slow."""
        key = (thought.level, thought.game_id)
        if self.processes <= 0 or not thought.level or key in self.apart or key in self._warming:
            return
        took_here = self._took.setdefault(key, deque(maxlen=LEARN_FROM))
        took_here.append(took)
        if len(took_here) == LEARN_FROM and sum(took_here) / LEARN_FROM >= self.slow_thinking:
            log.info("bots of level %s think %.1f ms a move in %s: they think in worker processes from now",
                     thought.level, 1000 * sum(took_here) / LEARN_FROM, thought.game_id)
            self._warming[key] = self._warm_up(thought.level, thought.game_id)

    async def think(self, thought: Thought) -> None:
        """Run ``thought`` in the right pool; it holds its move when this returns."""
        loop = asyncio.get_running_loop()
        if self._in_processes(thought):
            try:
                answer = await self.process_pool(thought.level).run(think_apart, thought.job())
            except BrokenProcessPool:  # (the pool has said why; the next thinking starts a new one)
                pass
            else:
                thought.finish(answer)
                return
        took = await loop.run_in_executor(self.thread_pool(thought.level), _run_timed, thought)
        self._learn(thought, took)

    def close(self) -> None:
        for threads in self._threads.values():
            threads.shutdown(wait=True, cancel_futures=True)
        for processes in self._processes.values():
            processes.close()
        self._threads.clear()
        self._processes.clear()


BOT_NICENESS = 10
"""How much lower the worker processes' CPU priority is than the server's (``nice``): a
search that keeps a core busy then never delays the event loop's turn on it."""


PARENT_CHECK = 1.0
"""Seconds between a worker process's looks at whether the server that started it lives."""


def start_worker(server: int) -> None:
    """A worker process's first acts: give way to the server (process ``server``, see
    :data:`BOT_NICENESS`) and watch it, to leave when it is gone. A server killed outright
    (``kill -9``, the OOM killer) cannot shut its pool down, and the workers would otherwise
    wait for work forever: each holds the writing end of its own job queue, so the queue
    never reports that the server has closed it. The server passes its own id: one killed
    while this process was still starting is already gone here, and ``getppid()`` would
    name whoever adopted it."""
    if os.getppid() != server:
        os._exit(0)
    with contextlib.suppress(OSError):  # (where priorities cannot be changed, the searches run as they are)
        os.nice(BOT_NICENESS)
    threading.Thread(target=_leave_with, args=(server,), name="knockabout-server-watch", daemon=True).start()


def _leave_with(server: int) -> None:
    while True:
        time.sleep(PARENT_CHECK)
        if os.getppid() != server:  # adopted by another process: the server died
            os._exit(0)


def _seen(done: asyncio.Future[int]) -> None:
    if not done.cancelled():
        done.exception()


def _run_timed(thought: Thought) -> float:
    """Run ``thought`` here; the CPU seconds it took this thread (not its waits for the
    interpreter lock)."""
    start = time.thread_time()
    thought.run()
    return time.thread_time() - start
