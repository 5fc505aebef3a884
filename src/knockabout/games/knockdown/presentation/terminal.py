"""Knockdown in the terminal: the arena, both fighters (wounds, tokens, skills, hands), the Attack Row,
what is pending, plain-words labels for every action, and the tower puzzle.

The renderer reads a :class:`~knockabout.games.knockdown.presentation.view.KnockdownView` by its fields.
Every numbered thing on the board is numbered the way the actions count it: the Attack Row's
slots ``[0]``..``[3]`` are ``attack:N`` and ``row:N``, your hand's cards ``[N]`` are ``dash:N``,
``card:N`` and ``pay:N+M``, your Special Attacks ``[N]`` are ``special:N`` and ``react:N`` — so
an action's tag (``[row:2]``) names what the board shows as ``[2]``. The menu's own numbers
(1, 2, 3...) are only positions in the list of legal actions. :meth:`KnockdownRenderer.help`
(shown on ``?``) explains this and every symbol.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from knockabout.core.terminal import board_with_prompt
from knockabout.core.view import View
from knockabout.games.knockdown.presentation.guide import label
from knockabout.games.knockdown.presentation.view import FighterView, KnockdownView

SYMBOL_PLAIN = {"punch": "P", "kick": "K", "block": "B", "dash": "D"}
FIGHTER_STYLE = ("bold white on red", "bold white on blue")
BURNING, DANGEROUS, CORRIDOR, FLOOR = "on dark_red", "on dark_orange3", "on dark_green", "on grey23"


def _knockdown(view: View) -> KnockdownView:
    if not isinstance(view, KnockdownView):
        raise TypeError(f"the Knockdown renderer draws a KnockdownView, not {type(view).__name__}")
    return view


def symbols(names: Sequence[str]) -> str:
    return "".join(SYMBOL_PLAIN.get(s, "?") for s in names) or "-"


def pool(heavy: int, light: int) -> str:
    return "■" * heavy + "□" * light or "·"


def card_line(name: str, view: KnockdownView) -> Text:
    """One card: ``[symbols] name ■□ range type K.O.`` (see the help legend)."""
    c = view.cards.get(name)
    t = Text()
    if c is None:
        return t.append(name, style="bold")
    t.append(f"[{symbols(c.symbols)}] ", style="bold cyan")
    t.append(name, style="bold")
    t.append(f" {pool(c.heavy, c.light)}", style="red")
    t.append(f" {c.range}", style="dim")
    if c.type and c.type != "strike":
        t.append(f" {c.type}", style="magenta")
    if c.ko:
        t.append(" K.O.", style="bold yellow")
    return t


def arena_grid(view: KnockdownView) -> Text:
    a = view.arena
    at = {(s.x, s.y): i for i, s in enumerate(a.spaces)}
    where = {f.space: f.seat for f in view.fighters}
    traps = {t.space for t in a.traps}
    candles = a.candles
    corridors = set(a.corridors)
    t = Text()
    t.append("   " + " ".join(f" {chr(ord('a') + x)} " for x in range(a.width)) + "\n", style="dim")
    for y in range(a.height):
        t.append(f"{y + 1:>2} ", style="dim")
        for x in range(a.width):
            i = at.get((x, y))
            if i is None:
                t.append("    ")
                continue
            bg = FLOOR
            if candles is not None and (x <= candles[0] or x >= candles[1]):
                bg = BURNING
            elif "dangerous" in a.spaces[i].tags:
                bg = DANGEROUS
            elif i in corridors:
                bg = CORRIDOR
            if i in where:
                seat = where[i]
                t.append(f" {view.fighters[seat].name[0]}{seat + 1} ", style=FIGHTER_STYLE[seat])
            elif i in traps:
                t.append(" ⚠  ", style=f"bold yellow {bg}")
            else:
                t.append(" ·  ", style=f"dim {bg}")
        t.append("\n")
    return t


def fighter_panel(f: FighterView, name: str, you: bool) -> RichTable:
    t = RichTable(box=None, show_header=False, pad_edge=False)
    head = Text(f"{name}{' (you)' if you else ''}: ", style="bold")
    head.append(f"{f.name} ({f.fighter_class})", style=FIGHTER_STYLE[f.seat])
    head.append("  " + "★" * f.victories, style="bold yellow")
    t.add_row(head)
    wounds = Text("wounds ")
    wounds.append("■" * f.heavy, style="bold red")
    wounds.append("□" * f.light, style="red")
    wounds.append(f"  ({f.heavy} heavy, {f.light} light)", style="dim")
    t.add_row(wounds)
    if f.tokens:
        t.add_row(Text("tokens " + ", ".join(f"{k} ×{v}" for k, v in f.tokens.items()), style="magenta"))
    skills = ", ".join(s.name for s in f.skills) or "none yet"
    hidden = f" (+{f.hidden_skills} face down)" if f.hidden_skills else ""
    t.add_row(Text(f"skills {skills}{hidden}", style="dim"))
    t.add_row(Text(f"hand {len(f.hand)}/{f.hand_limit}: " + (", ".join(f.hand) or "empty"), style="dim"))
    return t


def pending_line(view: KnockdownView, names: Sequence[str]) -> str:
    d = view.decision
    p = view.pending
    atk = view.attack
    if d is None:
        out = view.outcome
        if out is None:
            return ""
        return "Draw." if out.draw else f"{names[out.winners[0]]} wins the match!"
    kind = d.kind
    who = names[d.player] if d.player >= 0 else ""
    if kind == "tower_challenge":
        return f"KNOCKDOWN TEST! {who} must build a tower of {p.cubes} cubes in {p.seconds} seconds."
    if kind == "block" and atk:
        return f"{names[atk.by]}'s {atk.name} ({pool(atk.heavy, atk.light)}) hits {who}: Block or take it."
    if kind == "reaction":
        return f"{who} may react with {', '.join(p.reactions or ())}."
    if kind == "knockdown" and atk:
        return f"{who}'s {atk.name} has a K.O. effect: start a Knockdown Test?"
    if kind in ("skill_draft", "skill_face_up"):
        return f"Skill draft: {who} is choosing."
    if kind == "choose_card":
        return f"{who} chooses a card ({(p.purpose or '').replace('_', ' ')})."
    if kind == "turn":
        return f"{who}'s turn: action {view.actions_done + 1} of {view.actions_allowed}."
    return f"{who}: {d.prompt or kind}"


def _slot(i: int) -> str:
    return f"[{i}] "


def tower_challenge(ch: Mapping[str, Any]) -> RenderableType:
    """The tower puzzle in text: the field with each cube as ``id:place`` (heavy cubes on red);
    the person types the ids from place 1 upwards."""
    cols, rows = ch["grid"]
    cells: list[list[Text]] = [[Text("  ·   ", style="dim") for _ in range(cols)] for _ in range(rows)]
    for cube, (x, y) in zip(ch["cubes"], ch["layout"], strict=True):
        style = "bold white on dark_red" if cube["weight"] == "heavy" else "bold red"
        cells[y][x] = Text(f"{cube['id']}:{cube['place']:<2}", style=style) + Text(" ")
    field = Text("\n").join(Text("").join(row) for row in cells)
    n = len(ch["cubes"])
    head = Text(f"Build your tower: {n} cube(s). Each cube reads id:place. ", style="bold")
    head.append(f"Type the ids from place 1 (on the table) up to place {n}, separated by spaces.")
    return Panel(Text("\n").join([head, field, Text(str(ch.get("rule", "")), style="dim")]),
                 title="Knockdown Test: the tower", border_style="red")


LEGEND = """\
Knockdown: two actions a turn (Move, Attack with a card of the Attack Row, or a Combo of Special
Attacks and Dashes). Win two rounds to win the match (★ = a round won).

Numbers: type the menu number (1, 2, 3...) of an action, or its tag in brackets. In a tag the number
is what the board shows in brackets: [row:2] and [attack:2] take or play the Attack Row's [2];
[dash:1], [card:1] and [pay:0+1] use the cards [0], [1] of your hand; [special:0] and [react:0]
your Special Attack [0]. Board squares are named by column letter and row number (c2).

Cards, read like  [KD] <name> ■□ range 1 K.O.
  [KD]     the card's symbols, which pay for Special Attacks: P punch, K kick, B block, D dash
           ([-]: no symbol, e.g. a Contamination card)
  ■ □      the wounds it deals: ■ a heavy wound, □ a light wound (· none)
  range 1  how far it reaches (or: any range, projectile); then its type when it is not a
           plain strike (ability, reaction)
  K.O.     it may start a Knockdown Test
Fighters: ■ heavy and □ light wounds taken; tokens held; skills face up (+N face down).
Arena: M1 / B2 the fighters (initial, seat number); ⚠ a trap; red squares burn (Fading Menhir
candles), orange ones are dangerous, green ones have a Technical Corridor.
Knockdown Test: dice (3 dice must reach the wound total) or a tower built from your wound cubes
in 10 seconds (type the cube ids from place 1 up)."""


class KnockdownRenderer:
    def board(self, view: View, names: Sequence[str], seat: int | None) -> RenderableType:
        v = _knockdown(view)
        a = v.arena
        top = Text(f"Round {v.round} · turn {v.turn} · {a.name} ({a.rule.replace('_', ' ')})", style="bold")
        if a.candles:
            top.append(f" · candles at columns {chr(97 + a.candles[0])} and {chr(97 + a.candles[1])}", style="red")
        fighters = RichTable.grid(padding=(0, 4))
        fighters.add_row(*(fighter_panel(f, names[f.seat], f.seat == seat) for f in v.fighters))
        row = Text("Attack Row: ", style="bold")
        for i, name in enumerate(v.row):
            row.append(f"\n  {_slot(i)}")
            if name is None:
                row.append("(empty)", style="dim")
            else:
                row.append_text(card_line(name, v))
        row.append(f"\nDeck: {v.deck} cards", style="dim")
        if v.candles_in_deck:
            row.append(f" ({v.candles_in_deck} Candle cards inside)", style="dim")
        parts: list[RenderableType] = [top, arena_grid(v), fighters, row]
        return board_with_prompt(parts, pending_line(v, names))

    def hand(self, view: View, names: Sequence[str], seat: int) -> RenderableType:
        v = _knockdown(view)
        f = v.fighters[seat]
        t = Text("Your hand:", style="bold")
        if not f.hand:
            t.append(" empty", style="dim")
        for i, name in enumerate(f.hand):
            t.append(f"\n  {_slot(i)}")
            t.append_text(card_line(name, v))
        sheet = Text("\nYour Special Attacks:", style="bold")
        for i, sp in enumerate(f.sheet.specials):
            sheet.append(f"\n  {_slot(i)}{sp.text}")
        parts: list[RenderableType] = [t, sheet]
        owner = v.pending.owner
        if v.phase == "choose_card" and owner is not None and owner != seat:
            theirs = Text(f"{names[owner]}'s hand:", style="bold")
            for i, name in enumerate(v.fighters[owner].hand):
                theirs.append(f"\n  {_slot(i)}")
                theirs.append_text(card_line(name, v))
            parts.append(theirs)
        return Group(*parts)

    def challenge(self, ch: Mapping[str, Any]) -> RenderableType:
        return tower_challenge(ch)

    def action_label(self, text: str, view: View, names: Sequence[str]) -> str:
        return label(text, _knockdown(view), names)

    def help(self) -> RenderableType:
        return Text(LEGEND)


RENDERER = KnockdownRenderer()
