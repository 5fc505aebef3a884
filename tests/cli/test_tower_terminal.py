"""The tower in the terminal: the person sees the numbered cubes with their ids and types the
ids in order; the table judges the answer by its clock (a person cannot type a verdict)."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console

from knockabout.cli.play import Quit, TerminalGame
from knockabout.table import Seat, Table
from tests.table.conftest import FakeClock
from tests.table.towers import tower_table

Line = str | Callable[[], str | None]


class ScriptedReader:
    """Answers prompts from a script; an entry may be a function of the moment it is asked."""

    def __init__(self, script: list[Line]) -> None:
        self.script = list(script)
        self.prompts: list[str] = []

    def read(self, prompt: Callable[[float | None], str], deadline: float | None = None,
             clock: Callable[[], float] | None = None) -> str | None:
        self.prompts.append(prompt(None if deadline is None or clock is None else deadline - clock()))
        # out of script: leave the table (and say yes when asked to confirm)
        item = self.script.pop(0) if self.script else ("y" if "Leave the table?" in self.prompts[-1] else "q")
        return item() if callable(item) else item


def ids_in_order(t: Table) -> str:
    ch = t.updates_for(0).challenge
    assert ch is not None
    return " ".join(c["id"] for c in sorted(ch["cubes"], key=lambda c: c["place"]))


def run(t: Table, script: list[Line]) -> tuple[str, ScriptedReader]:
    out = io.StringIO()
    reader = ScriptedReader(script)
    game = TerminalGame(t, Console(file=out, width=100, force_terminal=False), reader, clear=False)  # type: ignore[arg-type]
    with contextlib.suppress(Quit):  # after the tower: the game ends, or the script says q
        game.run()
    return out.getvalue(), reader


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def table(at: FakeClock) -> Table:
    return tower_table(at, second=Seat("bot", "Bot", "random"), local=True)


def typed_in(clock: FakeClock, seconds: float, text: Callable[[], str]) -> Callable[[], str]:
    """A person who takes ``seconds`` to type ``text()``."""

    def typing() -> str:
        clock.advance(seconds)
        return text()

    return typing


def test_typing_the_ids_in_order_passes_the_tower(clock: FakeClock) -> None:
    t = table(clock)
    tower_step = t.version
    screen, reader = run(t, [typed_in(clock, 4, lambda: ids_in_order(t))])
    assert "Build your tower" in screen and "Type the ids in order" in reader.prompts[0]
    assert "⏱ 10s" in reader.prompts[0]
    ch_ids = [e for e in t.log if e.step == tower_step]
    assert ch_ids[0].action == "tower:pass" and ch_ids[0].by == "judged"
    assert "The table judged: passed" in screen and "passes the Knockdown Test" in screen


def test_the_ids_typed_faster_than_a_person_can_fail_as_too_fast(clock: FakeClock) -> None:
    t = table(clock)
    tower_step = t.version
    screen, _ = run(t, [lambda: ids_in_order(t)])  # pasted the moment the puzzle showed
    assert "The table judged: failed: too fast for a person" in screen
    assert t.log[tower_step].action == "tower:fail" and t.log[tower_step].by == "judged"


def test_the_puzzle_on_screen_shows_every_cube_where_it_lies_now(clock: FakeClock) -> None:
    t = table(clock)
    ch = t.updates_for(0).challenge
    assert ch is not None
    screen, _ = run(t, ["q"])
    for cube in ch["cubes"]:
        assert f"{cube['id']}:{cube['place']}" in screen


def test_a_typed_verdict_is_not_an_answer_and_a_wrong_order_fails(clock: FakeClock) -> None:
    t = table(clock)
    tower_step = t.version

    def reversed_ids() -> str:
        return " ".join(reversed(ids_in_order(t).split()))

    screen, _ = run(t, ["tower:pass", reversed_ids])
    assert "Not an answer" in screen and "not a piece of this challenge" in screen
    assert t.log[tower_step].action == "tower:fail" and "wrong" in t.log[tower_step].verdict


def test_the_tower_falls_when_the_time_runs_out(clock: FakeClock) -> None:
    t = table(clock)
    tower_step = t.version

    def too_slow() -> Any:
        clock.advance(10.1)
        return None  # the reader's deadline passed

    screen, _ = run(t, [too_slow])
    assert "Time is up!" in screen
    assert t.log[tower_step].action == "tower:fail" and t.log[tower_step].by == "timeout"
