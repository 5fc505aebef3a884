"""How ``knockabout play`` draws High Card."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.text import Text

from highcard.view import HighCardView
from knockabout.core.view import View


def _view(view: View) -> HighCardView:
    assert isinstance(view, HighCardView)
    return view


class HighCardRenderer:
    def board(self, view: View, names: Sequence[str], seat: int | None) -> RenderableType:
        v = _view(view)
        score = " · ".join(f"{names[p]} {v.wins[p]}" for p in (0, 1))
        table = f"{names[v.leader]} led the {v.led}" if v.led is not None else f"{names[v.leader]} leads"
        return Text(f"High Card · round {v.round}/{v.rounds} · {score} · {table}")

    def hand(self, view: View, names: Sequence[str], seat: int) -> RenderableType:
        v = _view(view)
        return Text("Your cards: " + " ".join(f"[{c}]" for c in v.hand or ()), style="bold")

    def action_label(self, text: str, view: View, names: Sequence[str]) -> str:
        return f"Play the {text.partition(':')[2]}"

    def help(self) -> RenderableType:
        return Text("Cards 1-9. The higher card wins the round; a tie goes to the leader.")


RENDERER = HighCardRenderer()
