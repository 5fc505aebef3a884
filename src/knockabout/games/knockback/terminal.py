"""KNOCKBACK in the terminal: the grid as boxes with every edge's attack/heart, the
score token, cards still in hand, and plain-words labels for every action.

The renderer reads a :class:`~knockabout.games.knockback.view.KnockbackView` by its
fields. Each card is drawn as it lies on the board (the second player's cards turned
180°), its edges written ``attack/heart`` on their side of the box, north up; the
card's name has a row of its own, so names never touch the edge numbers, and cells
are a space apart. Cells the pending decision can reach are marked: ``+`` where a card
may be placed or moved, and a red frame around a card that may be punched.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from knockabout.core.terminal import PROMPT
from knockabout.core.view import View
from knockabout.games.knockback.cards import CardFace
from knockabout.games.knockback.guide import DIRS, SYMBOL, label
from knockabout.games.knockback.guide import active_card as _active
from knockabout.games.knockback.guide import cards_of as _cards
from knockabout.games.knockback.guide import cells_of as _at
from knockabout.games.knockback.guide import name_of as _name
from knockabout.games.knockback.view import CardView, KnockbackView

W = 17
"""Cell width in characters (a card box, borders included): the middle row holds the west
edge, a space, ``exhausted``, a space and the east edge (15 ran them together)."""
GAP = " "
"""Between two cells of a row, so neighbouring edge numbers never run together."""
SEAT_STYLE = ("cyan", "magenta")


def _knockback(view: View) -> KnockbackView:
    if not isinstance(view, KnockbackView):
        raise TypeError(f"the KNOCKBACK renderer draws a KnockbackView, not {type(view).__name__}")
    return view


def _edge(c: CardView, d: str) -> str:
    e = c.board_edges.side(d)
    return f"{e.attack}/{e.heart}"


def _targets(view: KnockbackView) -> tuple[dict[tuple[int, int], str], set[str]]:
    """Cells marked for the pending decision (cell -> mark) and labels that may be punched."""
    cells: dict[tuple[int, int], str] = {}
    punch: set[str] = set()
    cards = _cards(view)
    a = _active(view)
    here = None if a is None or a.x is None or a.y is None else (a.x, a.y)
    by_cell = _at(view)
    for text in view.legal or ():
        parts = text.split(":")
        if parts[0] == "place" and len(parts) == 4:
            anchor = cards.get(parts[2])
            if anchor is not None and anchor.x is not None and anchor.y is not None:
                dx, dy = DIRS[parts[3]]
                cells[(anchor.x + dx, anchor.y + dy)] = "+"
        elif parts[0] == "place":
            cells[(0, 0)] = "+"
        elif parts[0] == "move" and here is not None:
            dx, dy = DIRS[parts[1]]
            cells[(here[0] + dx, here[1] + dy)] = "+"
        elif parts[0] == "punch" and here is not None:
            dx, dy = DIRS[parts[1]]
            t = by_cell.get((here[0] + dx, here[1] + dy))
            if t is not None:
                punch.add(t.label)
    return cells, punch


def _fit(name: str, width: int) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def _box(c: CardView, active: bool, target: bool) -> list[Text]:
    """The five rows of a card's box: north edge, label, name, west edge + status + east
    edge, south edge."""
    owner = c.owner
    tired = c.exhausted
    frame = "bold red" if target else ("bold yellow" if active else SEAT_STYLE[owner])
    inner = W - 2
    n, e, s, w = (_edge(c, d) for d in "NESW")
    top = Text("┌", frame).append(f" {n} ".center(inner, "─"), frame).append("┐", frame)
    head = Text("│", frame).append(f"{c.label}{' ▼' if owner else ' ▲'}".center(inner), SEAT_STYLE[owner])
    head.append("│", frame)
    name = Text("│", frame).append(_fit(c.card.name, inner).center(inner), ("dim " if tired else "") + "bold")
    name.append("│", frame)
    status = "exhausted" if tired else "rested"
    room = W - len(w) - len(e) - 2  # a space each side of the status, whatever the edges' widths
    mid = Text(w, frame).append(" " + _fit(status, room).center(room) + " ", "italic dim" if tired else "green")
    mid.append(e, frame)
    bottom = Text("└", frame).append(f" {s} ".center(inner, "─"), frame).append("┘", frame)
    return [top, head, name, mid, bottom]


ROWS = 5


def _empty(mark: str) -> list[Text]:
    if not mark:
        return [Text(" " * W) for _ in range(ROWS)]
    blank = Text("·" + " " * (W - 2) + "·", "green")
    return [blank, Text(" " * W), Text(mark.center(W), "bold green"), Text(" " * W), blank]


def grid(view: View) -> RenderableType:
    """The board as rows of boxes, north up, with x/y coordinates."""
    v = _knockback(view)
    spots = _at(v)
    cells, punch = _targets(v)
    if not spots and not cells:
        return Text("The grid is empty.", style="dim")
    xs = [p[0] for p in (*spots, *cells)]
    ys = [p[1] for p in (*spots, *cells)]
    act = v.activation.card if v.activation else None
    lines: list[Text] = []
    header = Text("     ")
    for x in range(min(xs), max(xs) + 1):
        header.append(GAP + f"x={x}".center(W), "dim")
    lines.append(header)
    for y in range(max(ys), min(ys) - 1, -1):
        rows = [Text(f"y={y:<3}" if i == ROWS // 2 else "     ", "dim") for i in range(ROWS)]
        for x in range(min(xs), max(xs) + 1):
            c = spots.get((x, y))
            box = _box(c, c.label == act, c.label in punch) if c else _empty(cells.get((x, y), ""))
            for i in range(ROWS):
                rows[i].append(GAP)
                rows[i].append_text(box[i])
        lines += rows
    return Group(*lines)


def _score(view: KnockbackView, names: Sequence[str]) -> Text:
    t = Text()
    t.append(f"Round {view.round}", "bold")
    t.append(f" · turn {view.turn}/{view.max_turns} · ")
    if view.scoring == "tug":
        where = "in the middle" if view.token is None else f"in front of {names[view.token]}"
        t.append(f"score token {where}")
    elif view.scoring == "best_of":
        t.append(f"best of {view.best_of}: {view.wins[0]}–{view.wins[1]}")
    else:
        t.append("speed round")
    t.append(f" · knockback: {view.knockback.replace('_', ' ')}", "dim")
    return t


def card_table(cards: Sequence[CardFace | CardView], title: str) -> RichTable:
    """Cards with their printed edges (attack/heart), symbols and ability text."""
    t = RichTable(title=title, box=None, pad_edge=False, title_justify="left", header_style="dim")
    for col in ("card", "N", "E", "S", "W", "actions", "ability"):
        t.add_column(col)
    for entry in cards:
        c = entry.card if isinstance(entry, CardView) else entry
        label = entry.label if isinstance(entry, CardView) else None
        e = c.edges
        t.add_row(
            c.name + (f" ({label})" if label else ""),
            *(f"{x.attack}/{x.heart}" for x in (e.north, e.east, e.south, e.west)),
            " → ".join(SYMBOL[s] for s in c.actions),
            c.text,
        )
    return t


class KnockbackRenderer:
    """The :class:`~knockabout.core.plugins.TerminalRenderer` of KNOCKBACK."""

    def board(self, view: View, names: Sequence[str], seat: int | None) -> RenderableType:
        v = _knockback(view)
        parts: list[RenderableType] = [_score(v, names)]
        if v.draft is not None:
            dr = v.draft
            parts.append(
                Text(
                    f"Draft: hands of {dr.hand_sizes[0]} and {dr.hand_sizes[1]}; "
                    f"kept {dr.kept_counts[0]} and {dr.kept_counts[1]}.",
                    style="bold",
                )
            )
            parts.append(card_table(dr.pool, "The cards in this draft"))
        else:
            parts.append(grid(v))
            for p in (0, 1):
                waiting = [c for c in v.cards if c.owner == p and c.status == "hand"]
                out = [c for c in v.cards if c.owner == p and c.status == "out"]
                line = Text(f"{names[p]}", style=f"bold {SEAT_STYLE[p]}")
                line.append(" (▲ faces north)" if p == 0 else " (▼ cards turned, facing south)", "dim")
                if waiting:
                    line.append(" · to place: " + ", ".join(f"{c.card.name} ({c.label})" for c in waiting))
                if out:
                    line.append(" · knocked out: " + ", ".join(c.card.name for c in out), "red")
                parts.append(line)
        act = v.activation
        if act is not None:
            syms = [SYMBOL[s] for s in act.symbols]
            syms[act.index] = f"[{syms[act.index]}]"
            parts.append(Text(f"{_name(v, act.card)} is active: " + " → ".join(syms), style=PROMPT))
        pun = v.punch
        if pun is not None:
            parts.append(
                Text(
                    f"{_name(v, pun.attacker)} punches the exhausted {_name(v, pun.target)} "
                    f"with attack {pun.attack}: choose the edge that takes it ({', '.join(pun.sides)}).",
                    style=PROMPT,
                )
            )
        d = v.decision
        if d is not None and seat is not None and d.player != seat:
            parts.append(Text(f"Waiting for {names[d.player]}…", style="dim"))
        return Group(*parts)

    def hand(self, view: View, names: Sequence[str], seat: int) -> RenderableType:
        v = _knockback(view)
        dr = v.draft
        if dr is not None and dr.hand is not None:
            parts: list[RenderableType] = [card_table(dr.hand, "Your draft hand (keep one)")]
            if dr.kept:
                parts.append(card_table(dr.kept, "Kept so far"))
            return Group(*parts)
        mine = [c for c in v.cards if c.owner == seat]
        if not mine:
            return Text("")
        return card_table(mine, "Your cards (printed edges attack/heart; yours face your opponent)")

    def action_label(self, text: str, view: View, names: Sequence[str]) -> str:
        return label(text, _knockback(view))

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
            ("your own", "a punch or shove that hits one of your own cards says so"),
        ):
            t.add_row(Text(k, style="bold"), v)
        return t


RENDERER = KnockbackRenderer()
