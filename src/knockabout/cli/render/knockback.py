"""KNOCKBACK in the terminal: the grid as boxes with every edge's attack/heart, the
score token, cards still in hand, and plain-words labels for every action.

Each card is drawn as it lies on the board (the second player's cards turned 180°),
its edges written ``attack/heart`` on their side of the box. North is up. Cells the
pending decision can reach are marked: ``+`` where a card may be placed or moved,
and a red frame around a card that may be punched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

W = 11  # cell width in characters
DIRS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
WORD = {"N": "north", "E": "east", "S": "south", "W": "west"}
SEAT_STYLE = ("cyan", "magenta")
SYMBOL = {"move": "MOVE", "punch": "PUNCH", "move_or_punch": "MOVE/PUNCH"}


def _cards(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["label"]: c for c in view.get("cards") or []}


def _name(view: dict[str, Any], label: str) -> str:
    c = _cards(view).get(label)
    return f"{c['card']['name']} ({label})" if c else label


def _edge(c: dict[str, Any], d: str) -> str:
    e = c["board_edges"][d]
    return f"{e['attack']}/{e['heart']}"


def _targets(view: dict[str, Any]) -> tuple[dict[tuple[int, int], str], set[str]]:
    """Cells marked for the pending decision (cell -> mark) and labels that may be punched."""
    cells: dict[tuple[int, int], str] = {}
    punch: set[str] = set()
    cards = _cards(view)
    legal = view.get("legal") or []
    act = view.get("activation")
    here = None
    if act:
        a = cards.get(act["card"])
        if a and "x" in a:
            here = (a["x"], a["y"])
    by_cell = {(c["x"], c["y"]): lab for lab, c in cards.items() if "x" in c}
    for text in legal:
        parts = text.split(":")
        if parts[0] == "place" and len(parts) == 1 + 3:
            anchor = cards.get(parts[2])
            if anchor and "x" in anchor:
                dx, dy = DIRS[parts[3]]
                cells[(anchor["x"] + dx, anchor["y"] + dy)] = "+"
        elif parts[0] == "place":
            cells[(0, 0)] = "+"
        elif parts[0] == "move" and here is not None:
            dx, dy = DIRS[parts[1]]
            cells[(here[0] + dx, here[1] + dy)] = "+"
        elif parts[0] == "punch" and here is not None:
            dx, dy = DIRS[parts[1]]
            lab = by_cell.get((here[0] + dx, here[1] + dy))
            if lab:
                punch.add(lab)
    return cells, punch


def _box(c: dict[str, Any], active: bool, target: bool) -> list[Text]:
    owner = int(c["owner"])
    tired = bool(c["exhausted"])
    frame = "bold red" if target else ("bold yellow" if active else SEAT_STYLE[owner])
    body = "dim" if tired else ""
    name = c["card"]["name"][:5]
    n, e, s, w = (_edge(c, d) for d in "NESW")
    top = Text("┌", frame).append(n.center(W - 2, "─"), frame).append("┐", frame)
    head = Text("│", frame).append(f"{c['label']}{' ▼' if owner else ' ▲'}".center(W - 2), SEAT_STYLE[owner]).append(
        "│", frame
    )
    mid = Text(w.ljust(3), frame).append(name.center(W - 6), body + " bold").append(e.rjust(3), frame)
    status = "exhaust" if tired else "rested"
    low = Text("│", frame).append(status.center(W - 2), "italic dim" if tired else "green").append("│", frame)
    bottom = Text("└", frame).append(s.center(W - 2, "─"), frame).append("┘", frame)
    return [top, head, mid, low, bottom]


def _empty(mark: str) -> list[Text]:
    if not mark:
        return [Text(" " * W) for _ in range(5)]
    blank = Text("·" + " " * (W - 2) + "·", "green")
    return [blank, Text(" " * W), Text(mark.center(W), "bold green"), Text(" " * W), blank]


def grid(view: dict[str, Any]) -> RenderableType:
    """The board as rows of boxes, north up, with x/y coordinates."""
    cards = [c for c in view.get("cards") or [] if c.get("status") == "board"]
    cells, punch = _targets(view)
    spots = {(c["x"], c["y"]): c for c in cards}
    if not spots and not cells:
        return Text("The grid is empty.", style="dim")
    xs = [p[0] for p in (*spots, *cells)]
    ys = [p[1] for p in (*spots, *cells)]
    act = (view.get("activation") or {}).get("card")
    lines: list[Text] = []
    header = Text("     ")
    for x in range(min(xs), max(xs) + 1):
        header.append(f"x={x}".center(W), "dim")
    lines.append(header)
    for y in range(max(ys), min(ys) - 1, -1):
        rows = [Text(f"y={y:<3}" if i == 2 else "     ", "dim") for i in range(5)]
        for x in range(min(xs), max(xs) + 1):
            c = spots.get((x, y))
            box = _box(c, c["label"] == act, c["label"] in punch) if c else _empty(cells.get((x, y), ""))
            for i in range(5):
                rows[i].append_text(box[i])
        lines += rows
    return Group(*lines)


def _score(view: dict[str, Any], names: Sequence[str]) -> Text:
    t = Text()
    mode = view["scoring"]
    t.append(f"Round {view['round']}", "bold")
    t.append(f" · turn {view['turn']}/{view['max_turns']} · ")
    if mode == "tug":
        token = view["token"]
        where = "in the middle" if token is None else f"in front of {names[int(token)]}"
        t.append(f"score token {where}")
    elif mode == "best_of":
        t.append(f"best of {view['best_of']}: {view['wins'][0]}–{view['wins'][1]}")
    else:
        t.append("speed round")
    t.append(f" · knockback: {view['knockback'].replace('_', ' ')}", "dim")
    return t


def card_table(cards: Sequence[dict[str, Any]], title: str) -> RichTable:
    """Cards with their printed edges (attack/heart), symbols and ability text."""
    t = RichTable(title=title, box=None, pad_edge=False, title_justify="left", header_style="dim")
    for col in ("card", "N", "E", "S", "W", "actions", "ability"):
        t.add_column(col)
    for entry in cards:
        c = entry.get("card", entry)
        label = entry.get("label")
        e = c["edges"]
        t.add_row(
            f"{c['name']}" + (f" ({label})" if label else ""),
            *(f"{e[s]['attack']}/{e[s]['heart']}" for s in ("north", "east", "south", "west")),
            " → ".join(SYMBOL[s] for s in c["actions"]),
            c["text"],
        )
    return t


class KnockbackRenderer:
    def board(self, view: dict[str, Any], names: Sequence[str], seat: int | None) -> RenderableType:
        parts: list[RenderableType] = [_score(view, names)]
        d = view.get("decision") or {}
        if view.get("phase") == "draft":
            dr = view["draft"]
            parts.append(
                Text(
                    f"Draft: hands of {dr['hand_sizes'][0]} and {dr['hand_sizes'][1]}; "
                    f"kept {dr['kept_counts'][0]} and {dr['kept_counts'][1]}.",
                    style="bold",
                )
            )
            parts.append(card_table(dr["pool"], "The cards in this draft"))
        else:
            parts.append(grid(view))
            for p in (0, 1):
                waiting = [c for c in view["cards"] if c["owner"] == p and c["status"] == "hand"]
                out = [c for c in view["cards"] if c["owner"] == p and c["status"] == "out"]
                line = Text(f"{names[p]}", style=f"bold {SEAT_STYLE[p]}")
                line.append(" (▲ faces north)" if p == 0 else " (▼ cards turned, facing south)", "dim")
                if waiting:
                    line.append(" · to place: " + ", ".join(f"{c['card']['name']} ({c['label']})" for c in waiting))
                if out:
                    line.append(" · knocked out: " + ", ".join(c["card"]["name"] for c in out), "red")
                parts.append(line)
        act = view.get("activation")
        if act:
            syms = [SYMBOL[s] for s in act["symbols"]]
            syms[act["index"]] = f"[{syms[act['index']]}]"
            parts.append(Text(f"{_name(view, act['card'])} is active: " + " → ".join(syms), style="bold yellow"))
        pun = view.get("punch")
        if pun:
            parts.append(
                Text(
                    f"{_name(view, pun['attacker'])} punches the exhausted {_name(view, pun['target'])} "
                    f"with attack {pun['attack']}: choose the edge that takes it ({', '.join(pun['sides'])}).",
                    style="bold yellow",
                )
            )
        if d and seat is not None and d.get("player") != seat:
            parts.append(Text(f"Waiting for {names[int(d['player'])]}…", style="dim"))
        return Group(*parts)

    def hand(self, view: dict[str, Any], names: Sequence[str], seat: int) -> RenderableType:
        dr = view.get("draft")
        if dr and "hand" in dr:
            parts: list[RenderableType] = [card_table(dr["hand"], "Your draft hand (keep one)")]
            if dr.get("kept"):
                parts.append(card_table(dr["kept"], "Kept so far"))
            return Group(*parts)
        mine = [c for c in view.get("cards") or [] if c["owner"] == seat]
        if not mine:
            return Text("")
        return card_table(mine, "Your cards (printed edges attack/heart; yours face your opponent)")

    def action_label(self, text: str, view: dict[str, Any], names: Sequence[str]) -> str:
        return label(text, view)

    def help(self) -> RenderableType:
        t = RichTable(title="KNOCKBACK 'til they croak", box=None, show_header=False)
        t.add_column("")
        t.add_column("")
        for k, v in (
            ("edges", "each side shows attack/heart; a punch KOs when attack > the target's facing heart"),
            ("exhausted", "an exhausted target may be hit on any free edge the attacker picks"),
            ("MOVE", "one step to an empty cell; end the activation next to some card"),
            ("PUNCH", "hit a neighbouring card, then knockback pushes it (and cards beyond) one cell"),
            ("rest", "all your exhausted cards become rested"),
            ("win", "a round ends when a player has no card on the grid"),
            ("+ / red", "cells you may use / cards you may punch"),
        ):
            t.add_row(Text(k, style="bold"), v)
        return t


def label(text: str, view: dict[str, Any]) -> str:
    """Plain words for one action text, given the deciding seat's view."""
    parts = text.split(":")
    head = parts[0]
    cards = _cards(view)
    if head == "keep":
        hand = (view.get("draft") or {}).get("hand") or []
        i = int(parts[1])
        return f"Keep {hand[i]['name']}" if i < len(hand) else text
    if head == "place" and len(parts) == 2:
        return f"Place {_name(view, parts[1])} at the centre (0, 0)"
    if head == "place":
        anchor = cards.get(parts[2])
        where = ""
        if anchor and "x" in anchor:
            dx, dy = DIRS[parts[3]]
            where = f" at ({anchor['x'] + dx}, {anchor['y'] + dy})"
        return f"Place {_name(view, parts[1])} {WORD[parts[3]]} of {_name(view, parts[2])}{where}"
    if head == "activate":
        c = cards.get(parts[1])
        syms = " → ".join(SYMBOL[s] for s in c["card"]["actions"]) if c else ""
        return f"Activate {_name(view, parts[1])}: {syms}"
    if text == "rest":
        return "Rest: your exhausted cards become rested"
    if text == "skip":
        return "Skip this symbol"
    act = view.get("activation") or {}
    a = cards.get(act.get("card", ""))
    if head == "move" and a is not None and "x" in a:
        dx, dy = DIRS[parts[1]]
        return f"Move {WORD[parts[1]]} to ({a['x'] + dx}, {a['y'] + dy})"
    if head == "punch" and a is not None and "x" in a:
        dx, dy = DIRS[parts[1]]
        spot = (a["x"] + dx, a["y"] + dy)
        t = next((c for c in cards.values() if "x" in c and (c["x"], c["y"]) == spot), None)
        if t is not None:
            back = {"N": "S", "S": "N", "E": "W", "W": "E"}[parts[1]]
            tired = " (exhausted)" if t["exhausted"] else f", heart {t['board_edges'][back]['heart']}"
            return (
                f"Punch {t['card']['name']} ({t['label']}) to the {WORD[parts[1]]}: "
                f"attack {a['board_edges'][parts[1]]['attack']}{tired}"
            )
    if head == "hit":
        pun = view.get("punch") or {}
        t = cards.get(pun.get("target", ""))
        if t is not None:
            return f"Hit its {WORD[parts[1]]} edge (heart {t['board_edges'][parts[1]]['heart']})"
    return text


RENDERER = KnockbackRenderer()
