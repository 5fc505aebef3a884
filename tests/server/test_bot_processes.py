"""Searching bots think in worker processes, off the server's interpreter (issue 15, item 2)."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import pytest

from knockabout.table import Seat, Table
from knockabout.table.thinking import think_apart

pytestmark = [pytest.mark.timeout(120), pytest.mark.solo]  # (solo: see tests/conftest.py)


@pytest.mark.parametrize("game_id", ["nak-muay", "knockdown", "knockback"])
def test_a_thinking_sent_as_data_chooses_what_it_would_have_chosen_here(game_id: str) -> None:
    seats = [Seat("bot", "A", "medium"), Seat("bot", "B", "hard")]
    here = Table(game_id, seats, {}, 11, challenges={})
    apart = Table(game_id, seats, {}, 11, challenges={})
    for _ in range(6):
        if here.over:
            break
        a, b = here.think(), apart.think()
        assert a is not None and b is not None and b.searches
        a.run()
        b.finish(think_apart(b.job()))
        assert a.action == b.action
        assert here._bot_rng.state == apart._bot_rng.state, "the table's bot generator moved on alike"
        assert here.accept(a) and apart.accept(b)
        here.tick(think=False)
        apart.tick(think=False)


def test_a_move_from_a_lost_process_that_is_not_legal_becomes_a_legal_one() -> None:
    t = Table("knockback", [Seat("bot", "A", "easy"), Seat("bot", "B", "easy")], {}, 2, challenges={})
    thought = t.think()
    assert thought is not None
    thought.finish(("no such move", 5))
    assert thought.action is not None and thought.action in t._state.legal_actions()


def wait_for(pred: Any, seconds: float = 60.0) -> None:
    until = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < until, "timed out"
        time.sleep(0.05)


def test_server_searches_run_in_worker_processes_and_survive_one_dying(make_client: Any) -> None:
    with make_client(bot_processes=1) as c:
        made = c.post("/api/tables", json={"game": "knockback", "seats": ["medium", "medium"]}).json()
        manager = c.app.state.manager
        table = manager.get(made["id"]).table
        wait_for(lambda: table.version > 4)
        pools = manager.thinkers._processes
        assert set(pools) == {"medium"}, "only the searching level has processes"
        workers = list(pools["medium"].processes.values())
        assert workers and all(p.pid != os.getpid() and p.is_alive() for p in workers)
        assert "medium" not in manager.thinkers._threads, "no search ran in a thread"
        before = table.version
        for p in workers:  # a worker dies: the table goes on (a thread, then a new pool)
            assert p.pid is not None
            os.kill(p.pid, signal.SIGKILL)
        wait_for(lambda: table.over or table.version > before + 4)


def test_without_processes_searches_think_in_threads(make_client: Any) -> None:
    with make_client() as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["easy", "easy"]}).json()
        table = c.app.state.manager.get(made["id"]).table
        wait_for(lambda: table.over or table.version > 4)  # (a Nak Muay game may end in 3)
        assert not c.app.state.manager.thinkers._processes


def test_a_quick_level_that_turns_out_slow_moves_to_worker_processes(make_client: Any) -> None:
    """A quick level (no search) whose thinkings in a game average over ``slow_thinking``
    of CPU thinks in the worker processes once they are warm; its moves stay the table's."""
    from knockabout.server.bot_pools import LEARN_FROM

    with make_client(bot_processes=1, slow_thinking=0.0) as c:  # (every level counts as slow)
        made = c.post("/api/tables", json={"game": "knockdown", "seats": ["easy", "easy"]}).json()
        manager = c.app.state.manager
        table = manager.get(made["id"]).table
        wait_for(lambda: ("easy", "knockdown") in manager.thinkers.apart or table.over)
        assert ("easy", "knockdown") in manager.thinkers.apart, "the level was measured slow"
        assert table.version >= LEARN_FROM, "it first thought in threads, measured"
        before = table.version
        wait_for(lambda: table.over or table.version > before + 4)
        workers = list(manager.thinkers._processes["easy"].processes.values())
        assert workers and all(p.pid != os.getpid() for p in workers)
    # the same deal and seats thinking here make the same moves, in threads and processes alike
    replay = Table("knockdown", table.seats, table._match.record.config, table.seed, challenges={})
    for entry in table.log:
        thought = replay.think()
        assert thought is not None
        thought.run()
        assert thought.action is not None and thought.action.text == entry.action, "the same moves as here"
        assert replay.accept(thought)
        replay.tick(think=False)


def test_by_default_even_the_quickest_level_thinks_in_worker_processes(make_client: Any) -> None:
    """A thinking in a thread holds the interpreter lock for all its CPU, so with worker
    processes to hand every level thinks there after its first thinkings (random bots in
    KNOCKBACK: well under a millisecond each)."""
    from knockabout.server.bot_pools import LEARN_FROM
    from knockabout.server.settings import ServerSettings

    assert ServerSettings().slow_thinking == 0.0
    with make_client(bot_processes=1) as c:
        manager = c.app.state.manager
        played = 0
        for _ in range(10):  # (a game may end before the level's process has started: then another)
            made = c.post("/api/tables", json={"game": "knockback", "seats": ["random", "random"]}).json()
            table = manager.get(made["id"]).table
            wait_for(lambda t=table: ("random", "knockback") in manager.thinkers.apart or t.over)
            played += table.version
            if ("random", "knockback") in manager.thinkers.apart:
                break
        assert ("random", "knockback") in manager.thinkers.apart
        assert played >= LEARN_FROM
        assert list(manager.thinkers._processes["random"].processes.values())


def test_a_quick_level_that_stays_quick_keeps_to_threads(make_client: Any) -> None:
    with make_client(bot_processes=1, slow_thinking=60.0) as c:
        made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["easy", "easy"]}).json()
        manager = c.app.state.manager
        table = manager.get(made["id"]).table
        from knockabout.server.bot_pools import LEARN_FROM

        wait_for(lambda: table.over or table.version > LEARN_FROM + 4)
        assert not manager.thinkers.apart and not manager.thinkers._processes


def test_worker_processes_give_way_to_the_server(make_client: Any) -> None:
    """The searches run at a lower CPU priority than the server (a busy core never delays
    the event loop's turn)."""
    from knockabout.server.bot_pools import BOT_NICENESS

    with make_client(bot_processes=1) as c:
        made = c.post("/api/tables", json={"game": "knockback", "seats": ["medium", "medium"]}).json()
        manager = c.app.state.manager
        table = manager.get(made["id"]).table
        wait_for(lambda: table.version > 2)
        workers = list(manager.thinkers._processes["medium"].processes.values())
        assert workers
        for p in workers:
            assert p.pid is not None
            assert os.getpriority(os.PRIO_PROCESS, p.pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + BOT_NICENESS)


def test_a_server_that_warms_its_bots_starts_the_search_processes_before_any_table(make_client: Any) -> None:
    """``serve`` starts each searching level's worker processes at startup, each ready for
    every game, so the first tables of ``hard`` bots start no Python process beside people
    already playing (issue 15: the first load window)."""
    from knockabout.core.registry import game_ids

    with make_client(bot_processes=1, warm_bots=True) as c:
        pools = c.app.state.manager.thinkers._processes
        assert set(pools) == {"medium", "hard"}, "every searching level, and only those"
        for pool in pools.values():  # the warm-ups ran (imports and bots) in a live worker
            done = c.portal.call(pool.run, os.getpid)  # (on the server's event loop)
            assert done != os.getpid()
        assert c.portal.call(c.app.state.manager.thinkers.warm_all, game_ids()) == 2 * len(game_ids())
    with make_client(bot_processes=0, warm_bots=True) as c:  # no processes: nothing to start
        assert c.app.state.manager.thinkers._processes == {}
    with make_client(bot_processes=1) as c:  # the default: processes start with the first table
        assert c.app.state.manager.thinkers._processes == {}


_KILLED_SERVER = """
import asyncio, os, signal, sys
from knockabout.server.bot_pools import BotPools
pools = BotPools(processes=1)
async def ask():
    return await asyncio.wait_for(pools.process_pool("hard").run(os.getpid), 60)
worker = asyncio.run(ask())
print(worker, flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # no shutdown: as the OOM killer or kill -9 leaves it
"""


_KILLED_WHILE_STARTING = """
import os, signal
from knockabout.server.bot_pools import BotPools
pool = BotPools(processes=2).process_pool("hard")  # starts the workers
print(*pool.processes, flush=True)  # the server dies before they have even imported
os.kill(os.getpid(), signal.SIGKILL)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has exited
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads process states from /proc (Linux)")
def test_worker_processes_leave_when_the_server_is_killed() -> None:
    """A server killed outright leaves no worker process behind waiting for work."""
    import subprocess
    import sys

    from knockabout.server.bot_pools import PARENT_CHECK

    done = subprocess.run([sys.executable, "-c", _KILLED_SERVER], capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    worker = int(done.stdout.split()[0])
    deadline = time.monotonic() + 10 * PARENT_CHECK + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(worker), f"worker {worker} outlived the server"


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads process states from /proc (Linux)")
def test_workers_leave_when_the_server_is_killed_before_they_have_started() -> None:
    """A server killed while its workers are still starting leaves none behind either (they
    must not take the process that adopted them for the server)."""
    import subprocess
    import sys

    from knockabout.server.bot_pools import PARENT_CHECK

    done = subprocess.run([sys.executable, "-c", _KILLED_WHILE_STARTING], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    workers = [int(w) for w in done.stdout.split()]
    assert workers, done.stdout
    deadline = time.monotonic() + 10 * PARENT_CHECK + 30  # they first finish starting Python
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers), f"workers {workers} outlived the server"

