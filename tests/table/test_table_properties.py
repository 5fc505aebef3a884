"""Whatever people, bots and the clock do, the table's log, record and fan-out agree."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knockabout.core import replay
from knockabout.table import Seat, StaleActionError, Table
from tests.table.conftest import FakeClock, legal

steps = st.lists(
    st.tuples(st.sampled_from(["act", "stale", "wait", "away", "back"]), st.integers(0, 10_000)),
    min_size=1,
    max_size=120,
)


@settings(max_examples=40)
@given(seed=st.integers(0, 2**31), kinds=st.lists(st.booleans(), min_size=3, max_size=3), script=steps)
def test_log_record_and_fan_out_stay_consistent(seed: int, kinds: list[bool], script: list[tuple[str, int]]) -> None:
    clock = FakeClock()
    seats = [Seat("person", f"p{i}") if person else Seat("bot", f"b{i}", "random") for i, person in enumerate(kinds)]
    t = Table("nak-muay", seats, {"players": 3, "countdown_seconds": 3}, seed, clock=clock, bot_delay=1.0,
              bot_pace=0.5)
    for op, n in script:
        d = t.decision()
        if d is None:
            break
        if op == "act" and not t.bot_controls(d.player):
            options = legal(t)
            t.act(d.player, options[n % len(options)], t.version)
        elif op == "stale":
            before = t.version
            with pytest.raises(StaleActionError):
                t.act(d.player, "draw", t.version + 1 + n % 3)
            assert t.version == before
        elif op == "wait":
            clock.advance((n % 40) / 10)
            t.tick()
        else:
            t.set_away(n % 3, op == "away")
    assert t.version == len(t.log) == len(t.record.actions)
    assert [e.step for e in t.log] == list(range(len(t.log)))
    for e in t.log:
        if e.by == "timeout":
            assert e.action == "no-response"
        assert t.seats[e.seat].kind == ("bot" if e.by == "bot" else "person") or e.by == "timeout"
    assert all(ev.visible_to is None for _, ev in t.updates_for(None).events)
    for seat in range(3):
        assert all(ev.visible(seat) for _, ev in t.updates_for(seat).events)
    again = replay(t.record)
    for seat in (0, 1, 2, None):
        assert t.updates_for(seat).view == again.observe(seat), "the live table is its record, replayed"
