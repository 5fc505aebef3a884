"""The quick-match queue, driven by a fake clock."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from knockabout.ladder.matching import MatchPolicy, MatchQueue, QueueError


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


POLICY = MatchPolicy(window=100, widen=10, max_window=500, bot_after=45)


def queue(players: int = 2, policy: MatchPolicy = POLICY) -> tuple[MatchQueue, Clock]:
    clock = Clock()
    return MatchQueue(players, clock, policy), clock


def test_two_close_people_are_seated_at_once() -> None:
    q, clock = queue()
    q.join("a", "ann", 1500)
    assert q.match() == []  # alone: nobody to play
    clock.now += 1
    q.join("b", "bo", 1580)
    [p] = q.match()
    assert [t.player for t in p.tickets] == ["ann", "bo"]  # the longest waiting first
    assert p.bots == 0 and p.gap == 80 and p.waits == (1.0, 0.0)
    assert len(q) == 0


def test_the_window_widens_with_waiting_and_next_due_says_when() -> None:
    q, clock = queue()
    q.join("a", "ann", 1500)
    q.join("b", "bo", 1750)  # 250 apart: each window must grow by 150 points, 15 s
    assert q.match() == []
    assert q.next_due() == pytest.approx(115.0)
    clock.now = 114.9
    assert q.match() == []
    clock.now = q.next_due() or 0
    [p] = q.match()
    assert p.gap == 250 and p.bots == 0


def test_a_newcomer_is_not_seated_far_away_because_someone_else_waited_long() -> None:
    q, clock = queue()
    q.join("a", "ann", 1500)
    clock.now += 30  # ann's window: 400 points
    q.join("b", "bo", 1850)  # bo's: 100
    assert q.match() == []
    q.join("c", "cy", 1540)
    [p] = q.match()  # ann with cy (close to both), bo keeps waiting
    assert {t.player for t in p.tickets} == {"ann", "cy"}
    assert [t.player for t in q.tickets()] == ["bo"]


def test_after_the_set_wait_the_table_fills_with_bots() -> None:
    q, clock = queue()
    q.join("a", "ann", 1500)
    assert q.next_due() == pytest.approx(145.0)
    clock.now = 144.99
    assert q.match() == []
    clock.now = 145.0
    [p] = q.match()
    assert p.bots == 1 and [t.player for t in p.tickets] == ["ann"] and p.waits == (45.0,)
    assert p.rating == 1500


def test_a_bigger_table_seats_whoever_fits_and_bots_for_the_rest() -> None:
    q, clock = queue(players=4)
    q.join("a", "ann", 1500)
    q.join("b", "bo", 1520)
    clock.now += 1
    q.join("c", "cy", 2400)  # far beyond any window
    assert q.match() == []  # two of four: not a table yet
    clock.now += 44
    [p] = q.match()
    assert [t.player for t in p.tickets] == ["ann", "bo"] and p.bots == 2
    assert [t.player for t in q.tickets()] == ["cy"]


def test_a_full_table_of_four_needs_a_span_every_window_accepts() -> None:
    q, clock = queue(players=4)
    for i, r in enumerate((1500, 1550, 1590, 1620)):
        q.join(f"t{i}", f"p{i}", r)
    assert q.match() == []  # span 120 > 100
    clock.now = q.next_due() or 0
    assert clock.now == pytest.approx(102.0)  # 2 s of widening: every window is 120
    [p] = q.match()
    assert p.gap == 120 and p.bots == 0 and len(q) == 0


def test_span_of_four_waits_for_the_newest_window() -> None:
    q, clock = queue(players=4)
    for i, r in enumerate((1500, 1550, 1590, 1620)):
        q.join(f"t{i}", f"p{i}", r)
        clock.now += 1
    clock.now = 103.0  # the last joined at 103: window 100 < span 120
    assert q.match() == []
    assert q.next_due() == pytest.approx(105.0)
    clock.now = 105.0
    [p] = q.match()
    assert p.gap == 120 and p.bots == 0


def test_refusals() -> None:
    q, _ = queue()
    q.join("a", "ann", 1500)
    with pytest.raises(QueueError, match="already waiting for a quick match"):
        q.join("b", "ann", 1500)
    with pytest.raises(QueueError, match="already waiting"):
        q.join("a", "bo", 1500)
    with pytest.raises(QueueError, match="finite"):
        q.join("c", "cy", math.nan)
    with pytest.raises(QueueError, match="at least 2"):
        MatchQueue(1, Clock())
    with pytest.raises(QueueError, match="bot_after"):
        MatchPolicy(bot_after=0)
    assert q.leave("a") and not q.leave("a")
    assert q.next_due() is None


@given(
    players=st.integers(2, 5),
    people=st.lists(st.tuples(st.floats(0, 120), st.floats(800, 2200)), min_size=1, max_size=40),
    leaves=st.sets(st.integers(0, 39), max_size=5),
)
def test_driven_by_next_due_every_seat_fits_and_nobody_waits_past_the_bot_wait(
        players: int, people: list[tuple[float, float]], leaves: set[int]) -> None:
    q, clock = queue(players)
    clock.now = 0.0
    arrivals = sorted(people)
    seated: list[str] = []
    i = 0
    while i < len(arrivals) or len(q):
        times = [x for x in (arrivals[i][0] if i < len(arrivals) else None, q.next_due()) if x is not None]
        clock.now = max(clock.now, min(times))
        if i < len(arrivals) and clock.now >= arrivals[i][0]:
            q.join(f"t{i}", f"p{i}", arrivals[i][1])
            if i in leaves and i % 2:
                assert q.leave(f"t{i}")
            i += 1
        for p in q.match():
            assert len(p.tickets) + p.bots == players and p.tickets
            assert all(w <= POLICY.bot_after + 1e-9 for w in p.waits)
            if p.bots == 0 or len(p.tickets) > 1:  # people seated together fit every window
                assert all(p.gap <= q.window(t, p.at) + 1e-6 for t in p.tickets)
            seated.extend(t.id for t in p.tickets)
    assert len(seated) == len(set(seated))
    left = {f"t{i}" for i in leaves if i % 2 and i < len(arrivals)}
    assert set(seated) == {f"t{i}" for i in range(len(arrivals))} - left
