"""The one loop that plays bots against each other: tournaments, balance runs and the demo.

:func:`play` asks the seat that must decide for an action (its bot, handed that seat's
:class:`~knockabout.core.bot.SeatView` and its own RNG), applies it, and repeats until the
game is over. It measures each seat's thinking time and counts its moves, refuses a game
that never ends (a decision cap), and tells an optional observer of every step: the
action, the seat that chose it, the events it caused and the state it led to.

Seats may share one RNG (pass the same object for each): the bots then draw from it in
the order they decide, as a single-stream caller would.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.errors import KnockaboutError
from knockabout.core.events import Event
from knockabout.core.protocol import Outcome, State
from knockabout.core.rng import Rng

DECISION_CAP = 1_000_000
"""A game taking more decisions than this is reported as broken."""


@dataclass(frozen=True, slots=True)
class Step:
    """One decision taken: ``seat`` chose ``action``, which caused ``events`` and left ``state``."""

    state: State
    seat: int
    action: Action
    events: list[Event]


Observer = Callable[[Step], None]
"""Hears of every step as it is taken (the state is live: read it, do not keep it)."""


@dataclass(frozen=True)
class Played:
    """How a game between bots went."""

    outcome: Outcome
    decisions: int
    first: int
    """The seat asked the first decision (-1: the game was over before any)."""
    think: list[float]
    """Seconds each seat spent choosing."""
    moves: list[int]
    """Decisions each seat took."""


def play(
    state: State,
    bots: Sequence[Bot],
    rngs: Sequence[Rng],
    *,
    observer: Observer | None = None,
    cap: int = DECISION_CAP,
    name: str = "a game",
) -> Played:
    """Play ``state`` to its end with one bot and one RNG per seat (``state`` is changed).

    Raises :class:`~knockabout.core.errors.KnockaboutError` when the game passes ``cap``
    decisions without ending (``name`` says which game in the message).
    """
    n = state.num_players
    if len(bots) != n or len(rngs) != n:
        raise KnockaboutError(f"{state.game.id}: {n} seats need {n} bots and {n} RNGs, got {len(bots)} and {len(rngs)}")
    think = [0.0] * n
    moves = [0] * n
    first_decision = state.to_act()
    first = -1 if first_decision is None else first_decision.player
    decisions = 0
    clock = time.perf_counter
    while (decision := state.to_act()) is not None:
        p = decision.player
        legal = state.legal_actions()
        t0 = clock()
        action = bots[p].choose(SeatView(state, p), legal, rngs[p])
        think[p] += clock() - t0
        moves[p] += 1
        events = state.apply(action)
        decisions += 1
        if observer is not None:
            observer(Step(state, p, action, events))
        if decisions > cap:
            raise KnockaboutError(f"{state.game.id}: {name} passed {cap} decisions without ending")
    outcome = state.outcome()
    assert outcome is not None
    return Played(outcome=outcome, decisions=decisions, first=first, think=think, moves=moves)
