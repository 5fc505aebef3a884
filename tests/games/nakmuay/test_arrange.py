"""Nak Muay from an arranged deal: the hands and the pile's top as given, the rest of the
game's cards shuffled under them, every mistake one line naming the field."""

from __future__ import annotations

from collections import Counter

import pytest

from knockabout.core.errors import ConfigError
from knockabout.core.registry import get_game
from knockabout.games.nakmuay import cards as C

GAME = get_game("nak-muay")


def test_the_arranged_cards_are_where_the_arrangement_puts_them() -> None:
    s = GAME.arrange({"players": 3}, {"hands": [["block", "plum"], [], ["sweep"] * 4], "pile_top": ["ko", "scout"],
                                      "discard": ["dodge"], "first": 2, "direction": "counterclockwise"}, 9)
    v = s.observe(2)
    assert v.hand == ("sweep",) * 4 and v.hand_sizes == (2, 0, 4) and v.discard == ("dodge",)
    assert v.current == 2 and v.direction == "counterclockwise" and s.to_act().player == 2  # type: ignore[union-attr]
    assert [e & 15 for e in s.pile[-2:]] == [C.SCOUT, C.KO]  # top card last
    # the game's whole deck for three players is there, nothing more
    cards = Counter(e & 15 for e in s.pile) + Counter(s.discard)
    for hand in s.hands:
        cards.update({k: n for k, n in enumerate(hand) if n})
    assert [cards[k] for k in range(C.NUM_KINDS)] == C.in_play_counts(3)
    assert v.ko_in_pile == 3
    s.apply("draw")  # seat 3 draws the KO on top, holds no Block and is out
    assert s.active == [True, True, False]


def test_the_rest_of_the_pile_follows_the_seed() -> None:
    arr = {"hands": [["block"], ["dodge"]]}
    assert GAME.arrange({}, arr, 1).pile == GAME.arrange({}, arr, 1).pile
    assert GAME.arrange({}, arr, 1).pile != GAME.arrange({}, arr, 2).pile


@pytest.mark.parametrize(("arr", "says"), [
    ({"hands": [["block"]]}, "hands: give one hand per seat (2, not 1)"),
    ({"hands": [["ko"], []]}, "hands: seat 0 holds a KO"),
    ({"hands": [[], []], "discard": ["ko"]}, "discard: a KO never goes to the discard pile"),
    ({"hands": [[], []], "pile_top": ["ko", "ko", "ko"]}, "a 2-player game has 2 KO card(s); the arrangement places 3"),
    ({"hands": [["countdown"], ["countdown"]]}, "has 1 10-Second Countdown card(s)"),
    ({"hands": [[], []], "first": 2}, "first: there is no seat 2 at a 2-player table"),
    ({"hands": [["blok"], []]}, "hands.0.0: Input should be"),
    ({"hands": [[], []], "deck": []}, "no such field: deck"),
    ({}, "hands: Field required"),
])
def test_a_bad_arrangement_is_one_line_naming_the_problem(arr: dict[str, object], says: str) -> None:
    with pytest.raises(ConfigError) as exc:
        GAME.arrange({}, arr)
    assert str(exc.value).startswith("nak-muay: invalid arrangement: ")
    assert says in str(exc.value)
