"""The terminal renderer: the grid with readable edges, labels for every action."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rich.console import Console

from knockabout.core import Rng, get_game
from knockabout.core.bot import SeatView
from knockabout.games.knockback.actions import LABELS
from knockabout.games.knockback.state import KnockbackState
from knockabout.games.knockback.terminal import RENDERER, _box, grid, label
from knockabout.games.knockback.view import KnockbackView
from tests.games.knockback.builders import battle, card, play

G = get_game("knockback")
NAMES = ["Ann", "Bo"]


def text_of(renderable: Any) -> str:
    console = Console(width=160, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def _views(cfg: dict[str, Any], seed: int) -> list[tuple[KnockbackView, int]]:
    s = G.new_state(cfg, seed)
    rng = Rng(seed)
    out = []
    for step in range(400):
        d = s.to_act()
        if d is None:
            break
        if step % 8 == 0:
            view = s.observe(d.player)
            assert isinstance(view, KnockbackView)
            out.append((view, d.player))
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    return out


@pytest.mark.parametrize("cfg", [{}, {"lineup": "draft4"}, {"scoring": "best_of"}, {"knockback": "whole_line"}])
def test_every_view_renders_and_every_legal_action_gets_plain_words(cfg: dict[str, Any]) -> None:
    for view, seat in _views(cfg, 3):
        board = text_of(RENDERER.board(view, NAMES, seat))
        text_of(RENDERER.hand(view, NAMES, seat))
        assert "Round" in board
        for c in view.cards:
            if c.status == "board":
                assert c.label in board
                n = c.board_edges.N
                assert f"{n.attack}/{n.heart}" in board
        for a in view.legal or ():
            words = RENDERER.action_label(a, view, NAMES)
            assert words and words != a, f"no label for {a}"
    assert "KNOCKBACK" in text_of(RENDERER.help())


def test_a_second_seat_card_is_drawn_turned_with_its_printed_south_on_top() -> None:
    b1 = card("Turned", edges=((1, 2), (3, 4), (5, 6), (7, 8)))
    s = battle({"B1": b1}, {"A1": (0, 0), "B1": (0, 1)})
    view = s.observe(0)
    assert isinstance(view, KnockbackView)
    b = next(c for c in view.cards if c.label == "B1")
    top, _, _, mid, bottom = (t.plain for t in _box(b, False, False))
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
    assert isinstance(view, KnockbackView)
    board = text_of(grid(view))
    assert "exhausted" in board and "rested" in board
    assert "+" in board  # the free cells A1 may step to
    labels = {a: label(a, view) for a in view.legal or ()}
    assert labels["punch:E"] == "Punch the rival's P3 (B1) to the east"
    assert "exhausted" in labels["punch:N"]
    # what the punch does is the guide's, worked out by the engine
    guide = G.guide()
    assert guide is not None
    said = {a.action: a.label for a in guide.advise(SeatView(s, 0), NAMES).actions}
    assert said["punch:E"] == "Punch the rival's P3 (B1) to the east: attack 2 does not beat heart 2, it holds"
    assert said["punch:N"].endswith("you choose the edge next")
    # a move names the cards it lands next to, which the player sees (the grid shows no coordinates)
    assert labels["move:S"] == "Move south, next to your P1 (A2)"
    assert labels["move:W"] == "Move west, next to your P1 (A2)"
    assert not any(re.search(r"\(-?\d+, -?\d+\)", text) for text in labels.values())


def test_a_move_names_every_card_it_lands_next_to_or_the_open() -> None:
    s = battle({"A1": card("Runner", actions=("move", "move"))}, {"A1": (0, 0), "A2": (1, 1), "B1": (2, 0)})
    play(s, "activate:A1")
    view = s.observe(0)
    assert isinstance(view, KnockbackView)
    labels = {a: label(a, view) for a in view.legal or ()}
    assert labels["move:E"] == "Move east, next to your P1 (A2) and the rival's P3 (B1)"
    assert labels["move:N"] == "Move north, next to your P1 (A2)"
    # a spectator reads whose card it is from the tags alone
    watched = s.observe(None)
    assert isinstance(watched, KnockbackView)
    assert label("move:E", watched) == "Move east, next to P1 (A2) and P3 (B1)"
    # a first step may leave every card behind when the second can come back
    s = battle({"A1": card("Runner", actions=("move", "move"))}, {"A1": (0, 0), "B1": (1, 0)})
    play(s, "activate:A1")
    view = s.observe(0)
    assert isinstance(view, KnockbackView)
    assert label("move:W", view) == "Move west, into the open"


def test_draft_hand_is_shown_to_its_holder_only() -> None:
    s = G.new_state({"lineup": "draft2"}, 1)
    assert isinstance(s, KnockbackState)
    mine = text_of(RENDERER.hand(s.observe(0), NAMES, 0))
    for i in s.hands[0]:
        assert s.cards[i].name in mine
    assert "keep" in RENDERER.action_label("keep:0", s.observe(0), NAMES).lower()


EDGE_NUMBERS = re.compile(r"\d/\d")


def test_names_and_edge_numbers_never_run_together_in_the_grid() -> None:
    # long names and two-sided neighbours: the row that used to read `3/2Dusk 3/33/3Knuck3/3`
    # (exhausted ones too: their middle row used to read `3/3exhausted3/3`)
    long = {lab: card(f"Duskwing Nightmoth {lab}", edges=((3, 3), (3, 2), (3, 3), (3, 3))) for lab in LABELS}
    s = battle(long, {"A1": (0, 0), "A2": (1, 0), "B1": (2, 0), "B2": (0, 1), "A3": (1, 1), "B3": (2, 1)},
               exhausted=["A2", "B2"])
    board = text_of(grid(s.observe(0)))
    assert board.count(" exhausted ") == 2 and board.count(" rested ") == 4
    numbers = list(EDGE_NUMBERS.finditer(board))
    assert len(numbers) == 6 * 4
    for m in numbers:
        before = board[m.start() - 1] if m.start() else " "
        after = board[m.end()] if m.end() < len(board) else " "
        assert not before.isalnum() and before != "/", f"{board[m.start() - 5 : m.end() + 5]!r}"
        assert not after.isalnum() and after != "/", f"{board[m.start() - 5 : m.end() + 5]!r}"
    # every name gets its own row, cut with an ellipsis when it is too long for the box
    assert "Duskwing Night…" in board
    for row in board.splitlines():
        for name_start in [i for i in range(len(row)) if row.startswith("Dusk", i)]:
            assert not EDGE_NUMBERS.search(row[name_start - 4 : name_start])


def test_punches_and_shoves_say_when_the_target_is_your_own_card() -> None:
    s = battle(
        {"A1": card("Shover", actions=("move", "punch"), effects=[{"op": "shove"}], kind="moving"),
         "A2": card("Brawl Boar")},
        {"A1": (0, 0), "A2": (0, 1), "B1": (1, 0), "B2": (5, 5)},
    )
    play(s, "activate:A1")
    view = s.observe(0)
    assert isinstance(view, KnockbackView)
    labels = {a: RENDERER.action_label(a, view, NAMES) for a in view.legal or ()}
    assert labels["move:N"] == "Move north, shoving your own Brawl Boar (A2)"
    assert labels["move:E"] == "Move east, shoving the rival's P3 (B1)"
    play(s, "skip")  # the move symbol; now the punch
    view = s.observe(0)
    assert isinstance(view, KnockbackView)
    labels = {a: RENDERER.action_label(a, view, NAMES) for a in view.legal or ()}
    assert labels["punch:N"].startswith("Punch your own Brawl Boar (A2) to the north")
    assert labels["punch:E"].startswith("Punch the rival's P3 (B1) to the east")
    # a spectator-side view has no "own" cards
    assert "your own" not in RENDERER.action_label("punch:N", s.observe(None), NAMES)


def test_the_renderer_refuses_another_games_view() -> None:
    nak = get_game("nak-muay").new_state({}, 1).observe(0)
    with pytest.raises(TypeError, match="draws a KnockbackView"):
        RENDERER.board(nak, NAMES, 0)
