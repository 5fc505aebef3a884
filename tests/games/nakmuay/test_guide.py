"""The Nak Muay guide: every claim a label or hint makes holds when the action is applied to
a copy of the true state, under every option that changes what it says (``end_turn``, the
number of players), and the guidance tells nothing the deciding seat cannot see."""

from __future__ import annotations

import random
from typing import Any

from knockabout.core import get_game
from knockabout.core.bot import SeatView
from knockabout.games.nakmuay import cards as C
from tests.conformance.guide_claims import names_for, property_tests
from tests.games.nakmuay.guide_claims import CHECKS

OPTION_SETS: list[dict[str, Any]] = [
    {"players": p, "end_turn": e} for e in ("draw_after", "strict_end_turn") for p in (2, 3, 5)
] + [{"players": 2, "starting_block": True}, {"players": 4, "starting_block": True, "end_turn": "strict_end_turn"},
       {"players": 3, "hand_size": 3}, {"players": 2, "hand_size": 7, "end_turn": "strict_end_turn"},
       {"players": 2, "extra_kos": 3}]  # (a claim about the KOs left must count the extra ones)


(
    test_every_declared_claim_has_a_check,
    test_every_claim_holds_on_a_copy_of_the_true_state,
    test_seeded_games_meet_every_claim,
    test_the_guidance_tells_nothing_hidden,
) = property_tests("nak-muay", OPTION_SETS, CHECKS, examples=60, max_steps=120, sweep=(12, 400), leak=(25, 60),
                  rare=frozenset({"steals_nothing"}))  # (a pair against an empty hand: made on purpose below)


def test_a_pair_against_an_empty_hand_is_said_to_steal_nothing() -> None:
    g = get_game("nak-muay")
    s = g.new_state({"players": 3}, 4)
    me = s.current
    victim = s.next_active(me)
    s.hands[victim] = [0] * len(s.hands[victim])
    s.sizes[victim] = 0
    s.hands[me][C.PLUM] = 2
    s.sizes[me] = sum(s.hands[me])
    s._legal = None
    s.apply("pair:plum")
    guide = g.guide()
    assert guide is not None
    got = guide.advise(SeatView(s, me), names_for(3))
    empty = next(a for a in got.actions if a.action == f"target:{victim}")
    assert empty.claim == "steals_nothing" and "nothing to steal" in empty.label
    CHECKS["steals_nothing"](s.clone(), me, empty.action, random.Random(0), empty.label)
    other = next(a for a in got.actions if a.action != empty.action)
    assert not other.claim


def test_the_attack_is_never_said_to_save_the_draw_under_the_default_rules() -> None:
    """The first table of issue 37: no Block, an Attack in hand, the default end_turn. The
    hint names only Dodge as saving the draw, and the Attack says the draw follows."""
    g = get_game("nak-muay")
    for seed in range(200):
        s = g.new_state({"players": 2}, seed)
        d = s.to_act()
        assert d is not None
        hand = s.hands[d.player]
        if hand[1] or not any(a.text.startswith("attack:") for a in s.legal_actions()):
            continue
        guide = g.guide()
        assert guide is not None
        got = guide.advise(SeatView(s, d.player), names_for(2))
        attack = next(a for a in got.actions if a.action.startswith("attack:"))
        assert attack.claim == "still_draws" and attack.label.endswith(", then draw")
        for h in got.hints:
            assert not any(a.startswith("attack:") for a in h.actions) or h.claim != "avoids_draw"
        return
    raise AssertionError("no deal with an Attack and no Block in 200 seeds")


def test_scouting_two_alike_cards_says_which_one_is_taken() -> None:
    g = get_game("nak-muay")
    s = g.new_state({"players": 2}, 1)
    s.hands[s.current][C.SCOUT] += 1
    s.sizes[s.current] += 1
    s.pile[-3:] = [C.DODGE, C.BLOCK, C.BLOCK]  # top last: Block, Block, Dodge from the top
    s._legal = None
    s.apply("scout")
    guide = g.guide()
    assert guide is not None
    got = guide.advise(SeatView(s, s.current), names_for(2))
    assert [a.label for a in got.actions] == ["Take Block (card 1 from the top)", "Take Block (card 2 from the top)",
                                              "Take Dodge"]
