"""KNOCKBACK from an arranged round: who starts, where the score token lies, the rounds won."""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.core.errors import ConfigError
from knockabout.core.registry import get_game

GAME = get_game("knockback")
CFG = {"packs": ["iron-knuckles", "ember-rush"]}


def test_the_round_starts_as_arranged_whatever_the_seed() -> None:
    for seed in range(6):
        s = GAME.arrange(CFG, {"starter": 1, "token": 1, "wins": [0, 1], "round": 2}, seed)
        v = s.observe(0).to_json()
        assert (v["starter"], v["current"], v["token"], v["wins"], v["round"]) == (1, 1, 1, [0, 1], 2)
        assert s.to_act().player == 1 and s.to_act().kind == "place"  # type: ignore[union-attr]
    default = GAME.arrange(CFG, {}, 3).observe(None).to_json()
    assert (default["starter"], default["token"], default["round"]) == (0, None, 1)


def test_winning_the_arranged_round_with_the_token_wins_the_match() -> None:
    s = GAME.arrange({**CFG, "scoring": "tug"}, {"starter": 0, "token": 0, "wins": [1, 0], "round": 2}, 1)
    for a in ["place:A1", "place:B1:A1:E", "place:A2:A1:S", "place:B2:B1:E", "place:A3:A1:W", "place:B3:B2:N"]:
        s.apply(a)
    assert s.to_act().kind == "turn"  # type: ignore[union-attr]
    assert GAME.state_from_dict(s.to_dict()).to_dict() == s.to_dict()


@pytest.mark.parametrize(("arr", "says"), [
    ({"starter": 2}, "starter: Input should be less than or equal to 1"),
    ({"token": "left"}, "token: Input should be 'middle', 0 or 1"),
    ({"wins": [1, 1], "round": 2}, "wins: [1, 1] rounds won cannot come before round 2"),
    ({"score": 1}, "no such field: score"),
])
def test_a_bad_arrangement_is_one_line_naming_the_problem(arr: dict[str, Any], says: str) -> None:
    with pytest.raises(ConfigError) as exc:
        GAME.arrange(CFG, arr)
    assert str(exc.value).startswith("knockback: invalid arrangement: ")
    assert says in str(exc.value)


def test_a_draft_cannot_be_arranged() -> None:
    with pytest.raises(ConfigError, match="only a match of packs"):
        GAME.arrange({**CFG, "lineup": "draft2"}, {})
