"""KO, Block, Countdown, Clinch steals, the deck, and the end of the game."""

from __future__ import annotations

import pytest

from knockabout.core import IllegalActionError
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay.view import KnownCard
from tests.games.nakmuay.stacking import hand, legal, pile_top_first, play, stacked

# --------------------------------------------------------------------------- KO


def test_drawing_a_ko_while_holding_a_block_forces_the_block() -> None:
    s = stacked([["block", "plum"], ["scout"]], pile=["ko", "dodge", "sweep"])
    play(s, "draw")
    d = s.to_act()
    assert d is not None and d.player == 0 and d.kind == "ko_block"
    assert legal(s) == ["block"]
    with pytest.raises(IllegalActionError, match="ko_block"):
        s.apply("draw")
    play(s, "block")
    assert s.to_act().kind == "hide_ko"  # type: ignore[union-attr]
    assert hand(s, 0) == ["plum"]
    assert s.discard == [C.BLOCK], "the Block is discarded, the KO is not"


def test_a_blocked_ko_is_hidden_at_any_depth_chosen_by_its_drawer() -> None:
    s = stacked([["block"], []], pile=["ko", "dodge", "sweep", "plum"])
    play(s, "draw", "block")
    assert legal(s) == ["hide:0", "hide:1", "hide:2", "hide:3"]
    play(s, "hide:2")
    assert pile_top_first(s) == ["dodge", "sweep", "ko", "plum"]
    assert s.current == 1
    assert s.observe(0).known_pile == (KnownCard(depth=2, card="ko"),)
    assert s.observe(1).known_pile == (), "only the hider knows where the KO is"


def test_hiding_a_ko_is_private_but_the_fact_is_public() -> None:
    s = stacked([["block"], []], pile=["ko", "dodge"])
    play(s, "draw", "block")
    events = s.apply("hide:1")
    public = [e for e in events if e.visible_to is None]
    private = [e for e in events if e.visible_to is not None]
    assert [e.type for e in public][:1] == ["hide_ko"]
    assert all("depth" not in e.data for e in public)
    assert [(e.type, e.visible_to) for e in private] == [("hid_ko", frozenset({0}))]


def test_drawing_a_ko_without_a_block_eliminates_and_reveals_the_hand() -> None:
    s = stacked([["plum", "scout"], ["dodge"], ["sweep"]], pile=["ko", "attack+1", "overhook"], seed=3)
    events = s.apply("draw")
    elim = [e for e in events if e.type == "eliminated"]
    assert len(elim) == 1 and elim[0].visible_to is None
    assert elim[0].data["hand"] == ["scout", "plum"]
    assert not s.active[0]
    assert hand(s, 0) == []
    assert sorted(s.discard) == [C.SCOUT, C.PLUM]
    assert C.KO not in s.discard
    assert sorted(pile_top_first(s)) == sorted(["ko", "attack+1", "overhook"]), "the KO goes back in the pile"
    assert s.current == 1


def test_an_eliminated_players_ko_goes_back_at_a_random_position() -> None:
    depths = set()
    for seed in range(30):
        s = stacked([["plum"], ["dodge"], ["sweep"]], pile=["ko"] + ["scout"] * 5, seed=seed)
        play(s, "draw")
        depths.add(pile_top_first(s).index("ko"))
    assert len(depths) >= 4


def test_a_ko_during_attack_draws_eliminates_and_cancels_the_rest() -> None:
    s = stacked([["attack+3"], ["plum"], ["scout"]], pile=["dodge", "ko", "sweep", "overhook", "underhook"])
    s.apply("attack:3")
    events = s.apply("take")
    assert not s.active[1]
    # the target drew the dodge, then the KO knocked it out; the sweep was never drawn by it
    assert [(e.type, e.data.get("player")) for e in events if e.type in ("draw", "draw_ko", "eliminated")][:4] == [
        ("draw", 1),
        ("draw_ko", 1),
        ("eliminated", 1),
        ("draw", 0) if hand(s, 0) else ("draw_ko", 0),
    ], "the attacker still goes on to its own draw"
    assert s.sizes[1] == 0


def test_a_blocked_ko_during_attack_draws_lets_the_remaining_draws_continue() -> None:
    s = stacked([["attack+2"], ["block"]], pile=["ko", "sweep", "plum", "scout"])
    play(s, "attack:2", "take", "block", "hide:3")
    assert hand(s, 1) == ["sweep"], "the second draw of the attack still happens"
    assert hand(s, 0) == ["plum"], "then the attacker draws"
    assert pile_top_first(s) == ["scout", "ko"]


def test_the_last_player_standing_wins_at_once() -> None:
    s = stacked([["attack+1"], ["plum"]], pile=["ko", "sweep"])
    events = play(s, "attack:1", "take")
    out = s.outcome()
    assert out is not None and out.winners == (0,) and not out.draw
    assert out.payoffs == (1.0, 0.0)
    assert events[-1] == "game_over"
    assert s.to_act() is None and s.legal_actions() == ()
    assert hand(s, 0) == [], "the winner does not go on to draw"


def test_elimination_in_your_own_draw_passes_the_turn_to_the_next_active_player() -> None:
    s = stacked([[], ["plum"], [], ["scout"]], pile=["ko"] + ["sweep"] * 4, current=1)
    s.active[2] = False
    s.n_active = 3
    play(s, "draw")
    assert not s.active[1]
    assert s.current == 3


# -------------------------------------------------------------------- Countdown


def test_countdown_opens_a_timed_window_whose_default_is_no_response() -> None:
    s = stacked([["countdown"], ["block", "plum"]], pile=["sweep"], countdown_seconds=7.5)
    play(s, "countdown")
    d = s.to_act()
    assert d is not None and d.player == 1 and d.kind == "countdown_response"
    assert d.time_limit == 7.5 and d.timeout_action is not None and d.timeout_action.text == "no-response"
    assert legal(s) == ["no-response", "block", "clinch:plum"]


def test_countdown_window_opens_even_without_a_possible_answer() -> None:
    s = stacked([["countdown"], ["scout"]], pile=["sweep"])
    play(s, "countdown")
    assert s.to_act().kind == "countdown_response"  # type: ignore[union-attr]
    assert legal(s) == ["no-response"]
    # what the others see does not depend on whether the target can answer
    t = stacked([["countdown"], ["block"]], pile=["sweep"])
    play(t, "countdown")
    for seat in (0, None):
        a, b = s.observe(seat).to_json(), t.observe(seat).to_json()
        a.pop("hand", None), b.pop("hand", None)
        assert a == b


def test_an_unanswered_countdown_eliminates_its_target() -> None:
    s = stacked([["countdown"], ["scout", "plum"], ["dodge"]], pile=["sweep", "overhook"])
    events = play(s, "countdown", "no-response")
    assert "eliminated" in events
    assert not s.active[1]
    assert C.COUNTDOWN in s.discard
    assert hand(s, 0) == ["sweep"], "the player of the Countdown then draws"
    assert s.current == 2


@pytest.mark.parametrize("answer", ["block", "dodge", "clinch:plum", "clinch:body-lock"])
def test_block_dodge_or_one_clinch_cancels_a_countdown(answer: str) -> None:
    card = answer.split(":")[-1]
    s = stacked([["countdown"], [card, "scout"]], pile=["sweep", "overhook"])
    play(s, "countdown", answer)
    assert s.active[1]
    assert sorted(s.discard) == sorted([C.COUNTDOWN, C.KIND_BY_NAME[card]])
    assert hand(s, 1) == ["scout"]
    assert hand(s, 0) == ["sweep"]


def test_only_the_target_acts_while_a_countdown_is_pending() -> None:
    s = stacked([["countdown", "attack+1"], ["block"], ["scout"]], pile=["sweep"])
    play(s, "countdown")
    assert s.to_act().player == 1  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError):
        s.apply("attack:1")


def test_strict_variant_countdown_ends_the_turn_without_a_draw() -> None:
    s = stacked([["countdown"], ["block"]], pile=["sweep"], end_turn="strict_end_turn")
    play(s, "countdown", "block")
    assert hand(s, 0) == [] and s.current == 1


# ----------------------------------------------------------------------- Clinch


def test_a_clinch_pair_needs_two_of_the_same_hold() -> None:
    s = stacked([["plum", "overhook", "underhook"], ["scout"]], pile=["sweep"])
    assert not any(a.startswith("pair:") for a in legal(s))
    s = stacked([["plum", "plum"], ["scout"]], pile=["sweep"])
    assert "pair:plum" in legal(s)


def test_a_clinch_pair_steals_a_random_card_from_a_chosen_active_player() -> None:
    stolen = set()
    for seed in range(20):
        s = stacked([["plum", "plum"], ["scout", "dodge"], ["sweep"], []], pile=["overhook"] * 3, seed=seed)
        s.active[3] = False
        s.n_active = 3
        play(s, "pair:plum")
        assert legal(s) == ["target:1", "target:2"], "only other active players can be targeted"
        events = s.apply("target:1")
        priv = [e for e in events if e.type == "stolen_card"]
        assert priv[0].visible_to == frozenset({0, 1})
        assert all("card" not in e.data for e in events if e.visible_to is None)
        stolen.add(priv[0].data["card"])
        assert s.sizes[1] == 1 and s.hands[0][C.KIND_BY_NAME[priv[0].data["card"]]] == 1
    assert stolen == {"scout", "dodge"}


def test_a_clinch_triple_needs_three_different_holds_and_names_cards() -> None:
    s = stacked(
        [["plum", "overhook", "underhook"], ["scout", "dodge"], ["sweep"]], pile=["body-lock"] * 3
    )
    assert legal(s)[-1] == "triple:plum+underhook+overhook"
    play(s, "triple:plum+underhook+overhook", "target:1")
    assert s.to_act().kind == "triple_name"  # type: ignore[union-attr]
    events = s.apply("name:block")
    no = next(e for e in events if e.type == "name")
    assert no.visible_to is None and no.data["answer"] is False, "every 'no' is public"
    assert "name:block" not in legal(s), "a card already named cannot be named again"
    assert s.observe(2).no_answers == {"1": ("block",)}
    play(s, "name:dodge")
    assert hand(s, 0) == ["dodge", "body-lock"]
    assert hand(s, 1) == ["scout"]


def test_a_clinch_triple_may_stop_naming_and_take_at_random() -> None:
    s = stacked([["plum", "overhook", "collar-tie"], ["scout"]], pile=["sweep"] * 3)
    play(s, "triple:plum+collar-tie+overhook", "target:1", "name:block", "take-random")
    assert hand(s, 0) == ["scout", "sweep"]


def test_public_no_answers_are_forgotten_when_the_player_gains_a_card() -> None:
    s = stacked([["plum", "overhook", "collar-tie"], ["scout"]], pile=["sweep"] * 3)
    play(s, "triple:plum+collar-tie+overhook", "target:1", "name:block", "take-random")
    assert s.observe(0).no_answers == {"1": ("block",)}
    play(s, "draw")  # player 1 draws: it may now hold a Block
    assert s.observe(0).no_answers == {}


def test_stealing_from_an_empty_hand_takes_nothing() -> None:
    s = stacked([["plum", "plum"], []], pile=["sweep"])
    events = play(s, "pair:plum", "target:1")
    assert "steal_nothing" in events
    assert hand(s, 0) == ["sweep"]


# ------------------------------------------------------------------------- deck


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_discard_pile() -> None:
    s = stacked([[], ["plum"]], pile=[], discard=["scout", "sweep", "dodge"])
    events = play(s, "draw")
    assert "reshuffle" in events
    assert s.discard == []
    assert s.sizes[0] == 1 and len(s.pile) == 2


def test_a_draw_from_two_empty_piles_does_nothing() -> None:
    s = stacked([["block"], ["plum"]], pile=[], discard=[])
    events = play(s, "draw")
    assert "draw_nothing" in events
    assert hand(s, 0) == ["block"] and s.current == 1


def test_the_discard_pile_is_public() -> None:
    s = stacked([["attack+1"], ["dodge"], []], pile=["plum"] * 3)
    play(s, "attack:1", "dodge")
    for seat in (0, 1, 2, None):
        assert s.observe(seat).discard == ("attack+1", "dodge")
