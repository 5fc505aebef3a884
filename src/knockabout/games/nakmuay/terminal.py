"""Nak Muay Knockout in the terminal: players, piles, direction, your hand, labels.

The renderer reads a :class:`~knockabout.games.nakmuay.view.NakMuayView` by its fields.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from knockabout.core.terminal import board_with_prompt
from knockabout.core.view import View
from knockabout.games.nakmuay import cards as C
from knockabout.games.nakmuay.guide import label
from knockabout.games.nakmuay.view import NakMuayView

TITLE = dict(zip(C.NAMES, C.TITLES, strict=True))
KIND = C.KIND_BY_NAME

STYLE = {
    "ko": "bold white on red",
    "block": "bold white on blue",
    "attack+1": "black on dark_orange",
    "attack+2": "black on dark_orange",
    "attack+3": "black on dark_orange",
    "countdown": "bold white on magenta",
    "dodge": "black on green",
    "scout": "black on cyan",
    "sweep": "black on yellow",
}
HOLD_STYLE = "white on purple4"


def card(name: str) -> Text:
    return Text(f" {TITLE.get(name, name)} ", style=STYLE.get(name, HOLD_STYLE))


def _nak_muay(view: View) -> NakMuayView:
    if not isinstance(view, NakMuayView):
        raise TypeError(f"the Nak Muay renderer draws a NakMuayView, not {type(view).__name__}")
    return view


def _pending_line(view: NakMuayView, names: Sequence[str]) -> str:
    p = view.pending
    if p.value is not None and p.attacker is not None and p.target is not None:
        return f"{names[p.attacker]} attacks {names[p.target]} with Attack +{p.value}: Dodge or take it."
    if p.countdown and p.attacker is not None and p.target is not None:
        return f"COUNTDOWN! {names[p.target]} must answer {names[p.attacker]}'s Countdown or be counted out."
    if p.ko and p.drawer is not None:
        return f"{names[p.drawer]} drew a KO!"
    if p.scout is not None:
        left = "1 card" if p.count == 1 else f"{p.count} cards"
        return f"{names[p.scout]} is scouting ({left} still to place)."
    if p.steal is not None and p.thief is not None:
        return f"{names[p.thief]} is choosing whom to clinch ({p.steal})."
    if p.named is not None and p.thief is not None and p.target is not None:
        named = ", ".join(TITLE.get(c, c) for c in p.named) or "nothing yet"
        return f"{names[p.thief]} is questioning {names[p.target]} (already named: {named})."
    return ""


class NakMuayRenderer:
    """The :class:`~knockabout.core.plugins.TerminalRenderer` of Nak Muay Knockout."""

    def board(self, view: View, names: Sequence[str], seat: int | None) -> RenderableType:
        v = _nak_muay(view)
        decider = v.decision.player if v.decision else None
        t = RichTable(box=None, pad_edge=False, show_header=True, header_style="dim")
        t.add_column("")
        t.add_column("fighter")
        t.add_column("cards", justify="right")
        t.add_column("")
        no = v.no_answers
        for i in range(v.players):
            mark = "▶" if decider == i else ("•" if v.current == i else "")
            name = names[i] + (" (you)" if i == seat else "")
            if not v.active[i]:
                status = Text("out", style="red")
            elif i == v.current:
                status = Text("turn", style="bold")
            else:
                status = Text("")
            if no.get(str(i)):
                status.append("  said no to: " + ", ".join(TITLE.get(c, c) for c in no[str(i)]), style="dim")
            style = "bold" if decider == i else ("dim" if not v.active[i] else "")
            t.add_row(mark, Text(name, style=style), str(v.hand_sizes[i]), status)
        arrow = "↻ clockwise" if v.direction == "clockwise" else "↺ counterclockwise"
        piles = Text()
        piles.append(f"Draw pile: {v.draw_pile} cards", style="bold")
        piles.append(f" ({v.ko_in_pile} KO inside)   ")
        piles.append("Discard: ", style="bold")
        if v.discard:
            count = len(v.discard)
            piles.append(f"{count} card{'' if count == 1 else 's'}, top ")
            piles.append_text(card(v.discard[-1]))
        else:
            piles.append("empty")
        piles.append(f"   Direction: {arrow}   Turn {v.turn}")
        parts: list[RenderableType] = [t, piles]
        return board_with_prompt(parts, _pending_line(v, names))

    def hand(self, view: View, names: Sequence[str], seat: int) -> RenderableType:
        v = _nak_muay(view)
        hand = v.hand or ()
        line = Text("Your hand: ", style="bold")
        if not hand:
            line.append("no cards", style="dim")
        counts = Counter(hand)
        for name in sorted(counts, key=lambda c: KIND.get(c, 99)):
            line.append_text(card(name))
            if counts[name] > 1:
                line.append(f"×{counts[name]}", style="bold")
            line.append(" ")
        parts: list[RenderableType] = [line]
        if v.pending.seen:
            seen = Text("You see (top first): ")
            for c in v.pending.seen:
                seen.append_text(card(c))
                seen.append(" ")
            parts.append(seen)
        known = v.known_pile or ()
        if known:
            parts.append(
                Text(
                    "You know in the pile: "
                    + ", ".join(f"{TITLE.get(k.card, k.card)} at {_depth(k.depth)}" for k in known),
                    style="dim",
                )
            )
        return Group(*parts)

    def action_label(self, text: str, view: View, names: Sequence[str]) -> str:
        return label(text, _nak_muay(view), names)

    def help(self) -> RenderableType:
        t = RichTable(title="Nak Muay Knockout cards", box=None)
        t.add_column("card")
        t.add_column("what it does")
        for kind, name in enumerate(C.NAMES):
            if kind > C.PLUM:
                continue
            title = "Clinch (Plum, Collar Tie, Underhook, Overhook, Body Lock)" if kind == C.PLUM else TITLE[name]
            t.add_row(title, C.describe(kind))
        return t


def _depth(depth: int) -> str:
    return "the top" if depth == 0 else f"{depth} below the top"


RENDERER = NakMuayRenderer()
