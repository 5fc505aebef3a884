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
    for name in view.row:
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


def _board_text(view: object, seat: int) -> str:
    r = get_renderer("knockdown")
    console = Console(record=True, width=140)
    console.print(r.board(view, ["Ann", "Bo"], seat))  # type: ignore[arg-type]
    console.print(r.hand(view, ["Ann", "Bo"], seat))  # type: ignore[arg-type]
    return console.export_text()


def test_the_number_in_an_action_tag_is_the_number_the_board_shows() -> None:
    """Issue 17: "3. Wyrdness" on the board was [row:2] in the menu. Now the board shows
    the slot an action names: [row:2] takes the card shown as [2]."""
    import re

    r = get_renderer("knockdown")
    checked: set[str] = set()
    for cfg in ({}, {"boxes": ["nemesis"]}, {"boxes": ["tainted_grail"]}):
        s = GAME.new_state(cfg, 5)
        rng = Rng(5)
        for _ in range(300):
            d = s.to_act()
            if d is None:
                break
            view = s.observe(d.player)
            shown = _board_text(view, d.player)
            for a in s.legal_actions():
                head, _, arg = a.text.partition(":")
                if head not in ("row", "attack", "dash", "card", "special") or not arg.isdigit():
                    continue
                i = int(arg)
                if head in ("row", "attack"):
                    name = shows = view.row[i]
                elif head == "special":
                    name, shows = view.fighters[d.player].specials[i], view.fighters[d.player].sheet.specials[i].text
                else:
                    owner = d.player if view.pending.owner is None else view.pending.owner
                    name = shows = view.fighters[owner].hand[i]
                assert name and shows
                assert name in r.action_label(a.text, view, ["Ann", "Bo"]), a.text
                assert re.search(rf"\[{i}\] (\[[A-Z-]+\] )?{re.escape(shows)}", shown), a.text
                checked.add(head)
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
    assert {"row", "attack", "special"} <= checked


def test_the_help_legend_explains_every_symbol_the_board_uses() -> None:
    console = Console(record=True, width=120)
    console.print(get_renderer("knockdown").help())
    legend = console.export_text()
    for symbol in ("[KD]", "P punch", "K kick", "B block", "D dash", "■", "□", "★", "⚠", "K.O.", "[row:2]", "[2]",
                   "[dash:1]", "[special:0]", "menu number"):
        assert symbol in legend, symbol


def test_the_renderer_draws_only_knockdown_views() -> None:
    import pytest

    from knockabout.games.nakmuay import GAME as NAK_MUAY

    other = NAK_MUAY.new_state({"players": 2}, 1).observe(0)
    with pytest.raises(TypeError, match="draws a KnockdownView"):
        get_renderer("knockdown").board(other, ["Ann", "Bo"], 0)
