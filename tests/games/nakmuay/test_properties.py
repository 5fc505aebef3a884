"""Properties that hold in every game of Nak Muay Knockout, checked on random playouts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from knockabout.core import Rng, events_for
from knockabout.games.nakmuay import GAME, NakMuayState
from knockabout.games.nakmuay import cards as C
from tests.games.nakmuay.stacking import play, stacked


def _card_counts(s: NakMuayState) -> list[int]:
    total = [0] * C.NUM_KINDS
    for h in s.hands:
        for k in range(C.NUM_KINDS):
            total[k] += h[k]
    for e in s.pile:
        total[e & 15] += 1
    for k in s.discard:
        total[k] += 1
    for k in s.scout_cards:
        total[k] += 1
    total[C.KO] += s.limbo_ko
    total[C.COUNTDOWN] += s.countdown_live
    return total


def _expected_next(s: NakMuayState, prev: int) -> int:
    q = (prev + s.direction) % s.n
    while not s.active[q]:
        q = (q + s.direction) % s.n
    return q


@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    chooser=st.integers(0, 2**32),
    strict=st.booleans(),
)
def test_invariants_hold_through_a_whole_game(players: int, seed: int, chooser: int, strict: bool) -> None:
    s = GAME.new_state(
        {"players": players, "end_turn": "strict_end_turn" if strict else "draw_after"}, seed
    )
    rng = Rng(chooser)
    expected = _card_counts(s)
    assert expected == s.in_play
    while s.to_act() is not None:
        prev = s.current
        legal = s.legal_actions()
        events = s.apply(legal[rng.below(len(legal))])
        # card conservation
        assert _card_counts(s) == expected
        # a KO is never in a hand or in the discard pile
        assert all(h[C.KO] == 0 for h in s.hands)
        assert C.KO not in s.discard
        assert s.sizes == [sum(h) for h in s.hands]
        for p in range(players):
            if not s.active[p]:
                assert s.sizes[p] == 0
        assert s.n_active == sum(s.active)
        # direction and turn order, eliminations included
        for e in events:
            if e.type == "turn":
                assert e.data["player"] == _expected_next(s, prev)
                assert s.active[e.data["player"]]
    out = s.outcome()
    assert out is not None
    if out.draw:
        assert s.turn >= s.max_turns
        assert set(out.winners) == {p for p in range(players) if s.active[p]}
    else:
        assert len(out.winners) == 1 and s.n_active == 1 and s.active[out.winners[0]]
        assert sorted(out.payoffs) == [0.0] * (players - 1) + [1.0]


@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), steps=st.integers(0, 60))
def test_views_ignore_what_a_player_cannot_see(seed: int, players: int, steps: int) -> None:
    s = GAME.new_state({"players": players}, seed)
    rng = Rng(seed ^ 0x5A5A)
    for _ in range(steps):
        if s.to_act() is None:
            break
        la = s.legal_actions()
        s.apply(la[rng.below(len(la))])
    for p in range(players):
        a = s.determinize(p, Rng(1))
        b = s.determinize(p, Rng(2))
        assert a.observe(p) == b.observe(p) == s.observe(p)
    assert s.determinize(0, Rng(3)).observe(None) == s.observe(None)


def test_a_players_view_is_the_same_whatever_the_others_hold() -> None:
    a = stacked([["block", "scout"], ["plum", "plum", "dodge"], ["sweep"]], pile=["attack+1", "ko", "overhook"])
    b = stacked([["block", "scout"], ["attack+2", "sweep", "dodge"], ["plum"]], pile=["overhook", "ko", "attack+1"])
    assert a.observe(0) == b.observe(0)
    assert a.observe(None) == b.observe(None)
    assert a.observe(1) != b.observe(1)


def test_another_players_draw_shows_only_that_a_card_was_drawn() -> None:
    a = stacked([["scout"], ["plum"]], pile=["block", "sweep"], current=1)
    b = stacked([["scout"], ["plum"]], pile=["dodge", "sweep"], current=1)
    ea, eb = a.apply("draw"), b.apply("draw")
    assert events_for(ea, 0) == events_for(eb, 0)
    assert events_for(ea, None) == events_for(eb, None)
    assert events_for(ea, 1) != events_for(eb, 1)
    assert a.observe(0) == b.observe(0)


def test_a_steal_reveals_the_card_only_to_thief_and_victim() -> None:
    a = stacked([["plum", "plum"], ["block"], []], pile=["sweep"] * 3)
    b = stacked([["plum", "plum"], ["dodge"], []], pile=["sweep"] * 3)
    play(a, "pair:plum")
    play(b, "pair:plum")
    ea, eb = a.apply("target:1"), b.apply("target:1")
    assert events_for(ea, 2) == events_for(eb, 2)
    assert events_for(ea, 0) != events_for(eb, 0)
    assert events_for(ea, 1) != events_for(eb, 1)


def test_determinized_future_does_not_follow_the_true_seed() -> None:
    s = GAME.new_state({"players": 3}, 42)
    d = s.determinize(0, Rng(7))
    assert d.rng.state != s.rng.state


def test_determinize_keeps_what_the_player_knows_of_the_pile() -> None:
    s = stacked([["scout"], ["plum"], []], pile=["block", "dodge", "sweep", "overhook", "ko", "underhook"])
    play(s, "scout", "scout-take:0", "order:1,0")  # sweep on top, dodge next; scout then draws sweep
    for seed in range(10):
        d = s.determinize(0, Rng(seed))
        assert next(e & 15 for e in reversed(d.pile)) == C.DODGE
        # and the others' hands and the unknown pile are re-dealt from the unseen cards
    hands = {tuple(s.determinize(0, Rng(seed)).hands[1]) for seed in range(30)}
    assert len(hands) > 1


def test_determinize_honours_public_no_answers() -> None:
    s = stacked(
        [["plum", "overhook", "collar-tie"], ["scout", "dodge"], ["block", "block"]],
        pile=["sweep", "attack+1", "block"],
    )
    play(s, "triple:plum+collar-tie+overhook", "target:1", "name:block")
    for seed in range(30):
        d = s.determinize(2, Rng(seed))
        assert d.hands[1][C.BLOCK] == 0
