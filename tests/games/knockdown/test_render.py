"""The terminal renderer draws every Knockdown view and labels every action in words."""

from __future__ import annotations

import io

from rich.console import Console

from knockabout.cli.render import get_renderer
from knockabout.core import Rng
from knockabout.games.knockdown import GAME


def test_every_view_renders_and_every_legal_action_gets_a_label() -> None:
    r = get_renderer("knockdown")
    console = Console(file=io.StringIO(), width=120)
    names = ["Ann", "Bo"]
    for cfg in ({}, {"boxes": ["nemesis"]}, {"boxes": ["siege_storm"], "knockdown_test": "tower"}):
        s = GAME.new_state(cfg, 3)
        rng = Rng(3)
        steps = 0
        while s.to_act() is not None and steps < 400:
            d = s.to_act()
            assert d is not None
            view = s.observe(d.player)
            console.print(r.board(view, names, d.player))
            console.print(r.hand(view, names, d.player))
            for a in s.legal_actions():
                text = r.action_label(a.text, view, names)
                assert text and (text != a.text), f"no words for {a.text}"
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
            steps += 1
        console.print(r.board(s.observe(None), names, None))


def test_the_arena_shows_both_fighters_and_the_row_names_its_cards() -> None:
    r = get_renderer("knockdown")
    s = GAME.new_state({"fighters": ["mistbearer", "maggot"]}, 1)
    view = s.observe(0)
    console = Console(record=True, width=120)
    console.print(r.board(view, ["Ann", "Bo"], 0))
    out = console.export_text()
    assert "M1" in out and "M2" in out
    for name in view["row"]:
        assert name in out


def test_the_log_names_spaces_by_their_board_coordinates() -> None:
    from tests.games.knockdown.helpers import arrange, fresh, play, ready

    s = ready(fresh(("mistbearer", "maggot")))
    arrange(s, at=((3, 1), (6, 1)))
    me = s.current
    events = play(s, "move:up")
    moved = next(e for e in events if e.type == "moved")
    assert moved.data["at"] == "d1"
    names = ["Ann", "Bo"]
    assert GAME.narrate(moved, names) == f"{names[me]} moves to d1."
