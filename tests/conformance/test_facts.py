"""A game's declared facts (:class:`~knockabout.core.plugins.GameFacts`) agree with how it
plays: the decision kinds and outcome reasons random playouts meet, whether some decision
is timed, the player counts, and the type of its views. Nothing here names a game."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest

from knockabout.core import KnockaboutError, Rng, game_ids, get_game
from knockabout.core.view import View

GAMES = game_ids()
SEEDS = range(4)
STEP_CAP = 20_000


def config_variants(game_id: str) -> list[dict[str, Any]]:
    """The default configuration, and each other value of every option that has a fixed
    set of them, switches included (one option changed at a time): enough to meet every
    kind of decision."""
    schema = get_game(game_id).config_model.model_json_schema()
    out: list[dict[str, Any]] = [{}]
    for name, spec in schema.get("properties", {}).items():
        for value in spec.get("enum", []):
            if value != spec.get("default"):
                out.append({name: value})
        if spec.get("type") == "boolean":  # a switch (a house rule): the other position
            out.append({name: not spec.get("default", False)})
    return out


@dataclass
class Seen:
    kinds: set[str] = field(default_factory=set)
    reasons: set[str] = field(default_factory=set)
    timed: bool = False
    view_types: set[type] = field(default_factory=set)
    hidden: bool = False
    """Some seat's re-dealt state (``determinize``) showed some seat a different view."""
    games: int = 0


def _redeal_shows_something_new(s: Any, seat: int, rng: Rng) -> bool:
    """Whether re-dealing what ``seat`` cannot see changes what any seat sees."""
    other = s.determinize(seat, rng)
    return any(
        other.observe(p).to_json() != s.observe(p).to_json() for p in range(s.num_players)
    )


@cache
def seen_in_playouts(game_id: str) -> Seen:
    """What random playouts of every configuration variant meet (each seat's view looked
    at once per decision)."""
    g = get_game(game_id)
    seen = Seen()
    for cfg in config_variants(game_id):
        for seed in SEEDS:
            s = g.new_state(cfg, seed)
            rng = Rng(seed)
            for _ in range(STEP_CAP):
                d = s.to_act()
                if d is None:
                    break
                seen.kinds.add(d.kind)
                seen.timed |= d.time_limit is not None
                seen.view_types.add(type(s.observe(d.player)))
                if not seen.hidden:
                    seen.hidden = _redeal_shows_something_new(s, d.player, rng)
                legal = s.legal_actions()
                s.apply(legal[rng.below(len(legal))])
            out = s.outcome()
            assert out is not None, f"{game_id} {cfg} seed {seed}: no outcome after {STEP_CAP} steps"
            seen.reasons.add(out.reason)
            seen.view_types.add(type(s.observe(None)))
            seen.games += 1
    return seen


@pytest.mark.parametrize("game_id", GAMES)
def test_every_decision_kind_met_is_declared(game_id: str) -> None:
    declared = get_game(game_id).facts.decision_kinds
    undeclared = seen_in_playouts(game_id).kinds - declared
    assert not undeclared, f"{game_id} asks decisions it does not declare: {sorted(undeclared)}"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_outcome_reason_met_is_declared(game_id: str) -> None:
    facts = get_game(game_id).facts
    for reason in seen_in_playouts(game_id).reasons:
        assert facts.reason_key(reason) in facts.outcome_reasons, (
            f"{game_id} ended for {reason!r}, which is not among {sorted(facts.outcome_reasons)}"
        )


@pytest.mark.parametrize("game_id", GAMES)
def test_hidden_information_is_declared_exactly_when_a_redeal_shows(game_id: str) -> None:
    """A game that declares no hidden information must give every re-dealt state the same
    views; one that declares it must have something a re-deal changes."""
    declared = get_game(game_id).facts.hidden_information
    assert seen_in_playouts(game_id).hidden == declared, (
        f"{game_id} declares hidden_information={declared}, but random playouts "
        + ("found a seat whose re-deal changed some seat's view" if not declared else
           "never found anything a re-deal changes")
    )


@pytest.mark.parametrize("game_id", GAMES)
def test_timed_decisions_are_declared_exactly_when_some_decision_is_timed(game_id: str) -> None:
    facts = get_game(game_id).facts
    seen = seen_in_playouts(game_id)
    assert facts.timed_decisions == seen.timed, (
        f"{game_id} declares timed_decisions={facts.timed_decisions}, but {seen.games} random playouts "
        f"{'met' if seen.timed else 'never met'} a decision with a time limit"
    )


@pytest.mark.parametrize("game_id", GAMES)
def test_player_counts_agree_with_the_configuration(game_id: str) -> None:
    g = get_game(game_id)
    facts = g.facts
    assert facts.min_players <= facts.default_players <= facts.max_players
    assert g.new_state(None, 0).num_players == facts.default_players
    for n in range(facts.min_players, facts.max_players + 1):
        assert g.new_state(None, 0, players=n).num_players == n
    for n in (facts.min_players - 1, facts.max_players + 1):
        with pytest.raises(KnockaboutError):
            g.new_state(None, 0, players=n)
    if "players" in g.config_model.model_fields:
        for n in range(facts.min_players, facts.max_players + 1):
            assert g.new_state({"players": n}, 0).num_players == n
        for n in (facts.min_players - 1, facts.max_players + 1):
            with pytest.raises(KnockaboutError):
                g.make_config({"players": n})


@pytest.mark.parametrize("game_id", GAMES)
def test_views_are_instances_of_the_declared_view_type(game_id: str) -> None:
    g = get_game(game_id)
    view_type = getattr(g, "view_type", None)
    assert view_type is not None, f"{game_id} declares no view_type"
    assert issubclass(view_type, View)
    for seen in seen_in_playouts(game_id).view_types:
        assert issubclass(seen, view_type), f"{game_id}.observe() gave a {seen.__name__}, not a {view_type.__name__}"
