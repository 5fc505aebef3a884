"""The KNOCKBACK heuristic bot: legal, sensible, and much better than random."""

from __future__ import annotations

import pytest

from knockabout.bots import RandomBot, SeatView, make_bot
from knockabout.core import Rng, get_game
from knockabout.games.knockback.heuristic import HeuristicBot
from knockabout.games.knockback.state import KnockbackState
from tests.games.knockback.builders import battle, card, of_type, where

G = get_game("knockback")


def _finish_turn(bot: HeuristicBot, s: KnockbackState, rng: Rng) -> list:  # type: ignore[type-arg]
    me = s.current
    events: list = []  # type: ignore[type-arg]
    while s.to_act() is not None and s.current == me:
        a = bot.choose(SeatView(s, me), s.legal_actions(), rng)
        assert a in s.legal_actions()
        events += s.apply(a)
    return events


def test_easy_level_is_the_heuristic_bot() -> None:
    assert isinstance(make_bot("easy", "knockback"), HeuristicBot)


def test_it_takes_a_knockout_that_is_on_offer() -> None:
    s = battle(
        {"A2": card("Heavy", edges=((5, 2),) * 4)},
        {"A1": (0, 0), "A2": (0, 1), "B1": (1, 1), "B2": (3, 3)},
    )
    events = _finish_turn(HeuristicBot(), s, Rng(1))
    assert of_type(events, "knockout") and of_type(events, "knockout")[0].data["card"] == "B1"


def test_it_does_not_knock_out_its_own_card() -> None:
    s = battle(
        {"A1": card("Heavy", edges=((5, 2),) * 4)},
        {"A1": (0, 0), "A2": (1, 0), "B1": (0, 3)},
    )
    events = _finish_turn(HeuristicBot(), s, Rng(2))
    assert not of_type(events, "knockout")


def test_it_rests_rather_than_waste_a_card_when_nothing_is_in_reach() -> None:
    s = battle(board={"A1": (0, 0), "A2": (9, 9), "B1": (20, 0)}, exhausted=["A2"])
    events = _finish_turn(HeuristicBot(noise=0.0), s, Rng(3))
    assert of_type(events, "rest")


def test_it_closes_in_instead_of_passing_when_all_its_cards_are_rested() -> None:
    # nothing can knock anything out (2/2 edges all round) and resting would change nothing
    s = battle(
        {"A1": card("Walker", actions=("move", "move", "punch"))},
        {"A1": (0, 0), "A2": (0, 1), "B1": (3, 0)},
    )
    events = _finish_turn(HeuristicBot(noise=0.0), s, Rng(4))
    assert not of_type(events, "rest")
    assert where(s, "A1") == (2, 0)


def _turn_limit_rounds(seeds: range) -> int:
    """Single-round easy-vs-easy matches that end at the turn limit."""
    stalled = 0
    for seed in seeds:
        s = G.new_state({"scoring": "speed"}, seed)
        bot = HeuristicBot()
        rng = Rng(seed)
        while (d := s.to_act()) is not None:
            for e in s.apply(bot.choose(SeatView(s, d.player), s.legal_actions(), rng)):
                stalled += e.type == "round_over" and "turn limit" in e.data["reason"]
    return stalled


def test_two_heuristic_bots_rarely_run_into_the_turn_limit() -> None:
    # measured on these 48 seeds: 14 rounds at the limit with the anti-stall rule, 26 without it
    assert _turn_limit_rounds(range(48)) <= 21


def test_it_beats_the_random_bot_almost_always() -> None:
    wins = 0.0
    for seed in range(8):
        s = G.new_state({"scoring": "speed"}, seed)
        bots = [HeuristicBot(), RandomBot()] if seed % 2 == 0 else [RandomBot(), HeuristicBot()]
        me = 0 if seed % 2 == 0 else 1
        rng = Rng(seed)
        while (d := s.to_act()) is not None:
            s.apply(bots[d.player].choose(SeatView(s, d.player), s.legal_actions(), rng))
        out = s.outcome()
        assert out is not None
        wins += out.payoffs[me]
    assert wins >= 7


def test_it_drafts_and_places_legally() -> None:
    s = G.new_state({"lineup": "draft4"}, 5)
    bot = HeuristicBot()
    rng = Rng(5)
    while s.phase in (0, 1):
        d = s.to_act()
        assert d is not None
        a = bot.choose(SeatView(s, d.player), s.legal_actions(), rng)
        assert a in s.legal_actions()
        s.apply(a)
    assert s.phase == 2


def test_search_playouts_are_cut_and_scored_by_the_match_estimate() -> None:
    from knockabout.bots.ismcts import ISMCTSBot
    from knockabout.games.knockback.heuristic import ROLLOUT_DEPTH, rollout_value
    from knockabout.games.knockback.phases import MIDDLE

    plugin = G.heuristic()
    assert plugin is not None
    assert (plugin.rollout_value, plugin.rollout_depth) == (rollout_value, ROLLOUT_DEPTH)
    hard = make_bot("hard", "knockback")
    assert isinstance(hard, ISMCTSBot) and hard.evaluator is rollout_value

    # an empty board is an even round; the score token then says what the match is worth
    s = G.new_state({}, 1)
    assert isinstance(s, KnockbackState) and s.onboard == 0
    for token, seat0 in ((MIDDLE, 0.5), (0, 0.75), (1, 0.25)):
        s.token = token
        assert rollout_value(s) == pytest.approx((seat0, 1 - seat0))
    b = G.new_state({"scoring": "best_of", "best_of": 3}, 1)
    assert isinstance(b, KnockbackState)
    b.wins = [1, 0]
    assert rollout_value(b) == pytest.approx((0.75, 0.25))  # win this round: match over; lose it: 1-1


def test_the_match_estimate_favours_the_side_with_more_cards_on_the_grid() -> None:
    from knockabout.games.knockback.heuristic import rollout_value

    ahead = battle(board={"A1": (0, 0), "A2": (0, 1), "A3": (0, 2), "B1": (9, 9)}, scoring="speed")
    behind = battle(board={"A1": (0, 0), "B1": (9, 9), "B2": (9, 8), "B3": (9, 7)}, scoring="speed")
    v, w = rollout_value(ahead)  # each seat judges from its own board score
    assert v > 0.9 and w < 0.1
    v, w = rollout_value(behind)
    assert v < 0.1 and w > 0.9


def test_on_a_quiet_board_the_estimate_rewards_closing_in() -> None:
    from knockabout.games.knockback.heuristic import is_stalled, rollout_value

    far = battle(board={"A1": (0, 0), "B1": (30, 0)}, scoring="speed")
    near = battle(board={"A1": (0, 0), "B1": (2, 0)}, scoring="speed")
    assert is_stalled(far, 0) and is_stalled(near, 0)
    assert rollout_value(near)[0] > rollout_value(far)[0]


def test_the_search_hint_is_given_on_a_stalled_turn_only() -> None:
    from knockabout.games.knockback.heuristic import SEARCH_PRIOR_VISITS

    bot = HeuristicBot()
    quiet = battle(board={"A1": (0, 0), "B1": (30, 0)})
    hint = bot.hint(SeatView(quiet, 0), quiet.legal_actions(), Rng(1))
    assert hint is not None and hint.text != "rest"  # it closes in rather than pass
    fight = battle(
        {"A2": card("Heavy", edges=((5, 2),) * 4)},
        {"A1": (0, 0), "A2": (0, 1), "B1": (1, 1), "B2": (3, 3)},
    )  # a knockout is on offer: not a stalled turn, the search decides alone
    assert bot.hint(SeatView(fight, 0), fight.legal_actions(), Rng(1)) is None
    hard = make_bot("hard", "knockback")
    assert getattr(hard, "prior_visits", 0) == SEARCH_PRIOR_VISITS > 0
