"""Wilson intervals and Bradley–Terry / Elo ratings."""

from __future__ import annotations

import math

import pytest

from knockabout.sim.stats import bradley_terry, elo_from_strengths, elo_ratings, pairs_from_payoffs, wilson


def test_wilson_interval_matches_the_textbook_values() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4)
    assert hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(95, 100)
    assert (lo, hi) == (pytest.approx(0.8882, abs=1e-4), pytest.approx(0.9785, abs=1e-4))


def test_wilson_interval_without_games_is_everything() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_rejects_more_wins_than_games() -> None:
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_bradley_terry_recovers_three_to_one_odds_as_191_elo() -> None:
    pairs = [(0, 1, 1.0)] * 75 + [(0, 1, 0.0)] * 25
    elo = elo_from_strengths(bradley_terry(pairs, 2, prior=0.0), anchor=1)
    assert elo[1] == 0.0
    assert elo[0] == pytest.approx(400 * math.log10(3), abs=0.01)


def test_ratings_order_players_by_strength_with_intervals_around_them() -> None:
    # 0 beats 1 beats 2, 0 beats 2 more often still
    games = [[(0, 1, 1.0)]] * 70 + [[(0, 1, 0.0)]] * 30
    games += [[(1, 2, 1.0)]] * 70 + [[(1, 2, 0.0)]] * 30
    games += [[(0, 2, 1.0)]] * 85 + [[(0, 2, 0.0)]] * 15
    r = elo_ratings(games, 3, anchor=2, bootstrap=60, seed=4)
    assert r[0].elo > r[1].elo > r[2].elo == 0.0
    for x in r[:2]:
        assert x.low < x.elo < x.high


def test_an_unbeaten_player_still_gets_a_finite_rating() -> None:
    elo = elo_from_strengths(bradley_terry([(0, 1, 1.0)] * 20, 2))
    assert all(math.isfinite(e) for e in elo) and elo[0] > elo[1]


def test_pairs_come_from_seats_of_different_bots_only() -> None:
    # seats 0 and 2 hold the same bot; seat 1 won
    assert pairs_from_payoffs([0, 1, 0], [0.0, 1.0, 0.0]) == [(0, 1, 0.0), (1, 0, 1.0)]
    # a draw shared by two different bots is half a win each
    assert pairs_from_payoffs([0, 1], [0.5, 0.5]) == [(0, 1, 0.5)]
