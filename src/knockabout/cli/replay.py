"""``knockabout replay FILE``: rebuild a recorded game and report it."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from knockabout.cli.errors import friendly_errors
from knockabout.core.replay import GameRecord
from knockabout.core.replay import replay as replay_record


def replay(
    path: Path = typer.Argument(..., help="a replay record (JSON) written by knockabout"),
) -> None:
    console = Console()
    with friendly_errors():
        record = GameRecord.load(path)
        state = replay_record(record)
    out = state.outcome()
    console.print(
        f"[bold]{record.game}[/] rules {record.rules_version}, seed {record.seed}, "
        f"{len(record.actions)} actions replayed exactly."
    )
    if out is None:
        d = state.to_act()
        console.print(f"Unfinished: player {d.player if d else '?'} to decide ({d.kind if d else ''}).")
    elif out.draw:
        console.print(f"Ended in a draw among players {list(out.winners)} ({out.reason}).")
    else:
        console.print(f"Player {out.winners[0]} won ({out.reason}).")
