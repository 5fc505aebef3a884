"""Named bot levels."""

from __future__ import annotations

import pytest

from knockabout.bots.heuristic.nakmuay import HeuristicBot
from knockabout.bots.ismcts import ISMCTSBot
from knockabout.bots.levels import BUDGETS, LEVELS, make_bot
from knockabout.bots.random_bot import RandomBot
from knockabout.core.errors import KnockaboutError


def test_the_four_levels_exist() -> None:
    assert list(LEVELS) == ["random", "easy", "medium", "hard"]


def test_levels_map_to_their_bots_for_nak_muay() -> None:
    assert isinstance(make_bot("random", "nak-muay"), RandomBot)
    assert isinstance(make_bot("easy", "nak-muay"), HeuristicBot)
    medium, hard = make_bot("medium", "nak-muay"), make_bot("hard", "nak-muay")
    assert isinstance(medium, ISMCTSBot) and isinstance(hard, ISMCTSBot)
    assert medium.iterations == BUDGETS["medium"] < BUDGETS["hard"] == hard.iterations
    assert hard.rollout == "policy"  # Nak Muay offers a playout policy


def test_easy_falls_back_to_a_small_search_and_says_so() -> None:
    bot = make_bot("easy", "a-game-without-heuristic")
    assert isinstance(bot, ISMCTSBot)
    assert "no heuristic" in bot.describe()


def test_an_unknown_level_is_named_with_the_choices() -> None:
    expected = r"unknown bot level 'godlike'; choose one of: random, easy, medium, hard"
    with pytest.raises(KnockaboutError, match=expected):
        make_bot("godlike", "nak-muay")
