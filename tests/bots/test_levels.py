"""Named bot levels."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from knockabout.bots.ismcts import ISMCTSBot
from knockabout.bots.levels import BUDGETS, LEVELS, STEP_BUDGETS, budget, levels_for, make_bot, step_budget
from knockabout.bots.random_bot import RandomBot
from knockabout.core.bot import SeatView
from knockabout.core.errors import KnockaboutError
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from knockabout.games.nakmuay import state as S
from tests.bots.positions import build
from tests.sim.tiny_game import COACHED, HighCardBot, registered


@pytest.fixture
def tiny_games() -> Iterator[None]:
    with registered():
        yield


def test_the_levels_exist() -> None:
    assert list(LEVELS) == ["random", "easy", "medium", "hard", "learned"]


def test_levels_map_to_their_bots_for_nak_muay() -> None:
    assert isinstance(make_bot("random", "nak-muay"), RandomBot)
    heuristic = get_game("nak-muay").heuristic()
    assert heuristic is not None
    assert type(make_bot("easy", "nak-muay")) is type(heuristic.bot())
    medium, hard = make_bot("medium", "nak-muay"), make_bot("hard", "nak-muay")
    assert isinstance(medium, ISMCTSBot) and isinstance(hard, ISMCTSBot)
    assert medium.iterations == BUDGETS["medium"] < BUDGETS["hard"] == hard.iterations
    assert hard.rollout == "policy"  # Nak Muay offers a playout policy


@pytest.mark.usefixtures("tiny_games")
def test_easy_falls_back_to_a_small_search_and_says_so() -> None:
    bot = make_bot("easy", "tiny-duel")  # a game that declares no heuristic
    assert isinstance(bot, ISMCTSBot)
    assert "no heuristic" in bot.describe()
    assert bot.iterations == BUDGETS["fallback"]
    medium = make_bot("medium", "tiny-duel")
    assert isinstance(medium, ISMCTSBot) and medium.rollout == "mast" and medium.prior is None


@pytest.mark.usefixtures("tiny_games")
def test_levels_are_built_from_the_plug_ins_a_game_declares() -> None:
    assert isinstance(make_bot("easy", "tiny-duel-coached"), HighCardBot)
    medium, hard = make_bot("medium", "tiny-duel-coached"), make_bot("hard", "tiny-duel-coached")
    assert isinstance(medium, ISMCTSBot) and isinstance(hard, ISMCTSBot)
    # the game's budgets override the defaults where it gives them, and only there
    assert medium.iterations == budget("medium", "tiny-duel-coached") == 7
    assert hard.iterations == BUDGETS["hard"]
    assert step_budget("hard", "tiny-duel-coached") == 99
    assert step_budget("medium", "tiny-duel-coached") == STEP_BUDGETS["medium"]
    # it ships no trained network, so it offers no learned level, and says why
    assert levels_for("tiny-duel-coached") == ["random", "easy", "medium", "hard"]
    with pytest.raises(KnockaboutError, match=r"learned level is not available for .*no trained network ships"):
        make_bot("learned", "tiny-duel-coached")
    # its search prior is the heuristic's pick
    assert isinstance(hard.prior, HighCardBot) and hard.prior_visits == 3
    state = COACHED.new_state({}, 3, players=2)
    d = state.to_act()
    assert d is not None
    assert make_bot("easy", "tiny-duel-coached").choose(SeatView(state, d.player), state.legal_actions(), Rng(1))


def test_an_unknown_level_is_named_with_the_choices() -> None:
    expected = r"unknown bot level 'godlike'; choose one of: random, easy, medium, hard, learned"
    with pytest.raises(KnockaboutError, match=expected):
        make_bot("godlike", "nak-muay")


def test_search_levels_think_in_a_timed_window_even_with_no_answer_to_give() -> None:
    # a Countdown aimed at a seat holding no Block, Dodge or Clinch: "no-response" is forced,
    # yet the bot searches as it would with answers, so its timing does not reveal its hand
    s = build([["attack+1"], ["sweep", "scout"]], current=0, phase=S.COUNTDOWN, decider=1, out=["countdown"])
    s.target = 1
    s.countdown_live = True
    assert [a.text for a in s.legal_actions()] == ["no-response"]
    bot = make_bot("medium", "nak-muay")
    assert isinstance(bot, ISMCTSBot)
    bot.iterations = 20
    assert bot.choose(SeatView(s, 1), s.legal_actions(), Rng(1)).text == "no-response"
    assert bot.last.iterations == 20


def test_slow_games_get_a_smaller_step_budget() -> None:
    assert step_budget("hard", "nak-muay") == STEP_BUDGETS["hard"]
    assert step_budget("hard", "knockdown") < STEP_BUDGETS["hard"]
