"""Bot answer times tell nothing about hidden information (issue 14, item 2).

A seat sees a bot's move when the table releases it. The table works the move out
ahead (:meth:`Table.think`) and releases it at a time fixed when the decision opened,
so a bot that thinks longer when it holds something (a Dodge in its hand: more legal
answers, a real search instead of a forced move) answers exactly when it would have
without it. These tests run real clocks with small delays (set by configuration).
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Sequence

import pytest
from scipy.stats import ks_2samp

from knockabout.bots import levels
from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.rng import Rng, fresh_seed
from knockabout.table import Seat, Table
from knockabout.table.thinking import FLOOR_MEMORY

pytestmark = pytest.mark.timeout(120)

PACE = 0.02  # the configured release delay (bot_pace and bot_delay)
SLOW = 0.008  # how much longer the leaky bot thinks when it has a real choice
ENOUGH = 25  # samples of each kind


def shift(a: list[float], b: list[float]) -> float:
    """How much later ``a`` comes than ``b`` (the Hodges-Lehmann estimate: the median of
    every pairwise difference), what someone timing the moves would estimate."""
    return statistics.median(x - y for x in a for y in b)


def telling(legal: Sequence[object]) -> bool:
    """What the leaky bot's thinking time gives away: whether it has an even number of
    legal answers, which depends on its hidden hand in every game (a Nak Muay Attack
    answered with a Dodge in hand: take or dodge; without: only take, like a search
    skipped on a forced move)."""
    return len(legal) % 2 == 0


class LeakyBot(Bot):
    """Thinks ``SLOW`` seconds longer when :func:`telling` holds."""

    name = "leaky"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        if telling(legal):
            time.sleep(SLOW)
        return legal[rng.below(len(legal))]


def drive(table: Table, person_rng: Rng, samples: dict[bool, list[float]],
          thinking: dict[bool, list[float]], *, threaded: bool, enough: int) -> None:
    """Play one game the way the server does (think ahead, release when due); record how
    long after each bot decision opened its move was released, split by :func:`telling`
    (hidden information)."""
    opened = time.monotonic()  # (taken just before the call that opened the decision)
    while not table.over and min(len(samples[True]), len(samples[False])) < enough:
        d = table.decision()
        assert d is not None
        if d.player == 0:
            legal = table.updates_for(0).legal
            opened = time.monotonic()
            table.act(0, legal[person_rng.below(len(legal))], table.version)
            continue
        choice = telling(_legal(table))
        thought = table.think()
        if thought is not None:
            t0 = time.monotonic()
            if threaded:  # as the server does: in a worker thread, nothing locked
                worker = threading.Thread(target=thought.run)
                worker.start()
                worker.join()
            else:
                thought.run()
            thinking[choice].append(time.monotonic() - t0)
            assert table.accept(thought)
        due = table.next_due()
        assert due is not None
        time.sleep(max(0.0, due - time.monotonic()))
        while True:
            started = time.monotonic()
            if table.tick(think=False):
                break
            time.sleep(0.0005)
        samples[choice].append(time.monotonic() - opened)
        opened = started


def _legal(table: Table) -> tuple[str, ...]:
    """The deciding seat's legal actions (what the test knows beyond a seat's view)."""
    d = table.decision()
    assert d is not None
    return table.updates_for(d.player).legal


CONFIGS = {
    "nak-muay": {"players": 2, "countdown_seconds": 2.0},
    "knockdown": {},
    "knockback": {},
}


def release_times(game_id: str, level: str) -> tuple[dict[bool, list[float]], dict[bool, list[float]]]:
    """Games of a person against a ``level`` bot until :data:`ENOUGH` of its moves of each kind
    (:func:`telling` or not) were released (or 20 s passed): when each was released after its
    decision opened, and how long the bot thought, split by kind."""
    samples: dict[bool, list[float]] = {True: [], False: []}
    thinking: dict[bool, list[float]] = {True: [], False: []}
    person = Rng(3)
    deadline = time.monotonic() + 20
    while min(len(samples[True]), len(samples[False])) < ENOUGH and time.monotonic() < deadline:
        seats = [Seat("person", "Ann"), Seat("bot", "Bot", level)]
        t = Table(game_id, seats, {**CONFIGS[game_id], "max_turns": 40} if game_id == "nak-muay"
                  else CONFIGS[game_id], fresh_seed(), bot_delay=PACE, bot_pace=PACE, steady_bots=True,
                  challenges={})
        drive(t, person, samples, thinking, threaded=True, enough=ENOUGH)
    return samples, thinking


def assert_released_alike(samples: dict[bool, list[float]]) -> None:
    """The moves of both kinds start at the same floor and are one distribution."""
    with_choice, forced = samples[True], samples[False]
    assert len(with_choice) >= 10 and len(forced) >= 10, (len(with_choice), len(forced))
    floor = PACE
    assert min(with_choice) >= floor - 1e-3 and min(forced) >= floor - 1e-3
    # (a bound on the shift's size, not a rank test: on a loaded machine the release tick's
    # own work differs by a fraction of a millisecond with the public action taken, which a
    # rank test over enough samples would call a difference; a leak would shift it by SLOW)
    assert abs(shift(with_choice, forced)) < SLOW / 2, (sorted(with_choice)[:5], sorted(forced)[:5])


@pytest.mark.parametrize("game_id", list(CONFIGS))
def test_a_leaky_bot_answers_at_the_same_time_whatever_it_holds(
        game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(levels.LEVELS, "leaky", lambda gid: LeakyBot())
    samples, thinking = release_times(game_id, "leaky")
    # the control: how long the bot thought does tell (the test can see a leak) ...
    assert ks_2samp(thinking[True], thinking[False]).pvalue < 1e-3
    # ... but when its answer came does not
    assert_released_alike(samples)


@pytest.mark.parametrize("game_id", [g for g in CONFIGS if "learned" in levels.levels_for(g)])
def test_the_learned_level_answers_at_the_same_time_whatever_it_holds(game_id: str) -> None:
    """The network answers a forced move at once and thinks (a little) otherwise; the table
    releases its moves alike all the same."""
    samples, thinking = release_times(game_id, "learned")
    assert thinking[True] and thinking[False], "the learned bot thought through the table's think-ahead"
    assert_released_alike(samples)


def test_a_move_worked_out_for_a_decision_that_changed_is_thrown_away() -> None:
    now = [0.0]
    seats = [Seat("person", "Ann", away=True), Seat("person", "Bo")]
    t = Table("nak-muay", seats, {"players": 2}, 11, challenges={}, clock=lambda: now[0], bot_pace=1.0)
    while (d := t.decision()) is not None and d.player == 1:
        t.act(1, _legal(t)[0], t.version)
    now[0] += 0.2
    thought = t.think()
    assert thought is not None and t.decision() is not None and t.decision().player == 0  # type: ignore[union-attr]
    thought.run()
    t.set_away(0, False)  # the person came back before the stand-in's move was released
    assert not t.accept(thought), "a plan for a stand-in is not kept once the person is back"
    assert t.think() is None, "no bot decides now"
    assert t.tick() == []


def test_steady_bots_never_release_sooner_than_the_longest_thinking_seen() -> None:
    now = [0.0]
    seats = [Seat("bot", "A", "random"), Seat("bot", "B", "random")]
    t = Table("knockback", seats, {}, 5, bot_pace=0.1, steady_bots=True, clock=lambda: now[0],
              challenges={})  # (long games: the test outlives the floor's memory)
    thought = t.think()
    assert thought is not None
    thought.run()
    now[0] += 0.4  # this one thought 0.4 s
    thought.ready_after = 0.4
    assert t.accept(thought)
    assert t.think_floor == pytest.approx(0.5)
    assert t.next_due() == pytest.approx(0.5), "this move is released at the raised floor"
    now[0] = 0.5
    assert len(t.tick()) >= 1
    d = t.decision()
    assert d is not None and t.next_due() == pytest.approx(now[0] + 0.5), "and so is every later one"
    for _ in range(FLOOR_MEMORY + 1):  # quick moves until the one long thinking ages out
        due = t.next_due()
        assert due is not None
        now[0] = due
        assert t.tick()
    assert t.think_floor < 0.5, "a stall long ago no longer slows the table"


class EndlessSearch(Bot):
    """A search that would go on for ever: it stops only when told how long it has, and
    then takes all of it (on the table's clock, ``now``, which it moves on)."""

    name = "endless"

    def __init__(self, now: list[float]) -> None:
        self.given: list[float] = []
        self.now = now

    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        raise AssertionError("a steady table must say how long the search may take")

    def choose_within(self, view: SeatView, legal: Sequence[Action], rng: Rng, seconds: float) -> Action:
        self.given.append(seconds)
        self.now[0] += seconds
        return legal[0]


@pytest.mark.parametrize("game_id", ["nak-muay", "knockdown", "knockback"])
def test_a_search_is_capped_by_its_release_time_so_even_a_cold_table_never_shows_it(game_id: str) -> None:
    """On a clock the test moves (a real one overruns a sleep on a loaded machine); that a
    real search stops when told is tested below."""
    pace = 0.05
    now = [100.0]
    seats = [Seat("bot", "A", "hard"), Seat("bot", "B", "hard")]
    t = Table(game_id, seats, {}, 3, bot_pace=pace, bot_delay=pace, steady_bots=True, challenges={},
              clock=lambda: now[0])
    bot = EndlessSearch(now)
    t._bots = {0: bot, 1: bot}  # (a table makes one bot per seat; here both are endless)
    for _ in range(6):
        d = t.decision()
        assert d is not None
        opened = now[0]
        thought = t.think()
        assert thought is not None
        thought.run()
        assert t.accept(thought)
        assert 0 < thought.ready_after < pace, "the search ended before its move was due"
        due = t.next_due()
        assert due is not None and due - opened <= pace + 1e-9, "the floor it taught stays under the pace"
        assert not t.tick(think=False), "not released before it is due"
        now[0] = due
        assert t.tick(think=False), "the move is released when due"
    assert bot.given and max(bot.given) <= 0.6 * pace + 1e-9


def test_a_capped_ismcts_search_stops_at_its_time() -> None:
    from knockabout.bots.ismcts import ISMCTSBot
    from knockabout.core.registry import get_game

    state = get_game("knockdown").new_state({}, 1)
    d = state.to_act()
    assert d is not None
    bot = ISMCTSBot(iterations=10**9)  # would take hours uncapped
    started = time.perf_counter()
    bot.choose_within(SeatView(state, d.player), state.legal_actions(), Rng(1), 0.05)
    assert time.perf_counter() - started < 2.0


def test_tables_without_steady_bots_let_a_search_run_its_budget() -> None:
    seats = [Seat("bot", "A", "hard"), Seat("bot", "B", "hard")]
    t = Table("knockback", seats, {}, 3, bot_pace=0.05, challenges={})
    thought = t.think()
    assert thought is not None and thought.think_by is None


def test_the_floor_counts_the_hand_back_of_a_thinking_not_only_the_thinking() -> None:
    """On a starved event loop a thinking that ended in time can reach the table late; the
    floor is learned from when the table got it, so the next moves wait that long too."""
    now = [0.0]
    seats = [Seat("bot", "A", "random"), Seat("bot", "B", "random")]
    t = Table("knockback", seats, {}, 5, bot_pace=0.1, steady_bots=True, clock=lambda: now[0], challenges={})
    thought = t.think()
    assert thought is not None
    now[0] = 0.01
    thought.run()  # thought for 10 ms ...
    now[0] = 0.3  # ... but the table got it 300 ms after the decision opened
    assert t.accept(thought)
    assert thought.ready_after == pytest.approx(0.3)
    assert t.think_floor == pytest.approx(0.3 * 1.25), "the floor covers the hand-back"


def test_a_resumed_decision_teaches_no_floor_from_the_time_the_table_was_away() -> None:
    """A table resumed on another server keeps its pending decision's opening time (its
    clock runs on from there); the seconds it spent moving are no thinking, and learned as
    a floor they would hold every later bot move back for that long."""
    now = [100.0]
    seats = [Seat("bot", "A", "random"), Seat("bot", "B", "random")]
    t = Table("nak-muay", seats, {}, 5, bot_pace=0.1, bot_delay=0.1, steady_bots=True, clock=lambda: now[0],
              challenges={})
    while t.time_limit() is None:  # play on to a timed decision (a reaction window)
        now[0] += 0.5
        t.tick()
        assert not t.over
    limit = t.time_limit()
    assert limit is not None
    floor = t.think_floor  # (learned from the moves so far)
    now[0] += 4.0  # four seconds away (a host stopped, its table taken and resumed elsewhere)
    t.resume_clock(limit - 1.0)  # one second of the window had gone before
    thought = t.think()
    assert thought is not None and now[0] - thought.opened == pytest.approx(1.0)
    now[0] += 0.01
    thought.run()
    now[0] += 0.01
    assert t.accept(thought)
    assert thought.ready_after == pytest.approx(0.02)
    assert t.think_floor == pytest.approx(max(floor, 0.02 * 1.25)), "the four seconds away were not learned"
