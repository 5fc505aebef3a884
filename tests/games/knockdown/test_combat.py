"""Combos, costs, the Attack Sequence, blocking, reactions, the Knockdown Test and rounds."""

from __future__ import annotations

import pytest

from knockabout.core.errors import IllegalActionError
from knockabout.games.knockdown.state import TK_CURSE, KnockdownState
from tests.games.knockdown.helpers import arrange, fresh, hand, kind, legal, play, ready


def knight_vs_mistbearer(skills: bool = False) -> tuple:  # type: ignore[type-arg]
    """Lost Knight to act, Mistbearer adjacent on its right (drafted skills off unless ``skills``)."""
    s = ready(fresh(("lost_knight", "mistbearer")), skills)
    me = s.current
    if s.setup.fighters[me].id != "lost_knight":
        # make the Lost Knight's seat the one to act
        arrange(s, current=1 - me)
        s.actions_done = 0
        me = s.current
    arrange(s, at=((3, 1), (4, 1)))
    return s, me


# --------------------------------------------------------------------------- combos and costs


def test_a_combo_offers_only_special_attacks_that_can_be_paid_and_reach() -> None:
    s, _me = knight_vs_mistbearer()
    arrange(s, hands=(["High Punch", "High Kick"], ["High Punch", "High Kick"]))
    play(s, "combo")
    # Greatsword Arc (punch+kick, range 1-2) is payable; Shield Bash needs a block; Vow needs a block;
    # Relentless Charge reaches but needs a dash; no combo:end before something is played
    assert legal(s) == ["special:0"]


def test_relentless_charge_reaches_an_adjacent_opponent_and_wounds_it() -> None:
    s, me = knight_vs_mistbearer()
    assert s.setup.specials[me][3].name == "Relentless Charge"
    arrange(s, hands=(["Jab"], []))  # punch + dash on one card
    play(s, "combo")
    assert "special:3" in legal(s), "range 1-3 includes the adjacent space"
    play(s, "special:3", "pay:0")
    assert (s.heavy[1 - me], s.light[1 - me]) == (1, 1)


def test_maul_and_wrench_swing_take_a_punch_and_any_symbol_no_kick_needed() -> None:
    for fighter, name in (("puppy", "Maul"), ("katie", "Wrench Swing")):
        s = ready(fresh((fighter, "james"), boxes=["nemesis"]))
        if s.setup.fighters[s.current].id != fighter:
            arrange(s, current=1 - s.current)
            s.actions_done = 0
        me = s.current
        k = next(i for i, sp in enumerate(s.setup.specials[me]) if sp.name == name)
        arrange(s, at=((3, 1), (4, 1)), hands=(["Pistol Whip", "Brace"], []))  # punch, block
        play(s, "combo")
        assert f"special:{k}" in legal(s), f"{name} is payable with a punch and a block"
        play(s, f"special:{k}", "pay:0+1")
        assert s.hands[me] == []
        assert (s.heavy[1 - me], s.light[1 - me]) == (1, 1), f"{name}: 1 heavy and 1 light wound"


def test_paying_a_special_attack_discards_the_chosen_cards_and_resolves_its_wound_pool() -> None:
    s, me = knight_vs_mistbearer()
    arrange(s, hands=(["High Punch", "High Kick", "Jab"], ["Jab"]))
    s.hands[1 - me] = []
    play(s, "combo", "special:0")
    assert kind(s) == "pay"
    # the hand is sorted by card: High Punch, Jab, High Kick
    assert legal(s) == ["pay:0+2", "pay:1+2"], "High Kick pays kick; High Punch or Jab pays punch"
    play(s, "pay:0+2")
    assert hand(s, me) == ["Jab"]
    assert (s.heavy[1 - me], s.light[1 - me]) == (1, 1), "Greatsword Arc: 1 heavy and 1 light wound"
    assert kind(s) == "knockdown", "Greatsword Arc has a K.O. effect"


def test_each_special_attack_is_used_at_most_once_per_combo() -> None:
    s, me = knight_vs_mistbearer()
    arrange(s, hands=(["Parry", "Parry", "Healing Draught"], []))
    s.light[me] = 3
    play(s, "combo", "special:2", "pay:0")
    assert s.light[me] == 1, "Vow of Iron heals two light wounds"
    assert "special:2" not in legal(s)
    play(s, "combo:end")
    play(s, "combo")
    assert "special:2" in legal(s), "a new Combo may use it again"


def test_a_two_symbol_card_pays_both_slots_of_one_special_attack() -> None:
    s, me = knight_vs_mistbearer()
    arrange(s, at=((2, 1), (4, 1)))
    sb = s.setup.specials[me]
    assert sb[3].name == "Relentless Charge"
    arrange(s, hands=(["Jab"], []))  # punch + dash on one card
    play(s, "combo")
    assert "special:3" in legal(s)
    play(s, "special:3", "pay:0")
    assert s.hands[me] == []


def test_wild_is_paid_by_any_symbol() -> None:
    s, _me = knight_vs_mistbearer()
    arrange(s, hands=(["Parry", "Mist Step"], []))
    play(s, "combo", "special:1")  # Shield Bash: block + wild
    assert legal(s) == ["pay:0+1"]


def test_dash_discards_a_card_and_moves_once_per_dash_symbol() -> None:
    s, me = knight_vs_mistbearer()
    arrange(s, at=((3, 1), (7, 1)), hands=(["Mist Step", "High Punch"], []))
    play(s, "combo")
    assert legal(s) == ["dash:1"], "only the card with a Dash symbol (and no end before a Dash or Special)"
    play(s, "dash:1")
    assert kind(s) == "move_step" and "stop" in legal(s)
    play(s, "move:right")
    assert s.setup.arena.xs[s.pos[me]] == 4
    assert kind(s) == "combo" and legal(s) == ["combo:end"]


def test_siege_storm_alternative_cost_accepts_either_symbol() -> None:
    s = ready(fresh(("veroth", "driana"), boxes=["siege_storm"]))
    me = s.current
    if s.setup.fighters[me].id != "veroth":
        arrange(s, current=1 - me)
        me = s.current
    arrange(s, at=((3, 1), (4, 1)), hands=(["Haymaker", "War Kick"], []))
    play(s, "combo", "special:0")  # Fists of Fury: punch + (punch or kick)
    assert legal(s) == ["pay:0+1"]
    arrange(s, hands=(["Haymaker", "Crossbow Shot"], []))
    assert legal(s) == ["pay:0+1"]


# --------------------------------------------------------------------------- the Attack Sequence and blocking


def test_a_strike_gives_the_defender_a_block_choice_with_the_rulebook_arithmetic() -> None:
    s, me = knight_vs_mistbearer()
    opp = 1 - me
    # defender: 1 Block card + 4 others -> 4 remaining cards: up to 2 heavy, or 1 heavy + 2 light, or 4 light
    arrange(s, hands=([], ["Parry", "High Punch", "Jab", "Jab", "Jab"]), row=["High Kick", "Jab", "Jab", "Jab"])
    play(s, "attack:0")  # High Kick: 1 heavy + 1 light, K.O.
    assert kind(s) == "block" and s.decider == opp
    assert legal(s) == ["block:none", "block:wounds:0", "block:wounds:1"]
    assert s.block_options(opp, 1) == [(0, 1), (1, 1)]
    play(s, "block:wounds:1")
    assert s.heavy[opp] == 0 and s.light[opp] == 0
    assert "Parry" not in hand(s, opp)


def test_blocking_counts_only_the_remaining_cards() -> None:
    s, me = knight_vs_mistbearer()
    opp = 1 - me
    arrange(s, hands=([], ["Parry", "Jab"]), row=["High Kick", "Jab", "Jab", "Jab"])
    play(s, "attack:0")
    # 1 remaining card: no heavy (needs 2), 1 light
    assert legal(s) == ["block:none", "block:wounds:0"]
    play(s, "block:wounds:0")
    assert (s.heavy[opp], s.light[opp]) == (1, 0)


def test_blocking_the_effect_ignores_it_and_two_blocks_ignore_wounds_and_effect() -> None:
    s, me = knight_vs_mistbearer()
    opp = 1 - me
    arrange(s, hands=([], ["Parry", "Poisoned Blade", "Jab", "Jab"]), row=["Low Kick", "Jab", "Jab", "Jab"])
    before = s.pos[opp]
    play(s, "attack:0")  # Low Kick: 1 light, Backward 1
    assert "block:effect" in legal(s) and "block:both:0" in legal(s)
    play(s, "block:effect")
    assert kind(s) == "choose_card" and s.decider == opp, "two different Block cards: the defender picks one"
    assert legal(s) == ["card:2", "card:3"]  # Parry, Poisoned Blade (the hand is sorted by card)
    play(s, "card:3")
    assert s.pos[opp] == before and s.light[opp] == 1
    assert hand(s, opp) == ["Jab", "Jab", "Parry"]
    s2, me2 = knight_vs_mistbearer()
    arrange(s2, hands=([], ["Parry", "Poisoned Blade", "Jab", "Jab"]), row=["Low Kick", "Jab", "Jab", "Jab"])
    play(s2, "attack:0", "block:both:0")
    assert s2.light[1 - me2] == 0 and hand(s2, 1 - me2) == ["Jab", "Jab"]


def test_abilities_cannot_be_blocked() -> None:
    s, me = knight_vs_mistbearer()
    opp = 1 - me
    arrange(s, hands=([], ["Parry", "Parry", "Jab"]), row=["Wyrdness", "Jab", "Jab", "Jab"])
    play(s, "attack:0")
    assert kind(s) == "turn"
    assert s.light[opp] == 2 and s.light[me] == 1, "Wyrdness also wounds whoever takes it"


def test_the_attack_sequence_applies_wounds_then_effect_then_offers_the_ko() -> None:
    s, me = knight_vs_mistbearer()
    opp = 1 - me
    arrange(s, hands=([], []), row=["Skull Rattler", "Jab", "Jab", "Jab"])
    ev = play(s, "attack:0")
    types = [e.type for e in ev]
    assert types.index("wounds") < types.index("tokens")
    assert kind(s) == "knockdown" and s.decider == me
    assert s.tokens[opp][1] == 1


# --------------------------------------------------------------------------- Knockdown Test and rounds


def test_a_passed_dice_test_discards_half_the_light_wounds_rounded_down() -> None:
    s, me = knight_vs_mistbearer()
    opp = 1 - me
    arrange(s, hands=([], []), row=["Parry", "Jab", "Jab", "Jab"])
    s.row[0] = s.setup.card_index["High Kick"]
    play(s, "attack:0")  # 1 heavy + 1 light: the opponent now has 1 heavy, 2 light (3 wounds)
    s.light[opp] = 2
    ev = play(s, "ko:test")
    res = next(e for e in ev if e.type == "test_result")
    assert res.data["wounds"] == 3 and sum(res.data["roll"]) >= 3 and res.data["passed"]
    assert (s.heavy[opp], s.light[opp]) == (1, 1)


def test_a_failed_test_wins_the_round_and_the_loser_reveals_its_second_skill_and_starts() -> None:
    s, me = knight_vs_mistbearer(skills=True)
    opp = 1 - me
    arrange(s, hands=([], []), row=["High Kick", "Jab", "Jab", "Jab"])
    s.heavy[opp] = 30
    play(s, "attack:0", "ko:test")
    assert s.victories[me] == 1 and s.round_no == 2
    assert s.revealed[opp] and len(s.active_skills(opp)) == 2
    assert len(s.active_skills(me)) == 1
    assert s.current == opp and s.first == opp
    assert s.heavy == [0, 0] and s.light == [0, 0] and s.hands == [[], []]
    assert s.pos == list(s.setup.arena.starts)
    assert kind(s) == "turn"


def test_the_second_round_win_ends_the_match() -> None:
    s, me = knight_vs_mistbearer(skills=True)
    opp = 1 - me
    s.victories[me] = 1
    arrange(s, hands=([], []), row=["High Kick", "Jab", "Jab", "Jab"])
    s.heavy[opp] = 30
    play(s, "attack:0", "ko:test")
    out = s.outcome()
    assert out is not None and out.winners == (me,)
    assert kind(s) == "over" and s.legal_actions() == ()


def test_skipping_the_ko_leaves_the_round_running() -> None:
    s, me = knight_vs_mistbearer()
    arrange(s, hands=([], []), row=["High Kick", "Jab", "Jab", "Jab"])
    s.heavy[1 - me] = 30
    play(s, "attack:0", "ko:skip")
    assert s.victories == [0, 0] and kind(s) == "turn"


def test_the_tower_variant_is_a_timed_decision_for_the_tested_player() -> None:
    s = ready(fresh(("lost_knight", "mistbearer"), knockdown_test="tower"), skills=True)
    me = s.current
    arrange(s, at=((3, 1), (4, 1)), hands=([], []), row=["High Kick", "Jab", "Jab", "Jab"])
    play(s, "attack:0", "ko:test")
    d = s.to_act()
    assert d is not None and d.kind == "tower_challenge" and d.player == 1 - me
    assert d.time_limit == 10.0 and d.timeout_action is not None and d.timeout_action.text == "tower:fail"
    assert legal(s) == ["tower:pass", "tower:fail"]
    assert 0.0 <= (s.observe(1 - me).pending.bot_pass_chance or -1) <= 1.0
    play(s, "tower:fail")
    assert s.victories[me] == 1


def _deck_out(heavy: tuple[int, int], light: tuple[int, int]) -> int:
    """Wounds (me, them); the other player's turn then finds the deck empty. 1 if they win the round."""
    s, me = knight_vs_mistbearer(skills=True)
    arrange(s, hands=([], []), at=((1, 1), (7, 1)), deck=[])
    s.heavy[me], s.heavy[1 - me] = heavy
    s.light[me], s.light[1 - me] = light
    ev = play(s, "attack:0", "attack:1")  # out of range: no wounds change
    assert any(e.type == "deck_empty" for e in ev)
    assert sum(s.victories) == 1
    winner = 0 if s.victories[0] else 1
    return int(winner != me)


def test_an_empty_deck_gives_the_round_to_the_fewest_heavy_wounds() -> None:
    assert _deck_out((1, 0), (0, 5)) == 1, "the opponent has fewer heavy wounds despite more light ones"


def test_an_empty_deck_with_equal_heavy_wounds_goes_to_the_fewest_light_wounds() -> None:
    assert _deck_out((1, 1), (0, 2)) == 0


def test_an_empty_deck_with_a_full_tie_goes_to_the_player_starting_their_turn() -> None:
    assert _deck_out((0, 0), (0, 0)) == 1, "the opponent was starting their turn"


# --------------------------------------------------------------------------- reactions


def veroth_vs(other: str) -> tuple:  # type: ignore[type-arg]
    """``other`` to act, Veroth waiting."""
    s = ready(fresh((other, "veroth"), boxes=["siege_storm"]))
    vs = 1 if s.setup.fighters[1].id == "veroth" else 0
    arrange(s, current=1 - vs)
    s.actions_done = 0
    return s, 1 - vs, vs


def test_grasp_of_fury_cancels_the_opponents_move() -> None:
    s, me, ver = veroth_vs("driana")
    arrange(s, at=((2, 1), (2, 0)), hands=([], []))
    s.hands[ver] = sorted([s.setup.card_index["Rush"], s.setup.card_index["Rally"]])  # dash + wild
    before = s.pos[me]
    play(s, "move:right")
    assert kind(s) == "reaction" and s.decider == ver
    assert legal(s) == ["react:2", "react:none"]
    play(s, "react:2", "pay:0+1")
    assert s.pos[me] == before and s.actions_done == 1, "the move is spent but goes nowhere"
    play(s, "move:left")
    assert s.pos[me] != before, "each Reaction at most once per opponent turn"


def test_declining_a_reaction_lets_the_move_happen() -> None:
    s, me, ver = veroth_vs("driana")
    arrange(s, at=((2, 1), (2, 0)), hands=([], []))
    s.hands[ver] = sorted([s.setup.card_index["Rush"], s.setup.card_index["Rally"]])
    play(s, "move:right", "react:none")
    assert s.setup.arena.xs[s.pos[me]] == 3


def test_double_block_ignores_the_whole_sequence_even_of_an_ability() -> None:
    s, me, ver = veroth_vs("driana")
    arrange(s, at=((2, 1), (3, 1)), hands=([], []), row=["Hamstring", "Rally", "Rally", "Rally"])
    s.hands[ver] = sorted([s.setup.card_index["Pommel Strike"]] * 2 + [s.setup.card_index["Rush"]])
    play(s, "attack:0")
    assert kind(s) == "reaction" and "react:3" in legal(s)
    play(s, "react:3", "pay:0+1")
    assert s.light[ver] == 0 and hand(s, ver) == ["Rush"], "no wound, no discard effect"
    assert "Hamstring" in hand(s, me), "the attacker still takes the card"


def test_no_reaction_window_opens_when_no_reaction_can_be_paid() -> None:
    s, _me, _ver = veroth_vs("driana")
    arrange(s, at=((2, 1), (4, 1)), hands=([], []))
    play(s, "move:right")
    assert kind(s) == "turn"


# --------------------------------------------------------------------------- fighter effects


def test_curse_then_doom_adds_a_heavy_wound_and_removes_the_curse() -> None:
    s = ready(fresh(("mistbearer", "lost_knight")))
    mb = 0 if s.setup.fighters[0].id == "mistbearer" else 1
    arrange(s, current=mb)
    s.actions_done = 0
    arrange(s, at=((3, 1), (4, 1)), hands=([], []))
    s.hands[mb] = sorted(s.setup.card_index[n] for n in ("High Punch", "Jab", "Jab"))
    play(s, "combo", "special:3", "pay:0")  # Curse with the Jab (wild)
    assert s.tokens[1 - mb][TK_CURSE] == 1
    assert (s.heavy[1 - mb], s.light[1 - mb]) == (0, 0), "Curse itself deals no wound"
    play(s, "special:0")
    play(s, legal(s)[0])
    assert s.heavy[1 - mb] == 2 and s.tokens[1 - mb][TK_CURSE] == 0


# --------------------------------------------------------------------------- the empty Combo (issue 17)


def _issue_17_combo() -> KnockdownState:
    s = fresh(("mistbearer", "lost_knight"), seed=0)
    play(s, *["skill:0"] * 4, "faceup:0", "faceup:0", "row:0", "row:1", "row:2", "combo")
    return s


def test_an_empty_combo_cannot_end_so_it_is_no_free_pass() -> None:
    s = _issue_17_combo()
    assert kind(s) == "combo"
    assert "combo:end" not in legal(s) and legal(s), "a Special Attack or a Dash must come first"
    prompt = s.to_act().prompt  # type: ignore[union-attr]
    assert "or end the Combo" not in prompt and "Special Attack or a Dash" in prompt, "it offers no end yet"
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match=r"illegal action 'combo:end'.*legal: special:1, special:2, dash:1"):
        s.apply("combo:end")
    assert s.to_dict() == before, "the refused answer changed nothing"


def test_a_combo_may_end_once_a_dash_or_special_attack_is_done() -> None:
    s = _issue_17_combo()
    me = s.current
    play(s, "dash:1")
    while kind(s) == "move_step":
        play(s, "stop" if "stop" in legal(s) else legal(s)[0])
    assert kind(s) == "combo" and "combo:end" in legal(s)
    assert "or end the Combo" in s.to_act().prompt  # type: ignore[union-attr]
    done = s.actions_done
    play(s, "combo:end")
    assert s.actions_done == done + 1 and (s.current != me or kind(s) == "turn")


def test_a_stunned_fighter_must_really_act_with_its_one_action() -> None:
    s, _me = knight_vs_mistbearer()
    arrange(s, hands=(["High Punch", "High Kick"], []))
    s.actions_allowed, s.actions_done = 1, 0  # as after a Stun token at the start of the turn
    assert "pass" not in legal(s) and "combo" in legal(s)
    play(s, "combo")
    assert legal(s) == ["special:0"], "choosing Combo commits to a Special Attack or a Dash"
