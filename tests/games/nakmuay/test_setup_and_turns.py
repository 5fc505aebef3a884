"""Setup, the turn, and the plain actions of Nak Muay Knockout."""

from __future__ import annotations

import pytest

from knockabout.core import ConfigError, IllegalActionError
from knockabout.games.nakmuay import GAME
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay.view import KnownCard
from tests.games.nakmuay.stacking import hand, legal, pile_top_first, play, stacked


@pytest.mark.parametrize(
    ("players", "kos", "countdowns"), [(2, 2, 1), (3, 3, 2), (4, 4, 3), (5, 4, 3)]
)
def test_setup_deals_five_safe_cards_then_shuffles_in_kos_and_countdowns(
    players: int, kos: int, countdowns: int
) -> None:
    for seed in range(20):
        s = GAME.new_state({"players": players}, seed)
        for p in range(players):
            assert s.sizes[p] == 5 == sum(s.hands[p])
            assert s.hands[p][C.KO] == 0, "a KO was dealt into a hand"
            assert s.hands[p][C.COUNTDOWN] == 0, "a Countdown was dealt into a hand"
        pile = [e & 15 for e in s.pile]
        assert pile.count(C.KO) == kos
        assert pile.count(C.COUNTDOWN) == countdowns
        assert len(pile) + 5 * players == 37 + kos + countdowns
        assert s.discard == []


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_house_rule_gives_everyone_a_block_on_top_of_the_five_cards(players: int) -> None:
    blocks = C.COPIES[C.BLOCK]
    for seed in range(20):
        s = GAME.new_state({"players": players, "starting_block": True}, seed)
        for p in range(players):
            assert s.sizes[p] == 6 == sum(s.hands[p]) and s.hands[p][C.BLOCK] >= 1
            assert s.hands[p][C.KO] == 0 == s.hands[p][C.COUNTDOWN]
        pile = [e & 15 for e in s.pile]
        assert pile.count(C.BLOCK) + sum(h[C.BLOCK] for h in s.hands) == blocks, "no Block made or lost"
        # the first KO anyone draws is always met by a Block
        first = s.current
        s.pile.append(C.KO)
        s._legal = None
        s.apply("draw")
        d = s.to_act()
        assert d is not None and d.kind == "ko_block" and d.player == first and s.active[first]


def test_the_house_rule_is_off_by_default_and_labelled_as_one() -> None:
    assert GAME.new_state({}, 3).to_dict() == GAME.new_state({"starting_block": False}, 3).to_dict()
    field = GAME.config_model.model_fields["starting_block"]
    assert field.default is False and field.title is not None and field.title.startswith("House rule")


def test_first_player_is_random_and_play_starts_clockwise() -> None:
    firsts = {GAME.new_state({"players": 4}, seed).current for seed in range(60)}
    assert firsts == {0, 1, 2, 3}
    s = GAME.new_state({"players": 4}, 0)
    assert s.direction == 1
    assert s.to_act().player == s.current  # type: ignore[union-attr]


def test_player_count_outside_two_to_five_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="players"):
        GAME.new_state({"players": 6}, 0)
    with pytest.raises(ConfigError, match="end_turn"):
        GAME.new_state({"end_turn": "sometimes"}, 0)


def test_doing_nothing_draws_one_card_and_passes_the_turn_clockwise() -> None:
    s = stacked([["block"], ["scout"], ["sweep"]], pile=["dodge", "scout"])
    play(s, "draw")
    assert hand(s, 0) == ["block", "dodge"]
    assert s.current == 1
    assert s.turn == 2


def test_every_major_action_is_offered_only_when_held() -> None:
    s = stacked([["attack+2", "plum", "plum", "overhook", "underhook"], []], pile=["block"])
    assert legal(s) == [
        "draw",
        "attack:2",
        "pair:plum",
        "triple:plum+underhook+overhook",
    ]


def test_only_one_major_action_per_turn() -> None:
    s = stacked([["attack+1", "attack+2"], ["block"]], pile=["scout", "sweep", "dodge"])
    play(s, "attack:1", "take")
    # the attacker's turn continues only with its draw; then it is the next player's turn
    assert s.current == 1
    assert hand(s, 0) == ["attack+2", "sweep"]


def test_attack_makes_the_next_player_draw_that_many_one_at_a_time() -> None:
    s = stacked([["attack+3"], ["block"], []], pile=["scout", "sweep", "dodge", "plum"])
    events = play(s, "attack:3")
    assert s.to_act().player == 1 and s.to_act().kind == "attack_response"  # type: ignore[union-attr]
    assert legal(s) == ["take"]
    events = play(s, "take")
    assert events.count("draw") == 4  # three for the target, then the attacker's own draw
    assert hand(s, 1) == ["block", "dodge", "scout", "sweep"]
    assert hand(s, 0) == ["plum"]
    assert s.discard == [C.ATTACK3]


def test_attack_targets_the_next_active_player_in_the_current_direction() -> None:
    s = stacked([["attack+1"], [], [], ["block"]], pile=["plum", "scout"], direction=-1)
    play(s, "attack:1")
    assert s.to_act().player == 3  # type: ignore[union-attr]
    s = stacked([["attack+1"], [], ["block"], []], pile=["plum", "scout"])
    s.active[1] = False
    s.n_active = 3
    play(s, "attack:1")
    assert s.to_act().player == 2  # type: ignore[union-attr]


def test_dodge_cancels_an_attack_and_both_cards_are_discarded() -> None:
    s = stacked([["attack+2"], ["dodge"]], pile=["plum", "scout", "sweep"])
    assert play(s, "attack:2") and legal(s) == ["dodge", "take"]
    play(s, "dodge")
    assert sorted(s.discard) == sorted([C.ATTACK2, C.DODGE])
    assert hand(s, 1) == []


def test_dodge_as_a_response_does_not_change_anyones_draw() -> None:
    s = stacked([["attack+2"], ["dodge"]], pile=["plum", "scout", "sweep"])
    play(s, "attack:2", "dodge")
    assert hand(s, 0) == ["plum"], "the attacker still draws after a dodged attack"
    assert s.current == 1
    play(s, "draw")
    assert hand(s, 1) == ["scout"], "the dodger still draws on its own turn"


def test_attacks_do_not_stack() -> None:
    s = stacked([["attack+1"], ["attack+3", "attack+1", "dodge"]], pile=["plum", "scout"])
    play(s, "attack:1")
    assert legal(s) == ["dodge", "take"]
    with pytest.raises(IllegalActionError, match="attack_response"):
        s.apply("attack:3")


def test_voluntary_dodge_skips_the_draw_and_ends_the_turn() -> None:
    for variant in ("draw_after", "strict_end_turn"):
        s = stacked([["dodge"], []], pile=["plum"], end_turn=variant)
        play(s, "dodge")
        assert hand(s, 0) == []
        assert pile_top_first(s) == ["plum"]
        assert s.current == 1


def test_by_default_a_major_action_still_lets_you_draw() -> None:
    s = stacked([["sweep"], []], pile=["plum"])
    play(s, "sweep", "keep")
    assert hand(s, 0) == ["plum"]


def test_strict_end_turn_variant_ends_the_turn_without_a_draw() -> None:
    s = stacked([["attack+1"], []], pile=["plum", "scout"], end_turn="strict_end_turn")
    play(s, "attack:1", "take")
    assert hand(s, 0) == []
    assert hand(s, 1) == ["plum"]
    assert s.current == 1
    s = stacked([["sweep"], []], pile=["plum"], end_turn="strict_end_turn")
    play(s, "sweep", "reverse")
    assert hand(s, 0) == [] and s.current == 1
    # doing nothing is not a major action: you draw in both variants
    s = stacked([[], []], pile=["plum"], end_turn="strict_end_turn")
    play(s, "draw")
    assert hand(s, 0) == ["plum"]


def test_scout_shows_the_top_three_take_one_and_put_back_the_rest_in_order() -> None:
    s = stacked([["scout"], []], pile=["block", "ko", "dodge", "plum"])
    events = s.apply("scout")
    private = [e for e in events if e.type == "scouted"]
    assert private[0].visible_to == frozenset({0})
    assert private[0].data["cards"] == ["block", "ko", "dodge"]
    assert legal(s) == ["scout-take:0", "scout-take:2"], "a KO can never be taken"
    assert s.observe(0).pending.seen == ("block", "ko", "dodge")
    assert s.observe(1).pending.seen is None
    play(s, "scout-take:2")
    assert s.to_act().kind == "scout_order"  # type: ignore[union-attr]
    play(s, "order:1,0")  # the KO goes on top, then the Block
    # the scout then draws as usual: it draws the KO it put on top... with no Block: out
    assert not s.active[0]
    assert s.outcome() is not None and s.outcome().winners == (1,)  # type: ignore[union-attr]


def test_scout_takes_nothing_when_every_seen_card_is_a_ko() -> None:
    s = stacked([["scout", "block"], []], pile=["ko", "ko", "plum"])
    play(s, "scout")
    assert legal(s) == ["scout-take:2"], "only the card that is not a KO may be taken"
    s = stacked([["scout", "block"], []], pile=["ko", "ko"])
    play(s, "scout")
    assert legal(s) == ["scout-take:none"]
    play(s, "scout-take:none", "order:0,1")
    assert hand(s, 0) == ["block"]
    # the scout's own draw then finds the KO it left on top
    assert s.to_act().kind == "ko_block"  # type: ignore[union-attr]


def test_scout_with_a_short_pile_sees_fewer_cards() -> None:
    s = stacked([["scout"], []], pile=["plum"])
    play(s, "scout", "scout-take:0")
    # one card seen and taken, nothing to put back; the draw finds both piles nearly empty
    assert "plum" in hand(s, 0)
    s = stacked([["scout"], []], pile=[])
    events = play(s, "scout")
    assert "scouted" not in events
    assert s.current == 1


def test_scouted_cards_stay_known_to_the_scout_until_a_shuffle() -> None:
    s = stacked([["scout", "sweep"], [], []], pile=["plum", "block", "dodge", "overhook", "sweep"])
    play(s, "scout", "scout-take:0", "order:1,0")  # dodge on top, then block
    # the scout then drew the dodge; the block is on top and the scout knows it
    assert s.observe(0).known_pile == (KnownCard(depth=0, card="block"),)
    assert s.observe(1).known_pile == ()
    play(s, "draw")  # player 1 draws the block: the knowledge is gone with the card
    assert s.observe(0).known_pile == ()


def test_sweep_shuffles_only_the_draw_pile_and_sets_the_direction() -> None:
    pile = ["plum", "block", "dodge", "overhook", "scout", "attack+1", "attack+2", "body-lock"]
    s = stacked([["sweep"], [], [], []], pile=pile, discard=["underhook", "collar-tie"])
    play(s, "sweep")
    assert s.discard[-2:] == [C.UNDERHOOK, C.COLLAR_TIE] or s.discard[:2] == [C.UNDERHOOK, C.COLLAR_TIE]
    assert sorted(pile_top_first(s)) == sorted(pile)
    assert legal(s) == ["keep", "reverse"]
    play(s, "reverse")
    assert s.current == 3, "after reversing, play goes counterclockwise"
    s = stacked([["sweep"], [], [], []], pile=pile)
    play(s, "sweep", "keep")
    assert s.current == 1


def test_sweep_shuffle_is_random_but_reproducible() -> None:
    pile = ["plum", "block", "dodge", "overhook", "scout", "attack+1", "attack+2", "body-lock"]
    orders = set()
    for seed in range(10):
        s = stacked([["sweep"], []], pile=pile, seed=seed)
        play(s, "sweep")
        orders.add(tuple(pile_top_first(s)))
        again = stacked([["sweep"], []], pile=pile, seed=seed)
        play(again, "sweep")
        assert pile_top_first(again) == pile_top_first(s)
    assert len(orders) > 5


def test_turn_limit_ends_the_game_as_a_draw_among_active_players() -> None:
    s = stacked([[], [], []], pile=["plum"] * 10, max_turns=3)
    s.active[2] = False
    s.n_active = 2
    play(s, "draw", "draw")
    assert s.outcome() is None
    play(s, "draw")
    out = s.outcome()
    assert out is not None and out.draw and out.winners == (0, 1)
    assert out.payoffs == (0.5, 0.5, 0.0)
    assert s.legal_actions() == ()


def test_default_turn_limit_is_almost_never_reached() -> None:
    from knockabout.core import Rng

    draws = 0
    for seed in range(150):
        s = GAME.new_state({"players": 2 + seed % 4}, seed)
        r = Rng(seed)
        while s.to_act() is not None:
            la = s.legal_actions()
            s.apply(la[r.below(len(la))])
        draws += s.outcome().draw  # type: ignore[union-attr]
    assert draws <= 1


@pytest.mark.parametrize(("players", "hand_size", "block"), [(2, 3, False), (2, 7, False), (4, 6, True), (5, 6, False)])
def test_the_cards_dealt_house_rule_deals_that_many_and_the_pile_keeps_the_rest(
    players: int, hand_size: int, block: bool
) -> None:
    kos = C.in_play_counts(players)[C.KO]
    countdowns = C.in_play_counts(players)[C.COUNTDOWN]
    for seed in range(10):
        s = GAME.new_state({"players": players, "hand_size": hand_size, "starting_block": block}, seed)
        for p in range(players):
            assert s.sizes[p] == hand_size + block == sum(s.hands[p])
            assert s.hands[p][C.KO] == 0 == s.hands[p][C.COUNTDOWN]
        assert len(s.pile) + (hand_size + block) * players == 37 + kos + countdowns


def test_the_cards_dealt_house_rule_is_off_by_default_and_refuses_a_deal_that_leaves_no_pile() -> None:
    assert GAME.new_state({}, 3).to_dict() == GAME.new_state({"hand_size": 5}, 3).to_dict()
    assert GAME.new_state({"hand_size": 4}, 3).to_dict() != GAME.new_state({}, 3).to_dict()
    field = GAME.config_model.model_fields["hand_size"]
    assert field.default == 5 and field.title is not None and field.title.startswith("House rule")
    with pytest.raises(ConfigError, match="deals 35 cards"):
        GAME.new_state({"players": 5, "hand_size": 7}, 1)
    with pytest.raises(ConfigError, match="deals 35 cards with the starting Blocks"):
        GAME.new_state({"players": 5, "hand_size": 6, "starting_block": True}, 1)
    with pytest.raises(ConfigError, match="deals 35 cards"):  # the player count given apart from the options
        GAME.new_state({"hand_size": 7}, 1, players=5)


@pytest.mark.parametrize(("players", "extra"), [(2, 1), (3, 3), (5, 2)])
def test_the_extra_kos_house_rule_shuffles_more_kos_into_the_pile_and_the_table_counts_them(
    players: int, extra: int
) -> None:
    printed = C.in_play_counts(players)[C.KO]
    for seed in range(5):
        s = GAME.new_state({"players": players, "extra_kos": extra}, seed)
        assert s.pile.count(C.KO) == printed + extra, "(a fresh pile: no entry carries knowledge bits)"
        assert all(h[C.KO] == 0 for h in s.hands), "KOs go into the pile after the deal"
        assert s.observe(0).ko_in_pile == printed + extra
        again = GAME.state_type.from_dict(s.to_dict())  # type: ignore[union-attr]
        assert again.to_dict() == s.to_dict() and again.in_play[C.KO] == printed + extra


def test_the_extra_kos_house_rule_is_off_by_default_and_refuses_more_than_three() -> None:
    assert GAME.new_state({}, 3).to_dict() == GAME.new_state({"extra_kos": 0}, 3).to_dict()
    field = GAME.config_model.model_fields["extra_kos"]
    assert field.default == 0 and field.title is not None and field.title.startswith("House rule")
    with pytest.raises(ConfigError, match="extra_kos"):
        GAME.new_state({"extra_kos": 4}, 1)
