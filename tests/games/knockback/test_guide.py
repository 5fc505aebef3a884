"""The KNOCKBACK guide: every punch it says knocks out (or holds) does so when applied to a
copy of the true state, abilities and auras included, under every option that changes a
punch (``knockback``, ``lineup``, ``scoring``, ``knockout_on_tie``); a punch on your own card is marked as yours;
and the guidance tells nothing the seat cannot see (a draft hand)."""

from __future__ import annotations

from typing import Any

from knockabout.core import get_game
from knockabout.core.bot import SeatView
from tests.conformance.guide_claims import advised, names_for, property_tests
from tests.games.knockback.guide_claims import CHECKS

OPTION_SETS: list[dict[str, Any]] = [
    {}, {"knockback": "whole_line"}, {"lineup": "draft2"}, {"scoring": "speed"},
    {"packs": ["granite-ward", "lantern-choir"]}, {"packs": ["night-moths", "tide-breakers"]},
    {"packs": ["iron-knuckles", "ember-rush"], "knockback": "whole_line"}, {"knockout_on_tie": True},
]


(
    test_every_declared_claim_has_a_check,
    test_every_claim_holds_on_a_copy_of_the_true_state,
    test_seeded_games_meet_every_claim,
    test_the_guidance_tells_nothing_hidden,
) = property_tests("knockback", OPTION_SETS, CHECKS, examples=40, max_steps=150, sweep=(4, 300), leak=(15, 40))


def test_a_punch_on_your_own_card_is_marked_as_yours() -> None:
    for s, d, got in advised("knockback", 40, 300, lambda seed, step, n: (seed + n) % n):
        view = s.observe(d.player)
        owner = {c.label: c.owner for c in view.cards}
        for a in got.actions:
            if a.action.startswith("punch:"):
                target = a.label.split("(")[1].split(")")[0]
                mine = owner[target] == d.player
                assert (a.tone == "own") == mine and ("your own" in a.label) == mine, a
                if mine:
                    return
    raise AssertionError("no punch on one's own card met")


def test_under_the_tie_house_rule_the_guide_says_a_tie_knocks_out() -> None:
    from tests.games.knockback.builders import battle, play

    guide = get_game("knockback").guide()
    assert guide is not None
    s = battle(board={"A1": (0, 0), "B1": (1, 0), "B2": (5, 5)}, knockout_on_tie=True)
    play(s, "activate:A1")
    words = {a.action: a.label for a in guide.advise(SeatView(s, 0), names_for(2)).actions}
    assert "attack 2 matches heart 2, knocks it out" in words["punch:E"]
    s = battle(board={"A1": (0, 0), "B1": (1, 0), "B2": (5, 5)})
    play(s, "activate:A1")
    words = {a.action: a.label for a in guide.advise(SeatView(s, 0), names_for(2)).actions}
    assert "attack 2 does not beat heart 2, it holds" in words["punch:E"]
