"""Arena rules (Fading Menhir, Technical Corridors, Dangerous Edges), ranges, movement effects, tokens."""

from __future__ import annotations

from knockabout.games.knockdown.content.match import TOKEN_INDEX
from knockabout.games.knockdown.rules.rounds import CANDLE
from knockabout.games.knockdown.state import KnockdownState
from tests.games.knockdown.helpers import arrange, fresh, hand, kind, legal, play, ready, space


def seat_of(s: KnockdownState, fighter: str) -> int:
    return 0 if s.setup.fighters[0].id == fighter else 1


def acting(s: KnockdownState, fighter: str) -> int:
    """Make ``fighter`` the player to act, at the start of their turn."""
    me = seat_of(s, fighter)
    arrange(s, current=me)
    s.actions_done = 0
    return me


def tok(name: str) -> int:
    return TOKEN_INDEX[name]


# --------------------------------------------------------------------------- Fading Menhir


def test_the_first_candle_card_is_discarded_and_places_candles_at_the_outer_columns() -> None:
    s = ready(fresh())
    arrange(s, at=((2, 1), (6, 1)), deck=["Jab", "Jab", "Jab"], row=["Jab"] * 4)
    s.deck.insert(len(s.deck) - 1, CANDLE)  # Jab, CANDLE, Jab, Jab from the top
    ev = play(s, "attack:0", "attack:1")
    assert s.candle == 1 and s.candle_columns() == (0, 8)
    assert all(d >= 0 for d in s.row) and CANDLE not in s.row
    assert [e.data["count"] for e in ev if e.type == "candle"] == [1]


def test_ending_a_turn_on_or_beyond_a_candle_column_costs_a_heavy_wound() -> None:
    s = ready(fresh())
    me = s.current
    s.candle = 2  # candles at columns 1 and 7
    arrange(s, at=((2, 1), (5, 1)), hands=([], []))
    play(s, "move:left", "move:left")  # ends on column 0, beyond the candle at 1
    assert s.heavy[me] == 1
    s2 = ready(fresh())
    me2 = s2.current
    s2.candle = 2
    arrange(s2, at=((3, 1), (5, 1)), hands=([], []))
    play(s2, "move:left", "move:right")  # ends on column 3: safe
    assert s2.heavy[me2] == 0


# --------------------------------------------------------------------------- Technical Corridors


def nemesis() -> KnockdownState:
    return ready(fresh(("james", "katie"), boxes=["nemesis"]))


def test_corridors_move_between_entrances_for_free_actions_but_cost_wounds() -> None:
    s = nemesis()
    me = s.current
    arrange(s, at=((0, 0), (5, 1)), hands=([], []))
    opts = [a for a in legal(s) if a.startswith("corridor:")]
    assert sorted(opts) == sorted(f"corridor:{space(s, x, y)}" for x, y in ((6, 0), (0, 2), (6, 2), (3, 1)))
    play(s, f"corridor:{space(s, 3, 1)}")
    assert s.light[me] == 1 and s.heavy[me] == 0 and s.actions_done == 0
    play(s, f"corridor:{space(s, 6, 2)}")
    assert s.heavy[me] == 1 and s.actions_done == 0
    assert kind(s) == "turn"


def test_corridors_are_closed_during_an_action() -> None:
    s = nemesis()
    me = s.current
    arrange(s, at=((0, 0), (5, 1)), hands=([], []))
    s.hands[me] = [s.setup.card_index["Sprint"]]
    play(s, "combo")
    assert not any(a.startswith("corridor:") for a in legal(s))


def test_corridors_are_closed_after_the_second_action() -> None:
    s = nemesis()
    me = s.current
    arrange(s, at=((1, 0), (5, 1)), hands=([], []))
    play(s, "move:left")
    assert any(a.startswith("corridor:") for a in legal(s)), "between the actions"
    play(s, "move:right")
    assert s.current != me


# --------------------------------------------------------------------------- Dangerous Edges


def test_an_adjacent_attack_on_a_dangerous_edge_gains_a_heavy_wound() -> None:
    s = ready(fresh(("veroth", "driana"), boxes=["siege_storm"]))
    me = s.current
    arrange(s, at=((1, 1), (0, 1)), hands=([], []), row=["Shield Punch", "Rally", "Rally", "Rally"])
    play(s, "attack:0")
    assert (s.heavy[1 - me], s.light[1 - me]) == (1, 1)


def test_an_attack_from_afar_on_a_dangerous_edge_gains_nothing() -> None:
    s = ready(fresh(("veroth", "driana"), boxes=["siege_storm"]))
    me = s.current
    arrange(s, at=((3, 1), (0, 1)), hands=([], []), row=["Crossbow Shot", "Rally", "Rally", "Rally"])
    play(s, "attack:0")
    assert (s.heavy[1 - me], s.light[1 - me]) == (0, 1)


# --------------------------------------------------------------------------- ranges and movement effects


def test_projectile_needs_a_straight_line_of_existing_spaces() -> None:
    s = ready(fresh())
    me = s.current
    arrange(s, at=((1, 1), (7, 1)), hands=([], []), row=["Menhir Shard", "Menhir Shard", "Jab", "Jab"])
    play(s, "attack:0")
    assert s.light[1 - me] == 1, "same row, every space between exists"
    arrange(s, at=((1, 0), (7, 1)))
    ev = play(s, "attack:1")
    assert any(e.type == "out_of_range" for e in ev)


def test_a_fixed_range_hits_only_at_exactly_that_distance() -> None:
    s = ready(fresh())
    me = s.current
    arrange(s, at=((3, 1), (4, 1)), hands=([], []), row=["Spinning Heel", "Spinning Heel", "Jab", "Jab"])
    ev = play(s, "attack:0")
    assert any(e.type == "out_of_range" for e in ev)
    arrange(s, at=((3, 1), (5, 1)))
    play(s, "attack:1")
    assert s.heavy[1 - me] == 1


def test_backward_pushes_the_opponent_straight_away_and_stops_at_the_arena_end() -> None:
    s = ready(fresh())
    me = s.current
    arrange(s, at=((3, 1), (4, 1)), hands=([], []), row=["Low Kick", "Jab", "Jab", "Jab"])
    play(s, "attack:0")
    assert s.pos[1 - me] == space(s, 5, 1)
    arrange(s, at=((7, 1), (8, 1)), row=["Low Kick", "Jab", "Jab", "Jab"])
    play(s, "attack:0")
    assert s.pos[1 - me] == space(s, 8, 1), "no space beyond: the push stops"


def test_forward_moves_towards_the_opponent_without_passing_through() -> None:
    s = ready(fresh(("lost_knight", "mistbearer")))
    me = acting(s, "lost_knight")
    arrange(s, at=((2, 1), (5, 1)), hands=([], []))
    s.hands[me] = [s.setup.card_index["Jab"]]
    play(s, "combo", "special:3", "pay:0")  # Relentless Charge: Forward 2
    assert s.pos[me] == space(s, 4, 1), "one step, then the opponent blocks the way"


def test_chain_pull_blinks_the_opponent_next_to_the_mistbearer_passing_anything() -> None:
    s = ready(fresh(("mistbearer", "lost_knight")))
    me = acting(s, "mistbearer")
    arrange(s, at=((2, 1), (5, 1)), hands=([], []))
    s.hands[me] = sorted([s.setup.card_index["Jab"], s.setup.card_index["Parry"]])
    play(s, "combo", "special:1", "pay:0+1")
    assert kind(s) == "blink" and s.decider == me
    targets = sorted(int(a.split(":")[1]) for a in legal(s))
    assert targets == sorted([space(s, 1, 1), space(s, 3, 1), space(s, 2, 0), space(s, 2, 2)])
    play(s, f"space:{space(s, 1, 1)}")
    assert s.pos[1 - me] == space(s, 1, 1)


# --------------------------------------------------------------------------- tokens


def test_poison_wounds_at_the_end_of_the_poisoned_fighters_turn_then_wanes() -> None:
    s = ready(fresh())
    me = s.current
    s.tokens[me][tok("poison")] = 2
    arrange(s, at=((3, 1), (6, 1)), hands=([], []))
    play(s, "move:up", "move:down")
    assert s.light[me] == 2 and s.tokens[me][tok("poison")] == 1


def test_mist_swallows_one_light_wound_of_an_attack() -> None:
    s = ready(fresh())
    me = s.current
    s.tokens[1 - me][tok("mist")] = 1
    arrange(s, at=((3, 1), (4, 1)), hands=([], []), row=["High Kick", "Jab", "Jab", "Jab"])
    play(s, "attack:0")
    assert (s.heavy[1 - me], s.light[1 - me]) == (1, 0) and s.tokens[1 - me][tok("mist")] == 0


def test_a_potion_is_drunk_outside_actions_and_discards_two_light_wounds() -> None:
    s = ready(fresh())
    me = s.current
    s.tokens[me][tok("potion")] = 1
    s.light[me] = 3
    arrange(s)
    assert "potion" in legal(s)
    play(s, "potion")
    assert s.light[me] == 1 and s.actions_done == 0 and "potion" not in legal(s)


def test_flame_burns_once_at_the_end_of_the_turn() -> None:
    s = nemesis()
    me = s.current
    s.tokens[me][tok("flame")] = 1
    arrange(s, at=((2, 1), (5, 1)), hands=([], []))
    play(s, "move:up", "move:down")
    assert s.heavy[me] == 1 and s.tokens[me][tok("flame")] == 0


def test_the_supply_limits_tokens_in_play() -> None:
    s = ready(fresh())
    me = s.current
    s.tokens[1 - me][tok("stun")] = 1  # the only Stun token
    arrange(s, at=((3, 1), (4, 1)), hands=([], []), row=["Skull Rattler", "Jab", "Jab", "Jab"])
    play(s, "attack:0")
    assert s.tokens[1 - me][tok("stun")] == 1


def test_a_trap_wounds_the_opponent_who_steps_on_it_and_is_removed() -> None:
    s = ready(fresh(("xingo", "driana"), boxes=["siege_storm"]))
    me = acting(s, "xingo")
    arrange(s, at=((3, 1), (4, 1)), hands=([], []))
    s.hands[me] = [s.setup.card_index["Rush"]]
    play(s, "combo", "special:0", "pay:0")  # Snare: a light wound, a trap here, then may step
    trap_space = space(s, 3, 1)
    assert s.traps == [trap_space * 2 + me]
    play(s, "move:up", "combo:end", "move:down")
    assert s.heavy[me] == 0, "its owner walks over it safely"
    play(s, "move:up")  # the opponent's turn begins; step off again so the trap space is free
    opp = 1 - me
    arrange(s, at=((4, 1), (3, 0)))
    play(s, "move:left")
    assert s.heavy[opp] == 1 and s.traps == []


def test_contamination_fills_a_hand_slot_and_returns_to_the_supply_when_discarded() -> None:
    s = nemesis()
    me = s.current
    arrange(s, at=((3, 1), (4, 1)), hands=([], []), row=["Larva Bite", "Brace", "Brace", "Brace"])
    play(s, "attack:0")
    assert hand(s, 1 - me) == ["Contamination"] and s.contam_left == 2
    assert s.observe(1 - me).fighters[1 - me].hand_symbols == ((),)


# --------------------------------------------------------------------------- James's sheet


def test_order_moves_the_opponent_then_they_reveal_two_and_james_discards_one() -> None:
    s = nemesis()
    me = acting(s, "james")
    arrange(s, at=((2, 1), (3, 1)), hands=([], []))
    s.hands[me] = sorted([s.setup.card_index["Pistol Whip"], s.setup.card_index["Brace"]])
    s.hands[1 - me] = sorted(s.setup.card_index[n] for n in ("Combat Kick", "Sprint", "Adrenaline"))
    play(s, "combo", "special:2", "pay:0+1")
    assert kind(s) == "block", "Order is a Strike and Adrenaline shows a Block symbol"
    play(s, "block:none")
    assert kind(s) == "move_step" and s.decider == me and "stop" not in legal(s)
    play(s, "move:right")
    assert s.pos[1 - me] == space(s, 4, 1)
    assert kind(s) == "choose_card" and s.decider == 1 - me
    play(s, "card:0", "card:2")  # reveal Combat Kick and Adrenaline
    assert s.decider == me and legal(s) == ["card:0", "card:2"]
    play(s, "card:2")
    assert hand(s, 1 - me) == ["Combat Kick", "Sprint"]


def test_reload_gains_ammo_and_one_more_per_discarded_dash_card() -> None:
    s = nemesis()
    me = acting(s, "james")
    arrange(s, hands=([], []))
    s.hands[me] = sorted(s.setup.card_index[n] for n in ("Brace", "Sprint", "Burst Fire", "Pistol Whip"))
    ammo = s.tokens[me][tok("ammo")]
    play(s, "combo", "special:1")
    play(s, legal(s)[0])
    assert s.tokens[me][tok("ammo")] == ammo + 1
    assert kind(s) == "choose_card" and "done" in legal(s)
    play(s, legal(s)[0])
    play(s, "done")
    assert s.tokens[me][tok("ammo")] == ammo + 2


def test_suppressive_fire_spends_ammo_for_moves() -> None:
    s = nemesis()
    me = acting(s, "james")
    arrange(s, at=((1, 1), (5, 1)), hands=([], []))
    s.hands[me] = [s.setup.card_index["Brace"]]
    s.tokens[me][tok("ammo")] = 2
    play(s, "combo", "special:0", "pay:0")
    assert legal(s) == ["count:0", "count:1", "count:2"]
    play(s, "count:2", "move:right", "move:right")
    assert s.pos[me] == space(s, 3, 1) and s.tokens[me][tok("ammo")] == 0


def test_sidearm_costs_an_ammo_token() -> None:
    s = nemesis()
    me = acting(s, "james")
    arrange(s, at=((1, 1), (5, 1)), hands=([], []))
    s.hands[me] = [s.setup.card_index["Pistol Whip"]]
    s.tokens[me][tok("ammo")] = 0
    play(s, "combo")
    assert "special:3" not in legal(s)
    s.tokens[me][tok("ammo")] = 1
    s._legal = None
    play(s, "special:3", "pay:0")
    assert s.tokens[me][tok("ammo")] == 0 and s.heavy[1 - me] == 1
