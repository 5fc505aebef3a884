"""Knockdown in the terminal: the arena, both fighters (wounds, tokens, skills, hands), the Attack Row,
what is pending, and plain-words labels for every action."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

SYMBOL = {"punch": "✊", "kick": "🦶", "block": "🛡", "dash": "»"}
SYMBOL_PLAIN = {"punch": "P", "kick": "K", "block": "B", "dash": "D"}
DIR_WORD = {"up": "up", "down": "down", "left": "left", "right": "right"}
FIGHTER_STYLE = ("bold white on red", "bold white on blue")


def symbols(names: Sequence[str]) -> str:
    return "".join(SYMBOL_PLAIN.get(s, "?") for s in names) or "-"


def pool(heavy: int, light: int) -> str:
    return "■" * heavy + "□" * light or "·"


def card_line(name: str, view: dict[str, Any]) -> Text:
    c = (view.get("cards") or {}).get(name, {})
    t = Text()
    t.append(f"[{symbols(c.get('symbols', []))}] ", style="bold cyan")
    t.append(name, style="bold")
    kind = c.get("type", "")
    t.append(f" {pool(int(c.get('heavy', 0)), int(c.get('light', 0)))}", style="red")
    t.append(f" {c.get('range', '')}", style="dim")
    if kind and kind != "strike":
        t.append(f" {kind}", style="magenta")
    if c.get("ko"):
        t.append(" K.O.", style="bold yellow")
    return t


def _space_at(view: dict[str, Any]) -> dict[tuple[int, int], int]:
    return {(s["x"], s["y"]): i for i, s in enumerate(view["arena"]["spaces"])}


def arena_grid(view: dict[str, Any]) -> Text:
    a = view["arena"]
    at = _space_at(view)
    where = {f["space"]: f["seat"] for f in view["fighters"]}
    traps = {t["space"] for t in a.get("traps", [])}
    candles = a.get("candles")
    t = Text()
    t.append("   " + " ".join(f" {chr(ord('a') + x)} " for x in range(a["width"])) + "\n", style="dim")
    for y in range(a["height"]):
        t.append(f"{y + 1:>2} ", style="dim")
        for x in range(a["width"]):
            i = at.get((x, y))
            if i is None:
                t.append("    ")
                continue
            tags = set(a["spaces"][i]["tags"])
            burning = candles is not None and (x <= candles[0] or x >= candles[1])
            bg = "on grey23"
            if burning:
                bg = "on dark_red"
            elif "dangerous" in tags:
                bg = "on dark_orange3"
            elif i in a.get("corridors", []):
                bg = "on dark_green"
            if i in where:
                seat = where[i]
                t.append(f" {view['fighters'][seat]['name'][0]}{seat + 1} ", style=FIGHTER_STYLE[seat])
            elif i in traps:
                t.append(" ⚠  ", style=f"bold yellow {bg}")
            else:
                t.append(" ·  ", style=f"dim {bg}")
        t.append("\n")
    return t


def fighter_panel(f: dict[str, Any], name: str, you: bool) -> RichTable:
    t = RichTable(box=None, show_header=False, pad_edge=False)
    head = Text(f"{name}{' (you)' if you else ''}: ", style="bold")
    head.append(f"{f['name']} ({f['class']})", style=FIGHTER_STYLE[f["seat"]])
    head.append("  " + "★" * f["victories"], style="bold yellow")
    t.add_row(head)
    wounds = Text("wounds ")
    wounds.append("■" * f["heavy"], style="bold red")
    wounds.append("□" * f["light"], style="red")
    wounds.append(f"  ({f['heavy']} heavy, {f['light']} light)", style="dim")
    t.add_row(wounds)
    if f["tokens"]:
        t.add_row(Text("tokens " + ", ".join(f"{k} ×{v}" for k, v in f["tokens"].items()), style="magenta"))
    skills = ", ".join(s["name"] for s in f["skills"]) or "none yet"
    hidden = f" (+{f['hidden_skills']} face down)" if f["hidden_skills"] else ""
    t.add_row(Text(f"skills {skills}{hidden}", style="dim"))
    t.add_row(Text(f"hand {len(f['hand'])}/{f['hand_limit']}: " + (", ".join(f["hand"]) or "empty"), style="dim"))
    return t


def pending_line(view: dict[str, Any], names: Sequence[str]) -> str:
    d = view.get("decision") or {}
    p = view.get("pending") or {}
    kind = d.get("kind", "")
    who = names[d["player"]] if "player" in d and d["player"] is not None and d["player"] >= 0 else ""
    atk = view.get("attack")
    if kind == "tower_challenge":
        return f"KNOCKDOWN TEST! {who} must build a tower of {p.get('cubes')} cubes in {p.get('seconds')} seconds."
    if kind == "block" and atk:
        return (f"{names[atk['by']]}'s {atk['name']} ({pool(atk['heavy'], atk['light'])}) hits {who}: "
                "Block or take it.")
    if kind == "reaction":
        return f"{who} may react with {', '.join(p.get('reactions', []))}."
    if kind == "knockdown" and atk:
        return f"{who}'s {atk['name']} has a K.O. effect: start a Knockdown Test?"
    if kind in ("skill_draft", "skill_face_up"):
        return f"Skill draft: {who} is choosing."
    if kind == "choose_card":
        return f"{who} chooses a card ({p.get('purpose', '').replace('_', ' ')})."
    if kind == "turn":
        return f"{who}'s turn: action {view['actions_done'] + 1} of {view['actions_allowed']}."
    if kind:
        return f"{who}: {d.get('prompt', kind)}"
    out = view.get("outcome") or {}
    if out:
        return "Draw." if out.get("draw") else f"{names[out['winners'][0]]} wins the match!"
    return ""


def tower_challenge(ch: dict[str, Any]) -> RenderableType:
    """The tower puzzle in text: the field with each cube as ``id`` and its place number
    (heavy cubes in red); the person types the ids from place 1 upwards."""
    cols, rows = ch["grid"]
    cells: list[list[Text]] = [[Text("  ·   ", style="dim") for _ in range(cols)] for _ in range(rows)]
    for cube, (x, y) in zip(ch["cubes"], ch["layouts"][0], strict=True):
        style = "bold white on dark_red" if cube["weight"] == "heavy" else "bold red"
        cells[y][x] = Text(f"{cube['id']}:{cube['place']:<2}", style=style) + Text(" ")
    field = Text("\n").join(Text("").join(row) for row in cells)
    n = len(ch["cubes"])
    head = Text(f"Build your tower: {n} cube(s). Each cube reads id:place. ", style="bold")
    head.append(f"Type the ids from place 1 (on the table) up to place {n}, separated by spaces.")
    return Panel(Text("\n").join([head, field, Text(ch.get("rule", ""), style="dim")]),
                 title="Knockdown Test: the tower", border_style="red")


class KnockdownRenderer:
    def board(self, view: dict[str, Any], names: Sequence[str], seat: int | None) -> RenderableType:
        a = view["arena"]
        top = Text(f"Round {view['round']} · turn {view['turn']} · {a['name']} ({a['rule'].replace('_', ' ')})",
                   style="bold")
        if a.get("candles"):
            top.append(f" · candles at columns {chr(97 + a['candles'][0])} and {chr(97 + a['candles'][1])}",
                       style="red")
        fighters = RichTable.grid(padding=(0, 4))
        fighters.add_row(*(fighter_panel(f, names[f["seat"]], f["seat"] == seat) for f in view["fighters"]))
        row = Text("Attack Row: ", style="bold")
        for i, name in enumerate(view["row"]):
            row.append(f"\n  {i + 1}. ")
            if name is None:
                row.append("(empty)", style="dim")
            else:
                row.append_text(card_line(name, view))
        row.append(f"\nDeck: {view['deck']} cards", style="dim")
        if view.get("candles_in_deck"):
            row.append(f" ({view['candles_in_deck']} Candle cards inside)", style="dim")
        parts: list[RenderableType] = [top, arena_grid(view), fighters, row]
        line = pending_line(view, names)
        if line:
            parts.append(Text(line, style="bold yellow"))
        return Group(*parts)

    def hand(self, view: dict[str, Any], names: Sequence[str], seat: int) -> RenderableType:
        f = view["fighters"][seat]
        t = Text("Your hand:", style="bold")
        if not f["hand"]:
            t.append(" empty", style="dim")
        for name in f["hand"]:
            t.append("\n  ")
            t.append_text(card_line(name, view))
        sheet = Text("\nYour Special Attacks:", style="bold")
        for sp in f["sheet"]["specials"]:
            sheet.append(f"\n  {sp['text']}")
        draft = view.get("draft") or {}
        parts: list[RenderableType] = [t, sheet]
        if view.get("phase") in ("skill_draft", "skill_face_up"):
            offered: list[dict[str, Any]] = draft.get("received") or draft.get("dealt") or []
            parts.append(Text("Skills: " + "; ".join(s["text"] for s in offered), style="cyan"))
        return Group(*parts)

    def challenge(self, ch: dict[str, Any]) -> RenderableType:
        return tower_challenge(ch)

    def action_label(self, text: str, view: dict[str, Any], names: Sequence[str]) -> str:
        return label(text, view, names)

    def help(self) -> RenderableType:
        return Text(
            "Knockdown: two actions a turn (Move, Attack from the Attack Row, Combo of Special Attacks and "
            "Dashes).\nSymbols: P punch, K kick, B block, D dash. Wounds: ■ heavy, □ light.\n"
            "A K.O. attack may start a Knockdown Test; win two rounds to win the match."
        )


def _hand_of(view: dict[str, Any], seat: int) -> list[str]:
    return list(view["fighters"][seat]["hand"])


def label(text: str, view: dict[str, Any], names: Sequence[str]) -> str:
    """Plain words for one action text, given the deciding seat's view."""
    seat = view.get("seat")
    d = view.get("decision") or {}
    me = int(d.get("player", seat if seat is not None else 0) or 0)
    head, _, arg = text.partition(":")
    p = view.get("pending") or {}
    spaces = view["arena"]["spaces"]
    if head == "move":
        return f"Move {DIR_WORD.get(arg, arg)}"
    if head == "attack":
        name = view["row"][int(arg)]
        return f"Attack with {name}" if name else text
    if head == "row":
        return f"Take {view['row'][int(arg)]}"
    if text == "combo":
        return "Combo (Special Attacks and Dashes)"
    if text == "combo:end":
        return "End the Combo"
    if head == "special":
        return f"Special Attack: {view['fighters'][me]['specials'][int(arg)]}"
    if head == "react":
        return "Let it happen" if arg == "none" else f"React: {view['fighters'][me]['specials'][int(arg)]}"
    if head == "dash":
        return f"Dash: discard {_hand_of(view, me)[int(arg)]}"
    if head == "pay":
        hand = _hand_of(view, me)
        return "Pay with " + " + ".join(hand[int(i)] for i in arg.split("+") if int(i) < len(hand))
    if head == "card":
        owner = int(p.get("owner", me))
        hand = _hand_of(view, owner)
        i = int(arg)
        name = hand[i] if i < len(hand) else arg
        verb = {"reveal": "Reveal", "pick_revealed": "Discard", "block_card": "Block with"}.get(
            str(p.get("purpose")), "Discard")
        return f"{verb} {name}"
    if head == "space":
        return f"Blink to {spaces[int(arg)]['label']}"
    if head == "corridor":
        sp = spaces[int(arg)]
        cost = "1 light wound" if "center" in sp["tags"] else "1 heavy wound"
        return f"Technical Corridor to {sp['label']} ({cost})"
    if text == "potion":
        return "Drink a Potion (discard 2 light wounds)"
    if text == "pass":
        return "Pass (nothing else is possible)"
    if text == "stop":
        return "Stop moving"
    if text == "done":
        return "Done"
    if head == "count":
        return f"Spend {arg} token(s)"
    if text == "block:none":
        return "Do not block"
    if text == "block:effect":
        return "Block the effect"
    if head == "block":
        kind, _, h = arg.partition(":")
        what = f"ignore {h} heavy wound(s) and what light wounds the rest allows"
        return f"Block wounds: {what}" if kind == "wounds" else f"Block twice: {what}, and the effect"
    if text == "ko:test":
        return "Start the Knockdown Test"
    if text == "ko:skip":
        return "No Knockdown Test"
    if text == "tower:pass":
        return "The tower stands (a live table checks it)"
    if text == "tower:fail":
        return "The tower fell"
    if head in ("skill", "faceup"):
        draft = view.get("draft") or {}
        if head == "faceup":
            kept = draft.get("kept", [])
            return f"Put {kept[int(arg)]['name']} face up" if int(arg) < len(kept) else text
        offered: list[dict[str, Any]] = draft.get("received") or draft.get("dealt") or []
        i = int(arg)
        return f"Keep {offered[i]['name']}" if i < len(offered) else text
    return text


RENDERER = KnockdownRenderer()
