"""The terminal renderer: the grid with readable edges, labels for every action."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console

from knockabout.cli.render.knockback import RENDERER, _box, grid, label
from knockabout.core import Rng, get_game
from knockabout.games.knockback.state import KnockbackState
from tests.games.knockback.builders import battle, card, play

G = get_game("knockback")
NAMES = ["Ann", "Bo"]


def text_of(renderable: Any) -> str:
    console = Console(width=160, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def _views(cfg: dict[str, Any], seed: int) -> list[tuple[dict[str, Any], int]]:
    s = G.new_state(cfg, seed)
    rng = Rng(seed)
    out = []
    for step in range(400):
        d = s.to_act()
        if d is None:
            break
        if step % 8 == 0:
            out.append((s.observe(d.player), d.player))
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    return out


@pytest.mark.parametrize("cfg", [{}, {"lineup": "draft4"}, {"scoring": "best_of"}, {"knockback": "whole_line"}])
def test_every_view_renders_and_every_legal_action_gets_plain_words(cfg: dict[str, Any]) -> None:
    for view, seat in _views(cfg, 3):
        board = text_of(RENDERER.board(view, NAMES, seat))
        text_of(RENDERER.hand(view, NAMES, seat))
        assert "Round" in board
        for c in view["cards"]:
            if c["status"] == "board":
                assert c["label"] in board
                n = c["board_edges"]["N"]
                assert f"{n['attack']}/{n['heart']}" in board
        for a in view["legal"]:
            words = RENDERER.action_label(a, view, NAMES)
            assert words and words != a, f"no label for {a}"
    assert "KNOCKBACK" in text_of(RENDERER.help())


def test_a_second_seat_card_is_drawn_turned_with_its_printed_south_on_top() -> None:
    b1 = card("Turned", edges=((1, 2), (3, 4), (5, 6), (7, 8)))
    s = battle({"B1": b1}, {"A1": (0, 0), "B1": (0, 1)})
    view = s.observe(0)
    b = next(c for c in view["cards"] if c["label"] == "B1")
    top, _, mid, _, bottom = (t.plain for t in _box(b, False, False))
    assert "5/6" in top and "1/2" in bottom  # printed south faces board north
    assert mid.startswith("3/4") and mid.endswith("7/8")  # printed east now on the west side


def test_exhausted_cards_active_card_and_targets_are_marked() -> None:
    s = battle(
        {"A1": card("Mover", actions=("move_or_punch",))},
        {"A1": (0, 0), "B1": (1, 0), "B2": (0, 1), "A2": (-1, -1)},
        exhausted=["B2"],
    )
    play(s, "activate:A1")
    view = s.observe(0)
    board = text_of(grid(view))
    assert "exhaust" in board and "rested" in board
    assert "+" in board  # the free cells A1 may step to
    labels = {a: label(a, view) for a in view["legal"]}
    assert labels["punch:E"].startswith("Punch P3 (B1) to the east: attack 2, heart 2")
    assert "exhausted" in labels["punch:N"]
    assert labels["move:S"] == "Move south to (0, -1)"
    assert labels["move:W"] == "Move west to (-1, 0)"


def test_draft_hand_is_shown_to_its_holder_only() -> None:
    s = G.new_state({"lineup": "draft2"}, 1)
    assert isinstance(s, KnockbackState)
    mine = text_of(RENDERER.hand(s.observe(0), NAMES, 0))
    for i in s.hands[0]:
        assert s.cards[i].name in mine
    assert "keep" in RENDERER.action_label("keep:0", s.observe(0), NAMES).lower()
