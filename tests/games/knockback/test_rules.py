"""Scenario tests for every rule of KNOCKBACK, named by behaviour."""

from __future__ import annotations

import pytest

from knockabout.core import IllegalActionError, get_game
from knockabout.games.knockback.phases import EDGE, PLACE, SYMBOL, TURN
from knockabout.games.knockback.scoring import end_round
from knockabout.games.knockback.state import KnockbackState
from tests.games.knockback.builders import battle, board, card, legal, of_type, play, where

G = get_game("knockback")


# -- placement -------------------------------------------------------------------
def test_first_card_goes_to_the_origin_and_every_later_card_touches_one() -> None:
    s = G.new_state({"packs": ["ember-rush", "granite-ward"]}, 3)
    me = s.current
    mine = ("A1", "A2", "A3") if me == 0 else ("B1", "B2", "B3")
    assert legal(s) == {f"place:{x}" for x in mine}
    play(s, f"place:{mine[0]}")
    assert where(s, mine[0]) == (0, 0)
    other = ("B1", "B2", "B3") if me == 0 else ("A1", "A2", "A3")
    # the four cells around the first card, each offered once per card in hand
    offered = legal(s)
    assert offered == {f"place:{x}:{mine[0]}:{d}" for x in other for d in "NESW"}


def test_placement_offers_each_empty_neighbour_cell_once() -> None:
    s = G.new_state({"packs": ["ember-rush", "granite-ward"]}, 3)
    first = s.current
    a = "A1" if first == 0 else "B1"
    b = "B1" if first == 0 else "A1"
    play(s, f"place:{a}", f"place:{b}:{a}:E")
    # cells next to (0,0) and (1,0): 6 distinct empty cells
    cells = [t for t in legal(s) if t.startswith(f"place:{'A2' if first == 0 else 'B2'}:")]
    assert len(cells) == 6


def test_placement_alternates_and_the_battle_opens_with_the_round_starter() -> None:
    s = G.new_state({"packs": ["ember-rush", "granite-ward"]}, 8)
    starter = s.current
    seen = []
    while s.phase == PLACE:
        seen.append(s.current)
        s.apply(s.legal_actions()[0])
    assert seen == [starter, 1 - starter] * 3
    assert s.phase == TURN and s.current == starter
    cells = list(board(s).values())
    assert len(set(cells)) == 6


# -- activation ------------------------------------------------------------------
def test_symbols_are_taken_in_printed_order() -> None:
    mover = card("Mover", actions=("move", "punch"))
    s = battle({"A1": mover}, {"A1": (0, 0), "B1": (0, 1), "B2": (1, 1)})
    play(s, "activate:A1")
    assert s.phase == SYMBOL
    # first symbol is MOVE: no punch offered yet even though B1 is adjacent
    assert legal(s) == {"move:E", "skip"}
    play(s, "skip")
    assert legal(s) == {"punch:N", "skip"}


def test_every_symbol_may_be_skipped_and_the_card_ends_exhausted() -> None:
    s = battle({"A1": card("Two", actions=("move", "punch"))}, {"A1": (0, 0), "B1": (0, 1), "B2": (1, 1)})
    play(s, "activate:A1", "skip", "skip")
    assert where(s, "A1") == (0, 0) and where(s, "B1") == (0, 1)
    assert s.exhausted & 1
    assert s.current == 1 and s.phase == TURN


def test_a_player_without_rested_cards_must_rest() -> None:
    s = battle(board={"A1": (0, 0), "B1": (0, 1)}, exhausted=["A1"])
    assert legal(s) == {"rest"}
    with pytest.raises(IllegalActionError):
        s.apply("activate:A1")


def test_rest_readies_only_the_resting_players_cards() -> None:
    s = battle(board={"A1": (0, 0), "A2": (1, 0), "B1": (0, 1)}, exhausted=["A1", "B1"])
    assert legal(s) == {"activate:A2", "rest"}
    play(s, "rest")
    assert s.exhausted == 1 << 3  # B1 still exhausted, A1 rested
    assert s.current == 1


def test_only_your_own_rested_cards_on_the_grid_can_be_activated() -> None:
    s = battle(board={"A1": (0, 0), "A2": (1, 0), "B1": (0, 1)}, exhausted=["A2"])
    assert legal(s) == {"activate:A1", "rest"}


# -- MOVE ------------------------------------------------------------------------
def test_a_single_move_must_end_next_to_a_card() -> None:
    s = battle({"A1": card("Step", actions=("move",))}, {"A1": (0, 0), "B1": (1, 0)})
    ev = play(s, "activate:A1")
    # from (0,0) next to B1 at (1,0): N, S and W touch nothing, E is occupied.
    # With skipping its only choice, the symbol is skipped and the turn passes.
    assert of_type(ev, "skip")[0].data["forced"] is True
    assert where(s, "A1") == (0, 0) and s.current == 1 and s.phase == TURN


def test_moves_that_end_next_to_a_card_are_offered() -> None:
    s = battle(
        {"A1": card("Step", actions=("move",))},
        {"A1": (0, 0), "B1": (1, 0), "B2": (1, 1)},
    )
    play(s, "activate:A1")
    # (0,1) touches B2 at (1,1); (0,-1) and (-1,0) touch nothing
    assert legal(s) == {"move:N", "skip"}
    play(s, "move:N")
    assert where(s, "A1") == (0, 1)


def test_a_first_move_may_lose_adjacency_when_a_later_move_can_return() -> None:
    s = battle({"A1": card("Runner", actions=("move", "move"))}, {"A1": (0, 0), "B1": (1, 0)})
    play(s, "activate:A1")
    assert legal(s) == {"move:N", "move:S", "move:W", "skip"}
    play(s, "move:W")  # (-1,0): no neighbour, but one more step can come back
    assert where(s, "A1") == (-1, 0)
    # the second move must bring it back next to B1, and skipping would strand it
    assert legal(s) == {"move:E"}
    play(s, "move:E")
    assert where(s, "A1") == (0, 0)


def test_a_card_that_cannot_reach_any_card_may_move_freely() -> None:
    s = battle({"A1": card("Far", actions=("move",))}, {"A1": (0, 0), "B1": (5, 0)})
    play(s, "activate:A1")
    assert legal(s) == {"move:N", "move:E", "move:S", "move:W", "skip"}


def test_moves_never_enter_an_occupied_cell() -> None:
    s = battle(
        {"A1": card("Boxed", actions=("move", "move"))},
        {"A1": (0, 0), "B1": (1, 0), "B2": (-1, 0), "B3": (0, 1)},
    )
    play(s, "activate:A1")
    assert "move:E" not in legal(s) and "move:W" not in legal(s) and "move:N" not in legal(s)


def test_move_or_punch_offers_both() -> None:
    s = battle({"A1": card("Either", actions=("move_or_punch",))}, {"A1": (0, 0), "B1": (1, 0), "B2": (1, 1)})
    play(s, "activate:A1")
    assert legal(s) == {"move:N", "punch:E", "skip"}  # (0,-1) would touch nothing


# -- PUNCH -----------------------------------------------------------------------
def test_punch_knocks_out_when_the_facing_attack_beats_the_facing_heart() -> None:
    a1 = card("Hitter", edges=((1, 1), (3, 1), (1, 1), (1, 1)))  # east attack 3
    b1 = card("Target", edges=((2, 9), (2, 9), (2, 9), (2, 9)))
    # B1 is turned 180°: its board west side is its printed east edge
    b1 = card("Target", edges=((2, 9), (2, 2), (2, 9), (2, 9)))
    s = battle({"A1": a1, "B1": b1}, {"A1": (0, 0), "B1": (1, 0), "B2": (5, 5)})
    ev = play(s, "activate:A1", "punch:E")
    punch = of_type(ev, "punch")[0].data
    assert (punch["attack"], punch["heart"], punch["ko"]) == (3, 2, True)
    assert where(s, "B1") is None


def test_attack_equal_to_heart_is_not_a_knockout() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0)})
    ev = play(s, "activate:A1", "punch:E")
    assert of_type(ev, "punch")[0].data["ko"] is False
    assert where(s, "B1") == (2, 0)  # still knocked back


def test_under_the_tie_house_rule_attack_equal_to_heart_knocks_out() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0), "B2": (5, 5)}, knockout_on_tie=True)
    ev = play(s, "activate:A1", "punch:E")
    punch = of_type(ev, "punch")[0].data
    assert (punch["attack"], punch["heart"], punch["ko"]) == (2, 2, True)
    assert where(s, "B1") is None
    assert s.observe(0).knockout_on_tie is True
    weaker = card("Weaker", edges=((1, 1), (1, 1), (1, 1), (1, 1)))  # attack 1 against heart 2: still holds
    s = battle({"A1": weaker}, {"A1": (0, 0), "B1": (1, 0), "B2": (5, 5)}, knockout_on_tie=True)
    assert of_type(play(s, "activate:A1", "punch:E"), "punch")[0].data["ko"] is False


def test_the_tie_house_rule_is_off_by_default_saved_only_when_on_and_kept_by_clones() -> None:
    from knockabout.games.knockback import GAME

    assert battle(board={"A1": (0, 0), "B1": (1, 0)}).observe(0).knockout_on_tie is None
    assert "knockout_on_tie" not in GAME.new_state({}, 3).to_dict()
    assert GAME.new_state({}, 3).to_dict() == GAME.new_state({"knockout_on_tie": False}, 3).to_dict()
    s = GAME.new_state({"knockout_on_tie": True}, 3)
    assert s.knockout_on_tie and s.clone().knockout_on_tie
    assert type(s).from_dict(s.to_dict()).knockout_on_tie
    field = GAME.config_model.model_fields["knockout_on_tie"]
    assert field.default is False and field.title is not None and field.title.startswith("House rule")


def test_second_players_cards_are_turned_to_face_the_first_player() -> None:
    # B1 sits north of A1. Turned 180°, B1's printed NORTH edge faces A1 (board south).
    b1 = card("Turned", edges=((0, 1), (0, 9), (0, 9), (0, 9)))
    s = battle({"B1": b1}, {"A1": (0, 0), "B1": (0, 1), "B2": (5, 5)})
    ev = play(s, "activate:A1", "punch:N")
    d = of_type(ev, "punch")[0].data
    assert (d["side"], d["heart"], d["ko"]) == ("S", 1, True)
    # and B's attack towards A also comes from its printed north edge
    b2 = card("Striker", edges=((4, 2), (0, 2), (0, 2), (0, 2)))
    s = battle({"B1": b2}, {"A1": (0, 0), "B1": (0, 1), "A2": (5, 5)}, current=1)
    ev = play(s, "activate:B1", "punch:S")
    d = of_type(ev, "punch")[0].data
    assert (d["attack"], d["ko"]) == (4, True)


def test_punching_an_exhausted_card_lets_the_attacker_pick_a_free_edge() -> None:
    b1 = card("Tired", edges=((2, 5), (2, 5), (2, 0), (2, 5)))  # printed south heart 0
    # B1 turned 180°: printed south faces board north, a free side
    s = battle({"B1": b1}, {"A1": (0, 0), "B1": (1, 0), "B2": (2, 0)}, exhausted=["B1"])
    play(s, "activate:A1", "punch:E")
    assert s.phase == EDGE
    # facing side W, and the free sides N and S; E is blocked by B2
    assert legal(s) == {"hit:W", "hit:N", "hit:S"}
    ev = play(s, "hit:N")
    d = of_type(ev, "punch")[0].data
    assert (d["side"], d["attack"], d["heart"], d["ko"]) == ("N", 2, 0, True)


def test_an_exhausted_card_with_no_free_edge_takes_the_punch_on_the_facing_edge() -> None:
    s = battle(
        board={"A1": (0, 0), "B1": (1, 0), "B2": (2, 0), "B3": (1, 1), "A2": (1, -1)},
        exhausted=["B1"],
    )
    ev = play(s, "activate:A1", "punch:E")
    assert s.phase != EDGE
    assert of_type(ev, "punch")[0].data["side"] == "W"


def test_a_rested_target_always_uses_the_facing_edge() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0)})
    ev = play(s, "activate:A1", "punch:E")
    assert of_type(ev, "punch")[0].data["side"] == "W"


def test_friendly_cards_can_be_punched() -> None:
    s = battle({"A1": card("Bully", edges=((5, 2),) * 4)}, {"A1": (0, 0), "A2": (1, 0), "B1": (0, 1)})
    assert "punch:E" in legal(play_get(s, "activate:A1"))
    ev = play(s, "punch:E")
    assert of_type(ev, "knockout")[0].data["card"] == "A2"


def play_get(s, *actions):  # type: ignore[no-untyped-def]
    play(s, *actions)
    return s


# -- knockback -------------------------------------------------------------------
def test_push_moves_the_target_and_every_card_beyond_it_keeping_gaps() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0), "B2": (2, 0), "B3": (4, 0), "A2": (-1, 0)})
    play(s, "activate:A1", "punch:E")
    assert board(s) == {"A1": (0, 0), "A2": (-1, 0), "B1": (2, 0), "B2": (3, 0), "B3": (5, 0)}


def test_a_knockback_chain_moves_a_whole_column() -> None:
    s = battle(board={"A1": (0, 0), "B1": (0, 1), "B2": (0, 2), "B3": (0, 3)})
    play(s, "activate:A1", "punch:N")
    assert board(s) == {"A1": (0, 0), "B1": (0, 2), "B2": (0, 3), "B3": (0, 4)}


def test_cards_beyond_a_knocked_out_target_are_still_pushed() -> None:
    s = battle(
        {"A1": card("Heavy", edges=((9, 2),) * 4)},
        {"A1": (0, 0), "B1": (1, 0), "B2": (3, 0), "B3": (0, 5)},
    )
    ev = play(s, "activate:A1", "punch:E")
    assert of_type(ev, "knockout")
    assert board(s) == {"A1": (0, 0), "B2": (4, 0), "B3": (0, 5)}


def test_push_leaves_cards_off_the_line_in_place() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0), "B2": (1, 1), "B3": (2, -1)})
    play(s, "activate:A1", "punch:E")
    assert board(s) == {"A1": (0, 0), "B1": (2, 0), "B2": (1, 1), "B3": (2, -1)}


def test_whole_line_moves_every_card_in_the_row_including_the_attacker() -> None:
    s = battle(
        board={"A2": (-2, 0), "A1": (0, 0), "B1": (1, 0), "B2": (3, 0), "B3": (1, 1)},
        knockback="whole_line",
    )
    play(s, "activate:A1", "punch:E")
    assert board(s) == {"A2": (-1, 0), "A1": (1, 0), "B1": (2, 0), "B2": (4, 0), "B3": (1, 1)}


def test_knockback_can_leave_the_attacker_alone() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0)})
    play(s, "activate:A1", "punch:E")
    assert board(s) == {"A1": (0, 0), "B1": (2, 0)}
    # the stranded card, activated with one MOVE, must use it to end next to a card
    s2 = battle({"B1": card("Back", actions=("move",))}, board(s), current=1)
    play(s2, "activate:B1")
    assert legal(s2) == {"move:W"}


# -- round end, turn limit and scoring ----------------------------------------------
def test_a_round_ends_when_a_player_has_no_card_left_on_the_grid() -> None:
    s = battle({"A1": card("Heavy", edges=((9, 2),) * 4)}, {"A1": (0, 0), "B1": (1, 0)})
    ev = play(s, "activate:A1", "punch:E")
    over = of_type(ev, "round_over")[0].data
    assert over["winner"] == 0 and over["token"] == 0
    assert s.phase == PLACE and s.round == 2
    assert s.current == 1  # the loser starts the next round
    assert s.placed == 0 and s.onboard == 0 and s.exhausted == 0


def test_with_alternate_starts_the_seats_take_turns_starting_rounds_whoever_lost() -> None:
    for starter in (0, 1):
        s = battle({"A1": card("Heavy", edges=((9, 2),) * 4)}, {"A1": (0, 0), "B1": (1, 0)}, alternate_starts=True)
        s.starter = starter
        play(s, "activate:A1", "punch:E")  # seat 0 wins the round
        assert s.round == 2 and s.phase == PLACE
        assert s.starter == s.current == 1 - starter, "the seat that did not start round 1 starts round 2"
        assert s.observe(0).alternate_starts is True
        again = KnockbackState.from_dict(s.to_dict())
        assert again.alternate_starts and again.to_dict() == s.to_dict() and s.clone().alternate_starts
    printed = battle({"A1": card("Heavy", edges=((9, 2),) * 4)}, {"A1": (0, 0), "B1": (1, 0)})
    printed.starter = 1
    play(printed, "activate:A1", "punch:E")
    assert printed.starter == 1, "as printed, the loser starts again even though they started this round"
    assert printed.observe(0).alternate_starts is None and "alternate_starts" not in printed.to_dict()


def test_the_turn_limit_goes_to_the_player_with_more_cards() -> None:
    s = battle(board={"A1": (0, 0), "A2": (5, 5), "B1": (1, 0)}, max_turns=1)
    ev = play(s, "rest")
    over = of_type(ev, "round_over")[0].data
    assert over["winner"] == 0 and "turn limit" in over["reason"]


def test_the_turn_limit_with_equal_cards_is_a_drawn_round_and_the_token_stays() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0)}, max_turns=2)
    ev = play(s, "rest", "rest")
    over = of_type(ev, "round_over")[0].data
    assert over["winner"] is None and over["token"] is None
    assert s.wins == [0, 0] and s.round == 2
    assert s.current == 1  # after a draw the other player starts


def _finish_round(s, winner: int) -> list:  # type: ignore[no-untyped-def,type-arg]
    ev: list = []  # type: ignore[type-arg]
    end_round(s, winner, "test", ev)
    return ev


def test_tug_moves_the_token_out_back_and_wins_only_from_your_side() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0)})
    _finish_round(s, 0)
    assert s.token == 0 and s.result is None
    _finish_round(s, 1)
    assert s.token == -1 and s.result is None  # back to the middle
    _finish_round(s, 1)
    assert s.token == 1 and s.result is None
    _finish_round(s, 1)
    assert s.result is not None and s.result.winners == (1,)
    assert s.to_act() is None


def test_speed_scoring_ends_the_match_after_one_round() -> None:
    s = battle({"A1": card("Heavy", edges=((9, 2),) * 4)}, {"A1": (0, 0), "B1": (1, 0)}, scoring="speed")
    play(s, "activate:A1", "punch:E")
    assert s.result is not None and s.result.winners == (0,)


def test_a_drawn_speed_round_is_a_drawn_match() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0)}, scoring="speed", max_turns=1)
    play(s, "rest")
    assert s.result is not None and s.result.draw


def test_best_of_five_needs_three_round_wins() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0)}, scoring="best_of", best_of=5)
    for w in (0, 1, 0, 1):
        _finish_round(s, w)
        assert s.result is None
    _finish_round(s, 1)
    assert s.result is not None and s.result.winners == (1,)
    assert s.wins == [2, 3]


def test_the_round_limit_ends_a_tug_match_with_the_token_holder_winning() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0)}, max_rounds=2)
    _finish_round(s, 0)
    _finish_round(s, -1)
    assert s.result is not None and s.result.winners == (0,)
    s = battle(board={"A1": (0, 0), "B1": (1, 0)}, max_rounds=1)
    _finish_round(s, -1)
    assert s.result is not None and s.result.draw


def test_a_punch_that_knocks_out_the_last_card_ends_the_activation_at_once() -> None:
    double = card("Double", actions=("punch", "move"), edges=((9, 2),) * 4)
    s = battle({"A1": double}, {"A1": (0, 0), "B1": (1, 0)}, scoring="speed")
    play(s, "activate:A1", "punch:E")
    assert s.to_act() is None and s.legal_actions() == ()


def test_narration_tells_the_punch_and_a_free_edge_hit() -> None:
    b1 = card("Tired", edges=((2, 5), (2, 5), (2, 0), (2, 5)))
    s = battle({"B1": b1}, {"A1": (0, 0), "B1": (1, 0), "B2": (2, 0)}, exhausted=["B1"])
    ev = play(s, "activate:A1", "punch:E", "hit:N")
    lines = [G.narrate(e, ["Ann", "Bo"]) for e in ev]
    text = " ".join(x for x in lines if x)
    assert "Ann activates P0 (A1)" in text
    assert "on its free north edge — KNOCKED OUT!" in text
