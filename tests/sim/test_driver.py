"""The one bot-play driver: the same games as the loops it replaced, every event observed."""

from __future__ import annotations

import pytest

from knockabout.bots.levels import make_bot
from knockabout.bots.random_bot import RandomBot
from knockabout.core.errors import KnockaboutError
from knockabout.core.events import Event
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from knockabout.sim import SimSpec, run
from knockabout.sim.driver import Step, play


def test_tournament_games_are_the_ones_played_before_the_driver() -> None:
    # recorded with the tournament's own loop before it called the driver
    res = run(SimSpec("nak-muay", players=2, games=6, seed=3, bots=("easy", "random")))
    got = [(g.bots, g.winners, g.length, g.decisions, g.first, g.moves) for g in res.games]
    assert got == [
        (["easy", "random"], [0], 12, 17, 1, [9, 8]),
        (["random", "easy"], [1], 13, 23, 1, [15, 8]),
        (["easy", "random"], [0], 7, 15, 1, [7, 8]),
        (["random", "easy"], [0], 9, 20, 1, [10, 10]),
        (["easy", "random"], [0], 12, 19, 0, [9, 10]),
        (["random", "easy"], [1], 15, 34, 0, [22, 12]),
    ]
    # Knockdown re-recorded for its rules 1.1 (a Combo ends only after a Special Attack or a Dash)
    kd = run(SimSpec("knockdown", players=2, games=2, seed=7))
    assert [(g.winners, g.length, g.decisions, g.moves, g.reason) for g in kd.games] == [
        ([1], 91, 322, [146, 176], "fewest wounds"),
        ([1], 98, 373, [163, 210], "knockdown"),
    ]


@pytest.mark.parametrize("game", ["nak-muay", "knockback", "knockdown"])
def test_the_observer_hears_every_step_and_every_event(game: str) -> None:
    g = get_game(game)
    state = g.new_state({}, 11, players=2)
    steps: list[tuple[int, str, list[Event]]] = []

    def hear(step: Step) -> None:
        assert step.state is state
        steps.append((step.seat, step.action.text, list(step.events)))

    bots = [make_bot("easy", g.id), RandomBot()]
    played = play(state, bots, [Rng(1), Rng(2)], observer=hear)
    assert len(steps) == played.decisions == sum(played.moves)
    assert [sum(1 for s in steps if s[0] == p) for p in (0, 1)] == played.moves
    assert played.outcome == state.outcome() and state.is_over
    # the same actions applied by hand give exactly the events the observer heard
    again = g.new_state({}, 11, players=2)
    assert steps[0][0] == played.first
    for seat, action, events in steps:
        decision = again.to_act()
        assert decision is not None and decision.player == seat
        assert again.apply(action) == events
    assert again.is_over


def test_seats_sharing_one_rng_draw_from_it_in_turn() -> None:
    g = get_game("nak-muay")
    shared = Rng(5)
    driven = g.new_state({}, 2, players=3)
    play(driven, [RandomBot()] * 3, [shared] * 3)
    # a hand-written single-stream loop over the same deal
    state, rng = g.new_state({}, 2, players=3), Rng(5)
    while state.to_act() is not None:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    assert state.to_dict() == driven.to_dict()


def test_a_game_that_never_ends_is_stopped_with_a_clear_error() -> None:
    g = get_game("knockdown")
    with pytest.raises(KnockaboutError, match=r"knockdown: match 4 passed 10 decisions without ending"):
        play(g.new_state({}, 1, players=2), [RandomBot(), RandomBot()], [Rng(1), Rng(2)], cap=10, name="match 4")


def test_one_bot_and_one_rng_per_seat() -> None:
    g = get_game("knockback")
    with pytest.raises(KnockaboutError, match="2 seats need 2 bots and 2 RNGs"):
        play(g.new_state({}, 1, players=2), [RandomBot()], [Rng(1), Rng(2)])
