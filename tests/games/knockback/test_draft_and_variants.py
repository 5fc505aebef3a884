"""Drafts (hidden hands), every table variant through the protocol, and invariants."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from knockabout.core import GameRecord, Match, Rng, get_game, replay
from knockabout.games.knockback.actions import LABELS
from knockabout.games.knockback.grid import coords
from knockabout.games.knockback.phases import ALL_SIX, DRAFT, EDGE, PLACE, SYMBOL, TURN
from knockabout.games.knockback.state import KnockbackState
from tests.games.knockback.builders import of_type

G = get_game("knockback")

VARIANTS: list[dict[str, Any]] = [
    {"lineup": "draft2"},
    {"lineup": "draft4"},
    {"knockback": "whole_line"},
    {"scoring": "speed"},
    {"scoring": "best_of", "best_of": 5},
    {"lineup": "draft4", "draft_packs": ["ember-rush", "granite-ward", "random", "random"], "scoring": "speed"},
]


def _random_play(s: KnockbackState, rng: Rng, cap: int = 30_000) -> int:
    n = 0
    while s.to_act() is not None and n < cap:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
        n += 1
    return n


def test_two_pack_draft_deals_three_each_and_ends_with_three_kept() -> None:
    s = G.new_state({"lineup": "draft2", "packs": ["ember-rush", "granite-ward"]}, 1)
    assert s.phase == DRAFT and [len(h) for h in s.hands] == [3, 3]
    assert sorted(s.hands[0] + s.hands[1]) == list(range(6))
    picks = 0
    while s.phase == DRAFT:
        s.apply("keep:0")
        picks += 1
    assert picks == 6
    assert s.phase == PLACE
    assert sorted(c.name for c in s.lab) == sorted(c.name for c in s.cards)


def test_four_pack_draft_stops_with_three_cards_still_in_hand() -> None:
    s = G.new_state({"lineup": "draft4"}, 2)
    assert len(s.cards) == 12 and [len(h) for h in s.hands] == [6, 6]
    assert len({c.pack for c in s.cards}) == 4
    seen_sizes = []
    while s.phase == DRAFT:
        seen_sizes.append(len(s.hands[s.current]))
        s.apply(s.legal_actions()[-1])
    assert seen_sizes == [6, 6, 5, 5, 4, 4]
    assert len(s.lab) == 6 and len({c.key for c in s.lab}) == 6


def test_a_draft_pick_is_kept_and_the_rest_passed() -> None:
    s = G.new_state({"lineup": "draft2"}, 3)
    h0, h1 = list(s.hands[0]), list(s.hands[1])
    s.apply("keep:1")
    s.apply("keep:2")
    # each kept its pick; the remaining cards changed hands
    assert s.kept == [[h0[1]], [h1[2]]]
    assert s.hands == [[h1[0], h1[1]], [h0[0], h0[2]]]


def test_draft_hands_are_hidden_from_the_opponent_and_spectators() -> None:
    s = G.new_state({"lineup": "draft4"}, 5)
    ev = s.apply("keep:0")
    private = [e for e in ev if e.visible_to is not None]
    assert private and all(e.visible_to == frozenset({0}) for e in private)
    v1 = s.observe(1).draft
    assert v1 is not None and v1.picked is None and v1.hand is not None
    assert [c.name for c in v1.hand] == [s.cards[i].name for i in s.hands[1]]
    v0 = s.observe(0).draft
    assert v0 is not None and v0.picked == 0  # seat 0 sees its own pick
    # seat 1's view is the same whatever seat 0 holds or picked
    other = s.clone()
    other.hands[0] = other.hands[0][::-1]
    other.pick = 5 - s.pick
    assert other.observe(1) == s.observe(1)
    assert other.observe(0) != s.observe(0)
    spectator = s.observe(None).draft
    assert spectator is not None and spectator.hand is None and spectator.kept is None
    assert spectator.hand_sizes == (6, 6)


def test_determinize_in_a_draft_keeps_my_cards_and_redeals_the_rest() -> None:
    s = G.new_state({"lineup": "draft4"}, 6)
    s.apply("keep:2")
    rng = Rng(4)
    differ = 0
    for _ in range(10):
        d = s.determinize(1, rng)
        assert d.hands[1] == s.hands[1] and d.kept[1] == s.kept[1]
        assert sorted(d.hands[0] + d.kept[0]) == sorted(s.hands[0] + s.kept[0])
        assert d.observe(1) == s.observe(1)
        differ += d.hands[0] != s.hands[0]
    assert differ > 0, "the opponent's hand was never re-dealt"


@pytest.mark.parametrize("cfg", VARIANTS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_every_variant_plays_to_an_outcome_and_replays(cfg: dict[str, Any]) -> None:
    for seed in range(3):
        m = Match("knockback", cfg, seed)
        rng = Rng(seed)
        while m.state.to_act() is not None:
            legal = m.state.legal_actions()
            m.apply(legal[rng.below(len(legal))])
        out = m.state.outcome()
        assert out is not None
        again = replay(GameRecord.from_json(m.record.to_json()))
        assert again.to_dict() == m.state.to_dict()


@pytest.mark.parametrize("cfg", VARIANTS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_every_variant_survives_serde_and_determinize_midgame(cfg: dict[str, Any]) -> None:
    rng = Rng(9)
    s = G.new_state(cfg, 4)
    step = 0
    while s.to_act() is not None and step < 400:
        if step % 17 == 0:
            back = G.state_from_dict(json.loads(json.dumps(s.to_dict())))
            assert back.to_dict() == s.to_dict()
            assert back.legal_actions() == s.legal_actions()
            for p in (0, 1):
                d1, d2 = s.determinize(p, rng), s.determinize(p, rng)
                assert d1.observe(p) == d2.observe(p) == s.observe(p)
                assert d1.to_act() == s.to_act()
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
        step += 1


def _check_invariants(s: KnockbackState) -> None:
    grid = s.grid
    on = [i for i in range(6) if s.onboard >> i & 1]
    # no two cards on one cell, and grid and positions agree
    assert len(grid) == len(on)
    assert all(grid[s.pos[i]] == i for i in on)
    # card conservation: on the grid <= placed; knocked-out cards are placed but gone
    assert s.onboard & ~s.placed == 0
    assert s.exhausted & ~s.onboard == 0
    if s.phase != DRAFT:
        assert len(s.lab) == 6
    if s.phase in (TURN, SYMBOL, EDGE):
        assert s.placed == ALL_SIX  # every card is placed once a battle starts
        assert s.onboard & 0b000111 and s.onboard & 0b111000  # both players still have a card
    if s.phase == PLACE and s.placed:
        # during placement every card touches another (unless it is the only one)
        cells = {s.pos[i] for i in on}
        if len(cells) > 1:
            for c in cells:
                x, y = coords(c)
                assert any(coords(o) in {(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)} for o in cells)


def _touches(s: KnockbackState, i: int) -> bool:
    x, y = coords(s.pos[i])
    return any(
        s.onboard >> j & 1 and coords(s.pos[j]) in {(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)}
        for j in range(6)
        if j != i
    )


@given(
    seed=st.integers(0, 2**32),
    cfg=st.sampled_from([*VARIANTS, {}]),
)
def test_random_play_keeps_the_grid_consistent(seed: int, cfg: dict[str, Any]) -> None:
    s = G.new_state(cfg, seed)
    rng = Rng(seed)
    steps = 0
    while s.to_act() is not None and steps < 1500:
        _check_invariants(s)
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
        steps += 1
    _check_invariants(s)


@given(seed=st.integers(0, 2**32))
def test_an_activation_without_punches_that_started_next_to_a_card_ends_next_to_one(seed: int) -> None:
    s = G.new_state({}, seed)
    rng = Rng(seed)
    steps = 0
    while s.to_act() is not None and steps < 1500:
        legal = s.legal_actions()
        a = legal[rng.below(len(legal))]
        if a.text.startswith("activate:"):
            i = LABELS.index(a.text.split(":")[1])
            touching = _touches(s, i)
            events = s.apply(a)
            # play the activation through, avoiding punches
            while s.phase in (SYMBOL, EDGE):
                opts = [o for o in s.legal_actions() if not o.text.startswith("punch")]
                events += s.apply(opts[rng.below(len(opts))])
            if touching and s.onboard >> i & 1 and not of_type(events, "round_over"):
                assert _touches(s, i), f"{LABELS[i]} ended its activation alone"
        else:
            s.apply(a)
        steps += 1


@pytest.mark.parametrize("cfg", [{"lineup": "draft2"}, {}], ids=["draft", "packs"])
def test_every_event_of_a_game_has_its_own_sentence(cfg: dict[str, Any]) -> None:
    s = G.new_state(cfg, 12)
    rng = Rng(12)
    kinds = set()
    while s.to_act() is not None:
        legal = s.legal_actions()
        for e in s.apply(legal[rng.below(len(legal))]):
            kinds.add(e.type)
            line = G.narrate(e, ["Ann", "Bo"])
            assert line is None or not line.startswith(f"{e.type}:"), f"no sentence for {e.type}"
    assert {"place", "activate", "punch", "knockback", "round_over", "game_over"} <= kinds
