"""``knockabout balance GAME``: the content balance matrix of any game with a balance plug-in
(KNOCKBACK's packs, Knockdown's fighters)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from knockabout.bots.levels import check_level
from knockabout.cli.errors import friendly_errors
from knockabout.cli.options import parse_options
from knockabout.core.registry import get_game
from knockabout.sim import balance as runner


def _progress(console: Console) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("pairings"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
    )


def _ticker(progress: Progress, task: TaskID) -> Callable[[object], None]:
    """Advance the bar by one pairing per finished pairing."""
    return lambda _result: progress.advance(task)


def balance(
    game: str = typer.Argument(..., help="a game with a balance plug-in: knockback (packs), knockdown (fighters)"),
    bot: str = typer.Option("easy", "--bot", "-b", help="bot level on both sides: random, easy, medium, hard"),
    games: int = typer.Option(4, "--games", "-n", min=1, help="matches per ordered pairing (each seat order)"),
    seed: int = typer.Option(1, "--seed", help="base seed; the same seed and level give the same matches"),
    workers: int = typer.Option(1, "--workers", "-w", min=1, help="parallel processes"),
    option: list[str] = typer.Option([], "--option", help="a balance option key=value (repeatable)"),
    scoring: str | None = typer.Option(None, "--scoring", help="knockback: tug, speed or best_of (--option scoring=)"),
    pack_files: list[Path] = typer.Option([], "--pack-file", help="knockback: an extra pack file or folder"),
    boxes: list[str] = typer.Option([], "--box", help="knockdown: a box to include (default: all)"),
    merged: bool = typer.Option(False, "--merged", help="knockdown: mix the boxes instead of one by one"),
    out: Path | None = typer.Option(None, "--out", "-o", help="also write the report (Markdown) to this file"),
) -> None:
    """Play every entrant (pack, fighter) against every other, both seat orders, with the same
    bot level on both sides; print the win-rate matrix, each one's rate against the field with
    a 95 % interval, the first-player edge, and the game's own tables. The options a game's
    run takes are its balance plug-in's (``--option key=value``; ``--scoring``, ``--pack-file``,
    ``--box`` and ``--merged`` are shorthands for the options of that name); the plug-in
    refuses any other."""
    console = Console(highlight=False)
    with friendly_errors():
        check_level(bot)
        g = get_game(game)
        options = _options(option, scoring, pack_files, boxes, merged)
        parts = []
        for group in runner.groups(g.id, options):
            pairings = len(group.entrants) * (len(group.entrants) - 1)
            with _progress(console) as progress:
                task = progress.add_task(f"{group.title or g.name}, {bot} v {bot}", total=pairings)
                results = runner.run_group(g.id, group, games, bot, seed, workers, on_done=_ticker(progress, task))
            parts.append(runner.report(g.id, group, results))
            console.print(Markdown(parts[-1]))  # each group as soon as it is done
            console.print()
    text = "\n\n".join(parts)
    if out is not None:
        out.write_text(text + "\n", encoding="utf-8")
        console.print(f"report written to {out}")


def _options(
    pairs: list[str], scoring: str | None, pack_files: list[Path], boxes: list[str], merged: bool
) -> dict[str, Any]:
    """The run's options: ``-o key=value`` pairs, plus the shorthand flags that were given."""
    options = parse_options(pairs)
    if scoring is not None:
        options["scoring"] = scoring
    if pack_files:
        options["pack_files"] = [*_listed(options.get("pack_files")), *(str(p) for p in pack_files)]
    if boxes:
        options["boxes"] = [*_listed(options.get("boxes")), *boxes]
    if merged:
        options["merged"] = True
    return options


def _listed(value: object) -> list[str]:
    """An option given as a list or as text with commas, as a list."""
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]
