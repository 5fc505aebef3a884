"""``knockabout games``: what can be played and with which options."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from knockabout.core.registry import all_games


def games() -> None:
    console = Console()
    table = Table(title="knockabout games")
    table.add_column("id", style="bold cyan")
    table.add_column("name")
    table.add_column("players")
    table.add_column("rules")
    table.add_column("options (default)")
    for g in all_games():
        opts = []
        for name, field in g.config_model.model_fields.items():
            opts.append(f"{name}={field.default!r}")
        players = (
            str(g.min_players)
            if g.min_players == g.max_players
            else f"{g.min_players}-{g.max_players}"
        )
        table.add_row(g.id, g.name, players, g.rules_version, ", ".join(opts))
    console.print(table)
