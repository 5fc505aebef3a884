from __future__ import annotations

from collections.abc import Callable

import pytest

from knockabout.core.events import Event
from knockabout.core.protocol import State
from knockabout.core.registry import get_game
from knockabout.core.replay import replay
from knockabout.table import Table


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


ClockFactory = Callable[[], FakeClock]


# -- what a test may know beyond a seat's updates: the whole game, rebuilt from the record
# (the table keeps its state and full event log private; only updates_for redacts them)

def legal(table: Table) -> tuple[str, ...]:
    """The deciding seat's legal actions, as its update gives them."""
    d = table.decision()
    assert d is not None
    return table.updates_for(d.player).legal


def full_state(table: Table) -> State:
    """The table's whole state (hidden information included), rebuilt from its record."""
    return replay(table.record)


def all_events(table: Table) -> list[tuple[int, Event]]:
    """Every ``(step, event)`` of the table's game so far, hidden ones included."""
    rec = table.record
    state = get_game(rec.game).new_state(rec.config, rec.seed)
    out: list[tuple[int, Event]] = []
    for step, text in enumerate(rec.actions):
        out.extend((step, e) for e in state.apply(text))
    return out
