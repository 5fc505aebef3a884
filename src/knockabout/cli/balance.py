"""``knockabout balance``: the content balance matrix of KNOCKBACK packs or Knockdown fighters."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

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
from knockabout.cli.errors import fail, friendly_errors
from knockabout.core.errors import ConfigError

GAMES = ("knockback", "knockdown")


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
    game: str = typer.Argument(..., help="knockback (packs) or knockdown (fighters)"),
    bot: str = typer.Option("easy", "--bot", "-b", help="bot level on both sides: random, easy, medium, hard"),
    games: int = typer.Option(4, "--games", "-n", min=1, help="matches per ordered pairing (each seat order)"),
    seed: int = typer.Option(1, "--seed", help="base seed; the same seed and level give the same matches"),
    workers: int = typer.Option(1, "--workers", "-w", min=1, help="parallel processes"),
    scoring: str = typer.Option("tug", "--scoring", help="knockback only: tug, speed or best_of"),
    pack_files: list[Path] = typer.Option([], "--pack-file", help="knockback only: extra pack file or folder"),
    boxes: list[str] = typer.Option([], "--box", help="knockdown only: a box to include (default: all)"),
    merged: bool = typer.Option(False, "--merged", help="knockdown only: mix the boxes instead of one by one"),
    out: Path | None = typer.Option(None, "--out", "-o", help="also write the report (Markdown) to this file"),
) -> None:
    """Play every pack (or fighter) against every other, both seat orders, with the same bot
    level on both sides; print the win-rate matrix, each one's rate against the field with a
    95 % interval, and the first-player edge."""
    console = Console(highlight=False)
    if game not in GAMES:
        raise fail(f"balance runs for {' and '.join(GAMES)}, not {game!r}")
    with friendly_errors():
        check_level(bot)
        if game == "knockback":
            if boxes or merged:
                raise ConfigError("--box and --merged are Knockdown options")
            text = _knockback(console, bot, games, seed, workers, scoring, pack_files)
            console.print(Markdown(text))
            console.print()
        else:
            if pack_files or scoring != "tug":
                raise ConfigError("--scoring and --pack-file are KNOCKBACK options")
            text = _knockdown(console, bot, games, seed, workers, boxes, merged)
    if out is not None:
        out.write_text(text + "\n", encoding="utf-8")
        console.print(f"report written to {out}")


def _knockback(
    console: Console, bot: str, games: int, seed: int, workers: int, scoring: str, pack_files: list[Path]
) -> str:
    from knockabout.core.registry import get_game
    from knockabout.games.knockback import balance as kb
    from knockabout.games.knockback.content import available_packs

    files = [str(p) for p in pack_files]
    config = {"scoring": scoring, "pack_files": files}
    get_game("knockback").make_config(config)  # a bad scoring mode or pack file is one clear error
    packs = [p.id for p in available_packs(files)]
    with _progress(console) as progress:
        task = progress.add_task(f"KNOCKBACK, {bot} v {bot}", total=len(packs) * (len(packs) - 1))
        results = kb.run(packs, games, bot, config, seed, workers, on_done=_ticker(progress, task))
    return kb.report(packs, results)


def _knockdown(console: Console, bot: str, games: int, seed: int, workers: int, boxes: list[str], merged: bool) -> str:
    from knockabout.games.knockdown import balance as kd
    from knockabout.games.knockdown.content import builtin_boxes

    known = builtin_boxes()
    for b in boxes:
        if b not in known:
            raise ConfigError(f"unknown box {b!r}; choose from: {', '.join(known)}")
    parts = []
    for title, in_play, fighters in kd.groups(boxes or list(known), merged):
        with _progress(console) as progress:
            task = progress.add_task(f"{title}, {bot} v {bot}", total=len(fighters) * (len(fighters) - 1))
            results = kd.run(fighters, games, bot, in_play, seed, workers, on_done=_ticker(progress, task))
        parts.append(kd.report(title, fighters, results))
        console.print(Markdown(parts[-1]))  # each box as soon as it is done
        console.print()
    return "\n\n".join(parts)
