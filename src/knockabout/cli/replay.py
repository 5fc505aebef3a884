"""``knockabout replay FILE``: rebuild a recorded game exactly and tell it turn by turn."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.rule import Rule

from knockabout.cli.errors import friendly_errors
from knockabout.cli.narration import Narrator, seat_names
from knockabout.core.errors import KnockaboutError, ReplayError
from knockabout.core.registry import get_game
from knockabout.core.replay import GameRecord
from knockabout.core.replay import replay as replay_record
from knockabout.sim.results import SimResults


def _load(path: Path) -> GameRecord:
    """The record in ``path``; saved sim results given by mistake are named as such."""
    try:
        return GameRecord.load(path)
    except ReplayError as not_a_record:
        try:
            SimResults.load(path)
        except KnockaboutError:
            raise not_a_record from None  # it says what is wrong with the record
        raise ReplayError(f"{path} holds saved sim results, not a game record: "
                          f"open it with knockabout report {path}") from None


def replay(
    path: Path = typer.Argument(..., help="a replay record (JSON) written by knockabout"),
    delay: float = typer.Option(0.0, "--delay", min=0.0, help="seconds to pause between lines"),
    public_only: bool = typer.Option(
        False, "--public-only", help="show only what a spectator sees (hide drawn cards)"
    ),
    summary: bool = typer.Option(False, "--summary", help="only say how the game ended, without the narration"),
) -> None:
    console = Console(highlight=False)
    with friendly_errors():
        record = _load(path)
        replay_record(record)  # checks versions, content and every step, naming the one that fails
        game = get_game(record.game)
        state = record.start(game)  # (its deal, or the arranged position it started from)
    n = state.num_players
    names = record.names if len(record.names) == n else seat_names(n)
    teller = Narrator(console, game, names, delay=delay, public_only=public_only)
    console.print(Rule(f"{game.name} — {n} players, seed {record.seed}, rules {record.rules_version}"))
    first = state.to_act()
    if not summary:
        teller.first(None if first is None else first.player)
    for text in record.actions:
        events = state.apply(text)
        if not summary:
            teller.events(events)
    console.print(Rule("result"))
    out = state.outcome()
    if out is None:
        d = state.to_act()
        who = names[d.player] if d is not None else "nobody"
        console.print(f"Unfinished: {who} to decide ({d.kind if d is not None else ''}).", markup=False)
    else:
        console.print(teller.result(out))
    console.print(f"{len(record.actions)} actions replayed exactly.", style="dim")
