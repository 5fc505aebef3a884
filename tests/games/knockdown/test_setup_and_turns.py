"""Setup (skill draft, initiative, opening pick, Candle cards) and the shape of a turn."""

from __future__ import annotations

import pytest

from knockabout.core import IllegalActionError, Rng
from knockabout.games.knockdown import GAME
from knockabout.games.knockdown.rules.rounds import CANDLE, round_over
from tests.games.knockdown.helpers import arrange, fresh, hand, kind, legal, play, ready


def test_each_player_is_dealt_three_skills_and_the_draft_starts_with_seat_zero() -> None:
    s = fresh()
    assert len(s.dealt[0]) == len(s.dealt[1]) == 3
    assert not set(s.dealt[0]) & set(s.dealt[1])
    assert kind(s) == "skill_draft" and s.to_act().player == 0  # type: ignore[union-attr]
    assert legal(s) == ["skill:0", "skill:1", "skill:2"]


def test_a_kept_skill_stays_hidden_from_the_opponent_until_revealed() -> None:
    s = fresh()
    before = s.observe(1)
    events = s.apply("skill:2")
    kept = s.setup.skills[s.dealt[0][2]].name
    public = [e for e in events if e.visible_to is None]
    assert all(kept not in str(e.data) for e in public)
    assert [e.visible_to for e in events if e.type == "skill_kept_card"] == [frozenset({0})]
    after = s.observe(1)
    assert kept not in str(after.to_json())
    assert after.pending.chosen == (True, False)
    assert before.draft == after.draft
    assert kept in str(s.observe(0).draft)


def test_the_two_unkept_skills_pass_to_the_opponent_who_keeps_one_and_removes_the_other() -> None:
    s = fresh()
    play(s, "skill:0", "skill:1")
    assert s.recv[1] == [c for c in s.dealt[0] if c != s.keep1[0]]
    assert s.recv[0] == [c for c in s.dealt[1] if c != s.keep1[1]]
    assert legal(s) == ["skill:0", "skill:1"]
    play(s, "skill:1", "skill:0")
    assert s.keep2 == [s.recv[0][1], s.recv[1][0]]
    assert kind(s) == "skill_face_up"


def test_the_higher_face_up_initiative_goes_first_and_picks_one_then_two_then_the_last() -> None:
    s = fresh()
    play(s, "skill:0", "skill:0", "skill:0", "skill:0", "faceup:0", "faceup:1")
    ini = [s.setup.skills[s.active_skills(p)[0]].initiative for p in (0, 1)]
    first = 0 if ini[0] > ini[1] else 1
    assert s.first == first
    row_before = list(s.row)
    assert kind(s) == "opening_pick" and s.decider == first
    play(s, "row:3")
    assert s.decider == 1 - first
    play(s, "row:0")
    assert s.decider == 1 - first
    play(s, "row:1")
    # the first player gets the last card without a decision
    assert sorted(s.hands[first]) == sorted([row_before[3], row_before[2]])
    assert sorted(s.hands[1 - first]) == sorted([row_before[0], row_before[1]])
    assert all(d >= 0 for d in s.row), "the row is refilled to four"
    assert kind(s) == "turn" and s.current == first


def test_candle_cards_are_shuffled_into_the_tainted_grail_deck_after_the_opening_pick() -> None:
    s = ready(fresh())
    assert s.deck.count(CANDLE) + s.candle == 4
    assert CANDLE not in s.row


def test_nemesis_and_siege_storm_decks_have_no_candle_cards() -> None:
    for box, fighters in (("nemesis", ("james", "katie")), ("siege_storm", ("veroth", "driana"))):
        s = ready(fresh(fighters, boxes=[box]))
        assert CANDLE not in s.deck
        assert len(s.deck) + 4 + 4 == 36


def test_a_turn_is_exactly_two_actions_then_the_other_player_goes() -> None:
    s = ready(fresh())
    me = s.current
    arrange(s, at=((1, 1), (7, 1)))
    play(s, "move:right")
    assert s.current == me and s.actions_done == 1
    play(s, "move:right")
    assert s.current == 1 - me and s.actions_done == 0 and kind(s) == "turn"


def test_the_same_action_may_be_taken_twice_and_attacks_take_the_card_even_out_of_range() -> None:
    s = ready(fresh())
    me = s.current
    arrange(s, hands=([], []), at=((1, 1), (7, 1)), row=["High Punch", "Jab", "Parry", "High Kick"])
    ev = play(s, "attack:0")
    assert any(e.type == "out_of_range" for e in ev)
    assert hand(s, me) == ["High Punch"]
    assert s.heavy[1 - me] == 0
    play(s, "attack:1")
    assert hand(s, me) == ["High Punch", "Jab"]
    assert s.current == 1 - me


def test_the_attack_row_is_refilled_to_four_at_the_start_of_each_turn() -> None:
    s = ready(fresh())
    arrange(s, at=((1, 1), (7, 1)))
    play(s, "attack:0", "attack:1")
    assert all(d >= 0 for d in s.row)


def test_a_seventh_card_must_be_discarded_at_once() -> None:
    s = ready(fresh())
    me = s.current
    arrange(s, hands=(["Jab"] * 3 + ["Parry"] * 3, ["Jab"] * 3 + ["Parry"] * 3), at=((1, 1), (7, 1)),
            row=["High Punch", "Jab", "Parry", "High Kick"])
    play(s, "attack:0")
    assert kind(s) == "choose_card" and s.decider == me
    assert s.observe(me).pending.purpose == "hand_limit"
    assert legal(s) == ["card:0", "card:1", "card:4"], "one choice per distinct card (hands are sorted)"
    play(s, "card:1")
    assert len(s.hands[me]) == 6 and "High Punch" in hand(s, me) and hand(s, me).count("Jab") == 2


def test_stun_limits_the_next_turn_to_one_action() -> None:
    s = ready(fresh())
    me = s.current
    arrange(s, at=((1, 1), (7, 1)))
    s.tokens[1 - me][1] = 1  # stun
    play(s, "move:right", "move:right")
    assert s.current == 1 - me and s.actions_allowed == 1 and s.tokens[1 - me][1] == 0
    play(s, "move:left")
    assert s.current == me


def test_moving_into_the_opponent_or_off_the_arena_is_not_offered() -> None:
    s = ready(fresh())
    arrange(s, at=((0, 1), (1, 1)))
    moves = [a for a in legal(s) if a.startswith("move:")]
    assert moves == [], "(0,1) has no neighbour above/below (holes), left is off, right is the opponent"
    with pytest.raises(IllegalActionError):
        s.apply("move:right")


def test_no_possible_action_offers_pass_which_counts_as_an_action() -> None:
    s = ready(fresh())
    arrange(s, hands=([], []), at=((0, 1), (1, 1)), row=[None] * 4)
    assert legal(s) == ["pass"]
    play(s, "pass")
    assert s.actions_done == 1


def test_same_seed_and_actions_replay_the_same_match() -> None:
    a, b = GAME.new_state({}, 5), GAME.new_state({}, 5)
    r1, r2 = Rng(1), Rng(1)
    while a.to_act() is not None:
        la, lb = a.legal_actions(), b.legal_actions()
        assert la == lb
        a.apply(la[r1.below(len(la))])
        b.apply(lb[r2.below(len(lb))])
    assert a.to_dict() == b.to_dict()


def _knockout(**cfg: object) -> tuple:  # type: ignore[type-arg]
    """The Lost Knight's High Kick (a K.O. attack) and a failed tower test: the first round won."""
    s = ready(fresh(("lost_knight", "mistbearer"), knockdown_test="tower", **cfg), skills=True)
    me = s.current
    arrange(s, at=((3, 1), (4, 1)), hands=([], []), row=["High Kick", "Jab", "Jab", "Jab"])
    play(s, "attack:0", "ko:test", "tower:fail")
    return s, me


def test_with_rounds_to_win_one_the_first_round_won_ends_the_match() -> None:
    s, me = _knockout(rounds_to_win=1)
    assert s.victories[me] == 1 and s.to_act() is None
    outcome = s.outcome()
    assert outcome is not None and outcome.winners == (me,) and outcome.reason == "knockdown"
    assert s.observe(None).rounds_to_win == 1
    again = GAME.state_type.from_dict(s.to_dict())  # type: ignore[union-attr]
    assert again.cfg == s.cfg and again.to_dict() == s.to_dict()


def test_by_default_two_round_wins_take_the_match_and_the_view_leaves_the_number_out() -> None:
    s, me = _knockout()
    assert s.victories[me] == 1 and s.round_no == 2 and s.to_act() is not None
    assert s.observe(None).rounds_to_win is None
    assert s.to_dict()["cfg"] == ["tower", 0.95, 0.06, 300]  # saved as before the options at their defaults


def test_with_rounds_to_win_three_a_second_round_win_does_not_end_the_match() -> None:
    s, me = _knockout(rounds_to_win=3)
    s.victories[me] = 2  # as if the second round had gone the same way
    round_over(s, me, "knockdown", [])
    assert s.victories[me] == 3 and s.to_act() is None
    t, me2 = _knockout(rounds_to_win=3)
    t.victories[me2] = 1
    round_over(t, me2, "knockdown", [])
    assert t.victories[me2] == 2 and t.to_act() is not None and t.round_no == 3


def test_with_hand_limit_four_a_fifth_card_must_be_discarded_and_the_game_saves_it() -> None:
    s = ready(fresh(hand_limit=4))
    me = s.current
    arrange(s, hands=(["Jab"] * 2 + ["Parry"] * 2, ["Jab"] * 3), at=((1, 1), (7, 1)),
            row=["High Punch", "Jab", "Parry", "High Kick"])
    assert s.hand_limit(me) == 4 and s.observe(me).fighters[me].hand_limit == 4
    play(s, "attack:0")
    assert kind(s) == "choose_card" and s.decider == me
    assert s.observe(me).pending.purpose == "hand_limit"
    play(s, "card:0")
    assert len(s.hands[me]) == 4
    assert s.to_dict()["cfg"][-1] == 4, "the option is saved"
    again = GAME.state_type.from_dict(s.to_dict())  # type: ignore[union-attr]
    assert again.cfg == s.cfg and again.hand_limit(me) == 4


def test_with_hand_limit_eight_a_seventh_card_is_kept() -> None:
    s = ready(fresh(hand_limit=8))
    me = s.current
    arrange(s, hands=(["Jab"] * 3 + ["Parry"] * 3, ["Jab"] * 3), at=((1, 1), (7, 1)),
            row=["High Punch", "Jab", "Parry", "High Kick"])
    play(s, "attack:0")
    assert kind(s) != "choose_card" and len(s.hands[me]) == 7


def test_a_hand_limit_outside_three_to_ten_is_refused_with_its_range() -> None:
    from knockabout.core import ConfigError

    for bad in (2, 11):
        with pytest.raises(ConfigError, match="hand_limit"):
            fresh(hand_limit=bad)
