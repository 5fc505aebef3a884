"""The typed view of KNOCKBACK, its JSON Schema, and what the game declares around it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from knockabout.games.knockback import GAME
from knockabout.games.knockback.cards import CardFace
from knockabout.games.knockback.heuristic import HeuristicBot, rollout_value
from knockabout.games.knockback.terminal import RENDERER
from knockabout.games.knockback.view import BoardEdges, CardView
from tests.games.knockback.builders import battle, card, play

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "src/knockabout/games/knockback"


def test_card_faces_are_built_once_and_their_json_is_the_cards_summary() -> None:
    s = GAME.new_state({}, 1)
    a, b = s.observe(0), s.observe(1)
    assert all(x.card is y.card for x, y in zip(a.cards, b.cards, strict=True))
    for c in s.lab:
        assert isinstance(c.face, CardFace) and c.face.to_json() == c.summary
        assert c.summary["edges"]["north"] == {"attack": c.attack[0], "heart": c.heart[0]}


def test_board_edges_are_turned_for_the_second_seat() -> None:
    turned = card("Turned", edges=((1, 2), (3, 4), (5, 6), (7, 8)))
    s = battle({"A1": turned, "B1": turned}, {"A1": (0, 0), "B1": (0, 1)})
    cards = {c.label: c for c in s.observe(None).cards}
    a1, b1 = cards["A1"], cards["B1"]
    assert (a1.board_edges.N.attack, a1.board_edges.side("E").heart) == (1, 4)
    assert (b1.board_edges.N.attack, b1.board_edges.side("E").heart) == (5, 8)  # printed south is up
    assert (a1.rotation, b1.rotation) == (0, 180)
    assert (a1.x, a1.y, b1.x, b1.y) == (0, 0, 0, 1)
    with pytest.raises(ValueError, match="not a side"):
        b1.board_edges.side("up")
    assert isinstance(b1.board_edges, BoardEdges)


def test_cards_off_the_board_have_no_cell() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0)})
    cards = {c.label: c for c in s.observe(0).cards}
    assert cards["A2"].status == "out" and cards["A2"].x is None and cards["A2"].y is None
    assert "x" not in {k for k, v in s.observe(0).to_json()["cards"][1].items() if v is not None}
    fresh = GAME.new_state({}, 1).observe(0)
    assert all(c.status == "hand" and c.x is None for c in fresh.cards)


def test_a_punch_on_an_exhausted_card_shows_its_choosable_sides() -> None:
    s = battle({"A1": card("Hit", edges=((3, 2),) * 4)}, {"A1": (0, 0), "B1": (1, 0), "B2": (9, 9)}, exhausted=["B1"])
    play(s, "activate:A1", "punch:E")
    v = s.observe(0)
    assert v.phase == "punch_edge" and v.punch is not None and v.activation is not None
    assert (v.punch.attacker, v.punch.target, v.punch.dir, v.punch.attack) == ("A1", "B1", "E", 3)
    assert v.punch.sides == ("N", "E", "S", "W")
    assert v.legal == ("hit:N", "hit:E", "hit:S", "hit:W")
    assert s.observe(1).legal is None and s.observe(None).legal is None


def test_a_draft_view_shows_a_seat_its_own_hand_only() -> None:
    s = GAME.new_state({"lineup": "draft2"}, 3)
    mine, theirs, spectator = s.observe(0).draft, s.observe(1).draft, s.observe(None).draft
    assert mine is not None and theirs is not None and spectator is not None
    assert mine.hand is not None and [c.name for c in mine.hand] == [s.cards[i].name for i in s.hands[0]]
    assert theirs.hand is not None and [c.name for c in theirs.hand] == [s.cards[i].name for i in s.hands[1]]
    assert spectator.hand is None and spectator.kept is None and spectator.picked is None
    assert s.observe(0).cards == ()  # no line-up yet


# -- the game's declarations ------------------------------------------------------
def test_plugins_come_from_the_game_package() -> None:
    plugin = GAME.heuristic()
    assert plugin.bot is HeuristicBot and plugin.rollout_value is rollout_value
    assert GAME.terminal_renderer() is RENDERER
    assert GAME.web_renderer == "web/renderer.js" and (PACKAGE / GAME.web_renderer).exists()


def test_the_old_homes_of_the_heuristic_and_the_terminal_renderer_are_gone() -> None:
    assert not (ROOT / "src/knockabout/bots/heuristic/knockback.py").exists()
    assert not (ROOT / "src/knockabout/cli/render/knockback.py").exists()


def test_no_generic_layer_reads_knockback_views_by_key() -> None:
    for path in (PACKAGE / "terminal.py", PACKAGE / "heuristic.py"):
        text = path.read_text()
        assert not re.search(r"view\[\"|\.get\(\"", text), path.name


def test_no_file_of_the_game_package_is_over_600_lines() -> None:
    for path in PACKAGE.rglob("*.py"):
        assert len(path.read_text().splitlines()) <= 600, path.name


def test_view_parts_of_equal_positions_are_shared() -> None:
    s = battle(board={"A1": (0, 0), "B1": (1, 0)})
    a, b = s.observe(0), s.clone().observe(1)
    assert all(x is y for x, y in zip(a.cards, b.cards, strict=True))
    assert isinstance(a.cards[0], CardView)
