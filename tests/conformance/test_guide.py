"""Every game's guide (:class:`~knockabout.core.plugins.Guide`) keeps the same promises: a
title and a line of why for each decision kind the game declares, each naming a section its
rules page has; at every decision of random playouts (every option with a fixed set of
values), guidance for the kind asked, only legal actions, each in words of its own (never
its action text), and only declared claims; and the same guidance from a state re-dealt in
what the seat cannot see. Nothing here names a game."""

from __future__ import annotations

import re
from typing import Any

import pytest

from knockabout.core import game_ids, get_game
from knockabout.core.bot import SeatView
from knockabout.server.rules import rules_html
from tests.conformance.guide_claims import claims_of, names_for, no_leak
from tests.conformance.test_facts import config_variants

GUIDED = [g for g in game_ids() if get_game(g).guide() is not None]
ACTION_TEXT = re.compile(r"\b[a-z_-]+:[\w+,-]+")  # how action texts look: attack:1, place:A1:B2:N


def test_every_shipped_game_has_a_guide() -> None:
    assert {"nak-muay", "knockdown", "knockback"} <= set(GUIDED)


@pytest.mark.parametrize("game_id", GUIDED)
def test_every_decision_kind_has_a_title_a_why_and_a_rules_section(game_id: str) -> None:
    game = get_game(game_id)
    guide = game.guide()
    assert guide is not None
    prompts = guide.prompts()
    assert set(prompts) == set(game.facts.decision_kinds)
    html = rules_html(game)
    for kind, p in prompts.items():
        assert p.title.strip() and p.why.strip(), kind
        assert p.why.rstrip().endswith((".", "!", "?")), f"{kind}: the why line is a sentence"
        assert p.section and f'id="{p.section}"' in html, f"{kind}: no section {p.section!r} on the rules page"


@pytest.mark.parametrize("game_id", GUIDED)
def test_guidance_at_every_decision_of_random_playouts(game_id: str) -> None:
    game = get_game(game_id)
    guide = game.guide()
    assert guide is not None
    kinds: set[str] = set()
    for cfg in config_variants(game_id):
        for seed in range(2):
            s = game.new_state(cfg, seed)
            names = names_for(s.num_players)
            for step in range(400):
                d = s.to_act()
                if d is None:
                    break
                g = guide.advise(SeatView(s, d.player), names)
                legal = [a.text for a in s.legal_actions()]
                assert g.kind == d.kind
                kinds.add(d.kind)
                assert g.prompt.title and g.prompt.why and g.prompt.section
                shown = [a.action for a in g.actions]
                assert shown and set(shown) <= set(legal), (d.kind, shown, legal)
                labels = [a.label for a in g.actions]
                assert len(set(labels)) == len(labels), f"two actions say the same: {labels}"
                for a in g.actions:
                    assert a.label.strip() and not ACTION_TEXT.search(a.label), f"{d.kind}: {a.label!r}"
                    assert a.tone in ("", "quiet", "own", "danger")
                for h in g.hints:
                    assert h.text.strip() and not ACTION_TEXT.search(h.text), h.text
                for claim, _, _ in claims_of(g):
                    assert claim in guide.claims, claim
                s.apply(legal[(seed * 31 + step * 7) % len(legal)])
    assert kinds, "no decision met"


@pytest.mark.parametrize("game_id", GUIDED)
def test_the_guidance_is_the_same_from_a_state_redealt_in_what_the_seat_cannot_see(game_id: str) -> None:
    compared = 0
    for cfg in config_variants(game_id)[:3]:
        for seed in range(2):
            compared += no_leak(game_id, cfg, seed, 120)
    assert compared > 50


@pytest.mark.parametrize("game_id", GUIDED)
def test_a_view_alone_labels_every_legal_action(game_id: str) -> None:
    """What a replay and the terminal's fallback use: words from the view, never the text."""
    game = get_game(game_id)
    guide = game.guide()
    assert guide is not None
    s = game.new_state({}, 3)
    names: list[str] = names_for(s.num_players)
    for _ in range(200):
        d = s.to_act()
        if d is None:
            break
        view: Any = s.observe(d.player)
        for a in s.legal_actions():
            words = guide.label(view, a.text, names)
            assert words and not ACTION_TEXT.search(words), (a.text, words)
        s.apply(s.legal_actions()[0])
