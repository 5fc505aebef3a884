"""Knockdown from an arranged position: a match under way, named card by card, that plays,
searches and saves like any other; every mistake one line naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.core.errors import ConfigError
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng

GAME = get_game("knockdown")
CFG = {"fighters": ["lost_knight", "maggot"], "boxes": ["tainted_grail"]}
ARR: dict[str, Any] = {
    "skills": [["Thick Hide", "Iron Fist"], ["Deep Pockets", "Bulwark"]],
    "revealed": [False, True],
    "positions": ["c2", "g2"],
    "wounds": [[1, 2], [3, 4]],
    "tokens": [{"potion": 1}, {}],
    "hands": [["Parry", "High Punch", "Jab"], ["Low Kick"]],
    "row": ["Spinning Heel", "Low Kick", "High Punch", "Skull Rattler"],
    "deck_top": ["High Kick", "Wyrdness"],
    "discard": ["Jab"],
    "victories": [0, 1],
    "round": 2,
    "first": 0,
    "current": 1,
    "turn": 7,
}


def test_the_match_is_where_the_arrangement_puts_it() -> None:
    s = GAME.arrange(CFG, ARR, 3)
    d = s.to_act()
    assert d is not None and d.player == 1 and d.kind == "turn"
    v = s.observe(1).to_json()
    me, other = v["fighters"][1], v["fighters"][0]
    assert (other["space"], me["space"]) == (9, 13)  # c2, g2
    assert (other["heavy"], other["light"], me["heavy"], me["light"]) == (1, 2, 3, 4)
    assert other["hand"] == ["High Punch", "Jab", "Parry"]  # a hand is kept in card order
    assert [sk["name"] for sk in me["skills"]] == ["Deep Pockets", "Bulwark"]  # revealed: both active
    assert [sk["name"] for sk in other["skills"]] == ["Thick Hide"] and other["hidden_skills"] == 1
    assert other["tokens"] == {"potion": 1} and me["tokens"] == {}
    assert v["row"] == ARR["row"] and v["discard"] == ["Jab"]
    assert (v["round"], v["turn"], other["victories"], me["victories"]) == (2, 7, 0, 1)
    # the next refills take the named top of the deck, in order
    s.apply("attack:0")
    s.apply("attack:1")
    while s.to_act() is not None and s.to_act().player == 1:  # type: ignore[union-attr]
        s.apply(s.legal_actions()[0])
    assert s.observe(0).to_json()["row"][:2] == ["High Kick", "Wyrdness"]


def test_the_rest_of_the_deck_is_the_boxs_own_and_follows_the_seed() -> None:
    a, b, c = (GAME.arrange(CFG, ARR, seed) for seed in (3, 3, 4))
    assert a.deck == b.deck and a.deck != c.deck
    held = 3 + 1 + 4 + 1  # hands, row, discard: the named top of the deck stays in it
    assert len(a.deck) == 36 - held + 4  # the Candle cards are shuffled in as at a real match's start


def test_an_arranged_match_searches_and_saves_like_any_other() -> None:
    s = GAME.arrange(CFG, ARR, 3)
    view = s.observe(1).to_json()
    for seed in range(5):
        d = s.determinize(1, Rng(seed))
        assert d.observe(1).to_json() == view  # what seat 2 knows does not change
    again = GAME.state_from_dict(s.to_dict())
    assert again.to_dict() == s.to_dict()


@pytest.mark.parametrize(("change", "says"), [
    ({"skills": [["Thick Hide", "Nope"], ["Deep Pockets", "Bulwark"]]}, "skills.0.1: no Skill card 'Nope'"),
    ({"skills": [["Thick Hide", "Bulwark"], ["Deep Pockets", "Bulwark"]]}, "skills: the four Skill cards must be"),
    ({"positions": ["c2", "z9"]}, "positions.1: no space 'z9'"),
    ({"positions": ["c2", "c2"]}, "positions: the two fighters cannot stand on one space"),
    ({"hands": [["Punch"], []]}, "hands.0.0: no Attack card 'Punch' in this deck"),
    ({"row": ["Jab", "Jab", "Jab", "Jab"]}, "the deck has 3 Jab; the arrangement places 6"),
    ({"tokens": [{"gold": 1}, {}]}, "tokens.0.gold: no such token"),
    ({"victories": [2, 0]}, "victories: a fighter with 2 victories has already won the match (rounds_to_win=2)"),
    ({"row": ["Jab"]}, "row.1: Field required"),
    ({"first": 2}, "first: Input should be less than or equal to 1"),
])
def test_a_bad_arrangement_is_one_line_naming_the_problem(change: dict[str, Any], says: str) -> None:
    with pytest.raises(ConfigError) as exc:
        GAME.arrange(CFG, {**ARR, **change})
    assert str(exc.value).startswith("knockdown: invalid arrangement: ")
    assert says in str(exc.value)
