"""The KNOCKBACK guide: every punch it says knocks out (or holds) does so when applied to a
copy of the true state, abilities and auras included, under every option that changes a
punch (``knockback``, ``lineup``, ``scoring``); a punch on your own card is marked as yours;
and the guidance tells nothing the seat cannot see (a draft hand)."""

from __future__ import annotations

from typing import Any

from knockabout.core import get_game
from knockabout.core.bot import SeatView
from tests.conformance.guide_claims import names_for, property_tests
from tests.games.knockback.guide_claims import CHECKS

OPTION_SETS: list[dict[str, Any]] = [
    {}, {"knockback": "whole_line"}, {"lineup": "draft2"}, {"scoring": "speed"},
    {"packs": ["granite-ward", "lantern-choir"]}, {"packs": ["night-moths", "tide-breakers"]},
    {"packs": ["iron-knuckles", "ember-rush"], "knockback": "whole_line"},
]


(
    test_every_declared_claim_has_a_check,
    test_every_claim_holds_on_a_copy_of_the_true_state,
    test_seeded_games_meet_every_claim,
    test_the_guidance_tells_nothing_hidden,
) = property_tests("knockback", OPTION_SETS, CHECKS, examples=40, max_steps=150, sweep=(4, 300), leak=(15, 40))


def test_a_punch_on_your_own_card_is_marked_as_yours() -> None:
    g = get_game("knockback")
    guide = g.guide()
    assert guide is not None
    for seed in range(40):
        s = g.new_state({}, seed)
        for _ in range(300):
            d = s.to_act()
            if d is None:
                break
            got = guide.advise(SeatView(s, d.player), names_for(2))
            view = s.observe(d.player)
            owner = {c.label: c.owner for c in view.cards}
            for a in got.actions:
                if a.action.startswith("punch:"):
                    target = a.label.split("(")[1].split(")")[0]
                    mine = owner[target] == d.player
                    assert (a.tone == "own") == mine and ("your own" in a.label) == mine, a
                    if mine:
                        return
            s.apply(s.legal_actions()[(seed + len(s.legal_actions())) % len(s.legal_actions())])
    raise AssertionError("no punch on one's own card met")
