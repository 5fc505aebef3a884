"""The loop every long run shares: units through an executor, a checkpoint as they
finish, progress, Ctrl+C, resume and sequential stopping.

A run is a list of *units* in plan order (see :mod:`knockabout.sim.executor`); each
covers rounds ``[start, end)`` (a round: one paired deal, or one match of every
pairing) and holds ``games`` games. Units already in the checkpoint are not played
again. Without a stopping rule every unit is played; with one, the run plays the units
before each look's round count and asks the rule whether to stop (see
:mod:`knockabout.sim.sequential`).

A unit's result is plain JSON data, the same whether it was just played or read back
from a checkpoint, so a resumed run gives exactly the result of an uninterrupted one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from knockabout.sim.checkpoint import Checkpoint
from knockabout.sim.executor import Executor


class Unit(Protocol):
    @property
    def end(self) -> int:
        """The round after the unit's last."""
        ...

    @property
    def games(self) -> int:
        """How many games the unit plays."""
        ...


U = TypeVar("U", bound=Unit)

ProgressFn = Callable[[int, int, str], None]
"""``progress(games_done, games_planned, note)``: after every finished unit."""

StopFn = Callable[[int, int, Mapping[int, Any]], tuple[bool, str]]
"""``stop(rounds, look, done)``: at a look after ``rounds`` rounds (``look`` from 1),
with the data of the units before it: whether to stop, and a note for the progress line."""


class RunInterrupted(Exception):
    """Ctrl+C stopped the run; the finished units are in the checkpoint."""

    def __init__(self, checkpoint: Path | None, units_done: int, units: int) -> None:
        super().__init__(f"interrupted with {units_done} of {units} units done")
        self.checkpoint = checkpoint
        self.units_done = units_done
        self.units = units


@dataclass(frozen=True)
class Outcome:
    """What a run played: the data of every unit before ``rounds``, by unit position."""

    rounds: int
    data: dict[int, Any]
    looks: int
    seconds: float


def execute(
    units: Sequence[U],
    play: Callable[[U], Any],
    executor: Executor,
    checkpoint: Checkpoint,
    *,
    schedule: Iterable[int] | None = None,
    stop: StopFn | None = None,
    progress: ProgressFn | None = None,
) -> Outcome:
    """Play the units (those not in the checkpoint), through ``executor``.

    ``schedule``: the round counts to look at (the default: one look after every unit).
    Raises :class:`RunInterrupted` on Ctrl+C, with the checkpoint kept and closed."""
    done = checkpoint.done
    last = max((u.end for u in units), default=0)
    targets = list(schedule) if schedule is not None else [last]
    planned = sum(u.games for u in units)
    played = sum(units[i].games for i in done if i < len(units))
    note = ""
    t0 = time.perf_counter()
    if progress:
        progress(played, planned, note)
    rounds, look = 0, 0
    try:
        for look, rounds in enumerate(targets, 1):
            todo = [i for i, u in enumerate(units) if u.end <= rounds and i not in done]
            for pos, data in executor.run(play, [units[i] for i in todo]):
                checkpoint.add(todo[pos], data)
                played += units[todo[pos]].games
                if progress:
                    progress(played, planned, note)
            if stop is not None:
                finished, note = stop(rounds, look, {i: d for i, d in done.items() if units[i].end <= rounds})
                if progress:
                    progress(played, planned, note)
                if finished:
                    break
    except KeyboardInterrupt:
        checkpoint.close()
        raise RunInterrupted(checkpoint.path, len(done), len(units)) from None
    data = {i: d for i, d in done.items() if i < len(units) and units[i].end <= rounds}
    return Outcome(rounds, data, look, time.perf_counter() - t0)
