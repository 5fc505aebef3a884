"""The harness of the guide property tests: play a seeded game at random and, at every
decision on the way, apply each action a claim of the guidance names to a copy of the true
state and let the game's check for that claim confirm the promise.

Each game's test module passes its checks (claim name -> check); a claim the guidance makes
that has no check, or that the guide does not declare, fails.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from knockabout.core import Rng, get_game
from knockabout.core.bot import SeatView
from knockabout.core.plugins import Guidance

Check = Callable[[Any, int, str, random.Random, str], None]
"""``check(state, seat, action, rng, said)``: ``said`` is the label or hint that makes the
claim, for checks that read the numbers it promises."""


def claims_of(g: Guidance) -> list[tuple[str, str, str]]:
    """Every (claim, action, words that claim it) the guidance states."""
    out = [(a.claim, a.action, a.label) for a in g.actions if a.claim]
    out += [(h.claim, a, h.text) for h in g.hints if h.claim for a in h.actions]
    return out


def names_for(n: int) -> list[str]:
    return [f"Player {i + 1}" for i in range(n)]


def _seeded(game_id: str, config: Mapping[str, Any], seed: int) -> tuple[Any, Any, random.Random, list[str]]:
    """A seeded game's guide, its dealt state, the random moves' source and the seats' names."""
    game = get_game(game_id)
    guide = game.guide()
    assert guide is not None
    s = game.new_state(dict(config), seed)
    return guide, s, random.Random(seed), names_for(s.num_players)


def advised(game_id: str, seeds: int, steps: int, pick: Callable[[int, int, int], int]) -> Iterator[
        tuple[Any, Any, Any]]:
    """Every decision of seeded default games of ``game_id``, with the guide's advice:
    yields (state, decision, advice) before each move; the move made is legal action
    ``pick(seed, step, how many)``. A test returns once it has met what it looks for."""
    game = get_game(game_id)
    guide = game.guide()
    assert guide is not None
    for seed in range(seeds):
        s = game.new_state({}, seed)
        for step in range(steps):
            d = s.to_act()
            if d is None:
                break
            yield s, d, guide.advise(SeatView(s, d.player), names_for(2))
            legal = s.legal_actions()
            s.apply(legal[pick(seed, step, len(legal))])


def check_game(game_id: str, config: Mapping[str, Any], seed: int, steps: int, checks: Mapping[str, Check],
               seen: set[str] | None = None) -> None:
    """Play ``steps`` random actions of a seeded game, checking every claim on the way."""
    guide, s, rng, names = _seeded(game_id, config, seed)
    for _ in range(steps):
        d = s.to_act()
        if d is None:
            return
        g = guide.advise(SeatView(s, d.player), names)
        legal = {a.text for a in s.legal_actions()}
        for claim, action, said in claims_of(g):
            assert claim in guide.claims, f"{game_id}: claim {claim!r} is not declared"
            assert claim in checks, f"{game_id}: no check for claim {claim!r}"
            assert action in legal, f"{game_id}: the claim {claim!r} names {action!r}, which is not legal"
            checks[claim](s.clone(), d.player, action, random.Random(rng.random()), said)
            if seen is not None:
                seen.add(claim)
        act = s.legal_actions()[rng.randrange(len(s.legal_actions()))]
        s.apply(act)


def no_leak(game_id: str, config: Mapping[str, Any], seed: int, steps: int) -> int:
    """At each decision, the guidance from the true state equals the guidance from a state
    re-dealt in everything the deciding seat cannot see; returns how many were compared."""
    guide, s, rng, names = _seeded(game_id, config, seed)
    compared = 0
    for k in range(steps):
        d = s.to_act()
        if d is None:
            break
        g = guide.advise(SeatView(s, d.player), names)
        other = s.determinize(d.player, Rng(seed * 1000 + k))
        assert guide.advise(SeatView(other, d.player), names) == g, f"{game_id}: guidance tells hidden facts"
        compared += 1
        s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
    return compared


TestFn = Callable[..., None]


def property_tests(game_id: str, option_sets: Sequence[dict[str, Any]], checks: Mapping[str, Check], *,
                   examples: int, max_steps: int, sweep: tuple[int, int], leak: tuple[int, int],
                   rare: frozenset[str] = frozenset()) -> tuple[TestFn, TestFn, TestFn, TestFn]:
    """A game's four guide tests, for its module to name: every declared claim has a check;
    every claim holds on a copy of the true state (hypothesis: ``examples`` games of up to
    ``max_steps`` actions over ``option_sets``); seeded games (``sweep``: seeds per option
    set, actions each) make every claim but the ``rare`` ones; and the guidance tells nothing
    hidden (``leak``: examples, actions each)."""

    def test_every_declared_claim_has_a_check() -> None:
        guide = get_game(game_id).guide()
        assert guide is not None
        assert set(guide.claims) == set(checks)

    @settings(max_examples=examples, deadline=None)
    @given(options=st.sampled_from(list(option_sets)), seed=st.integers(0, 2**32), steps=st.integers(1, max_steps))
    def test_every_claim_holds_on_a_copy_of_the_true_state(options: dict[str, Any], seed: int, steps: int) -> None:
        check_game(game_id, options, seed, steps, checks)

    def test_seeded_games_meet_every_claim() -> None:
        seen: set[str] = set()
        for options in option_sets:
            for seed in range(sweep[0]):
                check_game(game_id, options, seed, sweep[1], checks, seen)
        assert seen | rare == set(checks), f"never made: {set(checks) - seen - rare}"

    @settings(max_examples=leak[0], deadline=None)
    @given(options=st.sampled_from(list(option_sets)), seed=st.integers(0, 2**32))
    def test_the_guidance_tells_nothing_hidden(options: dict[str, Any], seed: int) -> None:
        assert no_leak(game_id, options, seed, leak[1]) > 0

    return (test_every_declared_claim_has_a_check, test_every_claim_holds_on_a_copy_of_the_true_state,
            test_seeded_games_meet_every_claim, test_the_guidance_tells_nothing_hidden)
