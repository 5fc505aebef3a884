"""``knockabout games``: what can be played, and every option with its default and values.

Everything printed comes from the game objects: the options from each game's config
schema (``describe()["options"]``: defaults, descriptions, allowed values and ranges)
and the values of free-text options from ``describe()["choices"]`` (packs, fighters…).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import typer
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from knockabout.bots.levels import levels_for
from knockabout.cli.errors import friendly_errors
from knockabout.core.protocol import Game
from knockabout.core.registry import all_games, get_game


def typed(value: Any) -> str:
    """A value as it is typed after ``-o key=``: lists with commas, numbers plainly."""
    if isinstance(value, list | tuple):
        return ",".join(typed(v) for v in value) if value else "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def allowed(prop: Mapping[str, Any], choices: list[str] | None) -> str:
    """The values an option takes, in words (empty when the schema says nothing more)."""
    enum = prop.get("enum") or (prop.get("items") or {}).get("enum")
    values = enum or choices
    if values:
        many = "each one of" if prop.get("type") == "array" else "one of"
        return f"{many}: {', '.join(str(v) for v in values)}"
    low = prop.get("minimum", prop.get("exclusiveMinimum"))
    high = prop.get("maximum", prop.get("exclusiveMaximum"))
    if low is not None and high is not None:
        if "exclusiveMinimum" in prop:
            return f"more than {typed(low)}, up to {typed(high)}"
        return f"{typed(low)} to {typed(high)}"
    return ""


def options_table(g: Game[Any]) -> Table:
    d = g.describe()
    schema = d.get("options", {})
    choices: Mapping[str, list[str]] = d.get("choices", {})
    t = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
    t.add_column("option", style="bold", no_wrap=True)
    t.add_column("default", style="cyan", overflow="fold")
    t.add_column("what it is", ratio=1)
    for name, prop in schema.get("properties", {}).items():
        what = Text(str(prop.get("description", "")))
        values = allowed(prop, choices.get(name))
        if values:
            what.append(f"\n{values}", style="dim")
        t.add_row(name, typed(prop.get("default", "")), what)
    return t


def game_panel(g: Game[Any]) -> Panel:
    players = str(g.min_players) if g.min_players == g.max_players else f"{g.min_players}-{g.max_players}"
    title = f"[bold cyan]{g.id}[/] — {g.name}"
    subtitle = f"{players} players · rules {g.rules_version} · bots: {', '.join(levels_for(g.id))}"
    return Panel(Group(options_table(g)), title=title, title_align="left", subtitle=subtitle,
                 subtitle_align="left")


def games(
    game: str | None = typer.Argument(None, help="show only this game (default: all of them)"),
) -> None:
    console = Console(highlight=False)
    with friendly_errors():
        shown = [get_game(game)] if game else list(all_games())
    for g in shown:
        console.print(game_panel(g))
    first = shown[0]
    props: dict[str, dict[str, Any]] = first.describe().get("options", {}).get("properties", {})
    name, prop = next(iter(props.items()), ("key", {"default": "value"}))
    console.print(
        "Set an option with -o key=value (a list with commas: -o key=a,b), e.g. "
        f"knockabout play {first.id} -o {name}={typed(prop.get('default', 'value'))}",
        style="dim", soft_wrap=True,
    )
