"""Nak Muay Knockout in the terminal: players, piles, direction, your hand, labels."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from knockabout.games.nakmuay import cards as C

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


def next_active(view: dict[str, Any], seat: int) -> int:
    n = int(view["players"])
    step = 1 if view["direction"] == "clockwise" else -1
    q = (seat + step) % n
    while not view["active"][q]:
        q = (q + step) % n
    return q


def _pending_line(view: dict[str, Any], names: Sequence[str]) -> str:
    p = view.get("pending") or {}
    if "value" in p:
        return f"{names[p['attacker']]} attacks {names[p['target']]} with Attack +{p['value']}: Dodge or take it."
    if p.get("countdown"):
        return f"COUNTDOWN! {names[p['target']]} must answer {names[p['attacker']]}'s Countdown or be counted out."
    if p.get("ko"):
        return f"{names[p['drawer']]} drew a KO!"
    if "scout" in p:
        return f"{names[p['scout']]} is scouting ({p['count']} card(s) still to place)."
    if "steal" in p:
        return f"{names[p['thief']]} is choosing whom to clinch ({p['steal']})."
    if "named" in p:
        named = ", ".join(TITLE.get(c, c) for c in p["named"]) or "nothing yet"
        return f"{names[p['thief']]} is questioning {names[p['target']]} (already named: {named})."
    return ""


class NakMuayRenderer:
    def board(self, view: dict[str, Any], names: Sequence[str], seat: int | None) -> RenderableType:
        d = view.get("decision") or {}
        t = RichTable(box=None, pad_edge=False, show_header=True, header_style="dim")
        t.add_column("")
        t.add_column("fighter")
        t.add_column("cards", justify="right")
        t.add_column("")
        no = view.get("no_answers") or {}
        for i in range(int(view["players"])):
            mark = "▶" if d.get("player") == i else ("•" if view["current"] == i else "")
            name = names[i] + (" (you)" if i == seat else "")
            if not view["active"][i]:
                status = Text("out", style="red")
            elif i == view["current"]:
                status = Text("turn", style="bold")
            else:
                status = Text("")
            if no.get(str(i)):
                status.append("  said no to: " + ", ".join(TITLE.get(c, c) for c in no[str(i)]), style="dim")
            style = "bold" if d.get("player") == i else ("dim" if not view["active"][i] else "")
            t.add_row(mark, Text(name, style=style), str(view["hand_sizes"][i]), status)
        arrow = "↻ clockwise" if view["direction"] == "clockwise" else "↺ counterclockwise"
        piles = Text()
        piles.append(f"Draw pile: {view['draw_pile']} cards", style="bold")
        piles.append(f" ({view['ko_in_pile']} KO inside)   ")
        piles.append("Discard: ", style="bold")
        if view["discard"]:
            count = len(view["discard"])
            piles.append(f"{count} card{'' if count == 1 else 's'}, top ")
            piles.append_text(card(view["discard"][-1]))
        else:
            piles.append("empty")
        piles.append(f"   Direction: {arrow}   Turn {view['turn']}")
        parts: list[RenderableType] = [t, piles]
        line = _pending_line(view, names)
        if line:
            parts.append(Text(line, style="bold yellow"))
        return Group(*parts)

    def hand(self, view: dict[str, Any], names: Sequence[str], seat: int) -> RenderableType:
        hand = view.get("hand") or []
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
        pend = view.get("pending") or {}
        if pend.get("seen"):
            seen = Text("You see (top first): ")
            for c in pend["seen"]:
                seen.append_text(card(c))
                seen.append(" ")
            parts.append(seen)
        known = view.get("known_pile") or []
        if known:
            parts.append(
                Text(
                    "You know in the pile: "
                    + ", ".join(f"{TITLE.get(k['card'], k['card'])} at {_depth(k['depth'])}" for k in known),
                    style="dim",
                )
            )
        return Group(*parts)

    def action_label(self, text: str, view: dict[str, Any], names: Sequence[str]) -> str:
        return label(text, view, names)

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


def label(text: str, view: dict[str, Any], names: Sequence[str]) -> str:
    """Plain words for one action text, given the deciding seat's view."""
    kind = (view.get("decision") or {}).get("kind", "")
    seat = view.get("seat")
    head, _, arg = text.partition(":")
    pend = view.get("pending") or {}
    if text == "draw":
        return "Draw a card (no action)"
    if head == "attack":
        target = names[next_active(view, int(seat))] if seat is not None else "the next player"
        return f"Attack +{arg} on {target}"
    if text == "countdown":
        target = names[next_active(view, int(seat))] if seat is not None else "the next player"
        return f"10-Second Countdown on {target}"
    if text == "dodge":
        if kind == "action":
            return "Dodge: end your turn without drawing"
        return "Dodge it"
    if text == "scout":
        return "Scout the top 3 cards"
    if text == "sweep":
        return "Sweep: shuffle the draw pile"
    if head == "pair":
        return f"Clinch pair ({TITLE[arg].removeprefix('Clinch: ')} ×2): steal a random card"
    if head == "triple":
        holds = ", ".join(TITLE[h].removeprefix("Clinch: ") for h in arg.split("+"))
        return f"Clinch triple ({holds}): ask for a card"
    if head == "target":
        who = int(arg)
        return f"Clinch {names[who]} ({view['hand_sizes'][who]} cards)"
    if head == "name":
        return f"Ask for {TITLE[arg]}"
    if text == "take-random":
        return "Stop asking: take a random card"
    if text == "keep":
        return f"Keep the direction ({view['direction']})"
    if text == "reverse":
        other = "counterclockwise" if view["direction"] == "clockwise" else "clockwise"
        return f"Reverse the direction (to {other})"
    if text == "take":
        return f"Take the hit: draw {pend.get('value', '?')}"
    if text == "block":
        return "Block the Countdown" if kind == "countdown_response" else "Play Block on the KO"
    if head == "clinch":
        return f"Answer with {TITLE[arg]}"
    if text == "no-response":
        return "No answer (you are counted out)"
    if head == "hide":
        k = int(arg)
        if k == 0:
            return "Hide the KO on top"
        if k == int(view["draw_pile"]):
            return "Hide the KO at the bottom"
        return f"Hide the KO {k} down"
    if head == "scout-take":
        if arg == "none":
            return "Take nothing (all KO)"
        seen = pend.get("seen") or []
        i = int(arg)
        return f"Take {TITLE.get(seen[i], seen[i])}" if i < len(seen) else text
    if head == "order":
        seen = pend.get("seen") or []
        order = [int(x) for x in arg.split(",")]
        if all(i < len(seen) for i in order):
            return "Put back, top first: " + ", ".join(TITLE.get(seen[i], seen[i]) for i in order)
    return text


RENDERER = NakMuayRenderer()
