"""People at play first: bots' moves, timeouts and arrivals start a few per turn of the
event loop (:mod:`knockabout.server.pacing`), so a burst of them never holds the loop
while a person's action waits to be read."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import uvloop

from knockabout.server import ServerSettings
from knockabout.server.live import LiveTable, Manager
from knockabout.server.pacing import TurnGate
from knockabout.store import Store
from tests.server.conftest import run_async

pytestmark = [pytest.mark.timeout(120), pytest.mark.solo]  # (solo: see tests/conftest.py)

RUNNERS: list[Callable[[Coroutine[Any, Any, Any]], Any]] = [asyncio.run, uvloop.run]


class Turns:
    """Counts the turns of the running loop: a callback that schedules itself again runs
    once per turn."""

    def __init__(self) -> None:
        self.now = 0
        self._stopped = False

    def start(self) -> None:
        asyncio.get_running_loop().call_soon(self._tick)

    def _tick(self) -> None:
        if not self._stopped:
            self.now += 1
            asyncio.get_running_loop().call_soon(self._tick)

    def stop(self) -> None:
        self._stopped = True


@pytest.mark.parametrize("runner", RUNNERS, ids=["asyncio", "uvloop"])
def test_a_burst_goes_through_a_few_per_turn_in_order_while_others_run_between(runner: Any) -> None:
    async def main() -> tuple[list[int], list[int], int]:
        gate = TurnGate(per_turn=2)
        passed: list[int] = []
        seen_by_person: list[int] = []

        async def bot(i: int) -> None:
            await gate.enter()
            passed.append(i)

        async def person() -> None:  # someone whose message is read meanwhile
            for _ in range(3):
                await asyncio.sleep(0)
                seen_by_person.append(len(passed))

        tasks = [asyncio.create_task(bot(i)) for i in range(10)]
        tasks.append(asyncio.create_task(person()))
        await asyncio.gather(*tasks)
        return passed, seen_by_person, gate.waiting

    passed, seen, waiting = run_async(main(), runner)
    assert passed == list(range(10)), "first come, first served"
    assert seen[0] <= 2, f"the whole burst ran before anyone else ({seen[0]} of 10 first)"
    assert seen[-1] < 10, "the burst is spread over several turns, with other work between"
    assert waiting == 0


@pytest.mark.parametrize("runner", RUNNERS, ids=["asyncio", "uvloop"])
def test_no_turn_lets_more_than_its_share_through(runner: Any) -> None:
    async def main() -> Counter[int]:
        gate = TurnGate(per_turn=3)
        turns = Turns()
        turns.start()
        per_turn: Counter[int] = Counter()

        async def bot() -> None:
            for _ in range(5):
                await gate.enter()
                per_turn[turns.now] += 1
                await asyncio.sleep(0)

        await asyncio.gather(*(bot() for _ in range(40)))
        turns.stop()
        return per_turn

    per_turn = run_async(main(), runner)
    assert sum(per_turn.values()) == 200
    # (the counting callback may run before or after the callers of its turn: two counts
    # can share one number, so the bound is two turns' worth)
    assert max(per_turn.values()) <= 2 * 3, per_turn.most_common(3)
    assert len(per_turn) >= 200 // 6


def test_a_caller_cancelled_while_it_waits_gives_its_place_up() -> None:
    async def main() -> tuple[list[int], int]:
        gate = TurnGate(per_turn=1)
        passed: list[int] = []

        async def bot(i: int) -> None:
            await gate.enter()
            passed.append(i)

        tasks = [asyncio.create_task(bot(i)) for i in range(5)]
        await asyncio.sleep(0)  # all have come; 0 went through, 1-4 wait
        assert gate.waiting == 4
        tasks[2].cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return passed, gate.waiting

    passed, waiting = run_async(main())
    assert passed == [0, 1, 3, 4]
    assert waiting == 0


def test_a_gate_used_by_a_later_loop_counts_that_loops_turns() -> None:
    """A loop stopped in the turn the gate filled up (its reset never ran) leaves nothing
    stuck for the next loop that uses the gate."""
    gate = TurnGate(per_turn=1)

    def stopped_mid_turn() -> None:
        loop = asyncio.new_event_loop()
        entered = loop.create_task(gate.enter())
        loop.call_soon(loop.stop)  # the loop stops after this turn: the gate's reset waits for the next
        loop.run_forever()
        loop.close()
        assert entered.done() and gate.waiting == 0

    with ThreadPoolExecutor(1) as pool:  # (a loop of its own, as run_async's)
        pool.submit(stopped_mid_turn).result()

    async def later() -> int:
        await asyncio.wait_for(asyncio.gather(*(gate.enter() for _ in range(3))), 5)
        return gate.waiting

    assert run_async(later()) == 0


def test_a_gate_needs_room_for_one() -> None:
    with pytest.raises(ValueError, match="per_turn must be at least 1, not 0"):
        TurnGate(per_turn=0)


def test_bot_moves_are_sent_a_few_per_turn_however_many_fall_due_together(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twelve bot-only tables whose moves are all due at once (no pace): the changes they
    make are sent at most one per turn (the gate's share), not a dozen in one turn as the
    store confirms them together; every table keeps playing."""
    settings = ServerSettings(db_url=f"sqlite:///{tmp_path / 'k.db'}", bot_delay=0, bot_pace=0,
                              max_bot_tables=20, bot_moves_per_turn=1)
    per_turn: Counter[int] = Counter()
    turns = Turns()
    sent = LiveTable.broadcast

    async def counted(self: LiveTable) -> None:
        per_turn[turns.now] += 1
        await sent(self)

    monkeypatch.setattr(LiveTable, "broadcast", counted)

    async def main() -> list[LiveTable]:
        store = Store(settings.db_url)
        store.open_writer()
        m = Manager(settings, store)
        turns.start()
        tables = [(await m.create("knockback", ["random", "random"], {}, "x"))[0] for _ in range(12)]
        for _ in range(3000):
            if sum(per_turn.values()) >= 400:
                break
            await asyncio.sleep(0.01)
        turns.stop()
        await m.close()
        store.close()
        return tables

    tables = run_async(main(), uvloop.run)
    assert sum(per_turn.values()) >= 400
    assert all(t.table.version >= 5 for t in tables), "every table kept playing"
    assert max(per_turn.values()) <= 2, per_turn.most_common(3)
