"""``knockabout sim``: many seeded bot games, win rates with intervals, ratings;
``knockabout report``: reopen saved results (and compare several)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from knockabout.cli.errors import fail, friendly_errors
from knockabout.cli.options import parse_options
from knockabout.core.registry import get_game
from knockabout.sim.report import RateLine, Summary, compare, summarize
from knockabout.sim.results import SimResults
from knockabout.sim.stats import Rating
from knockabout.sim.tournament import SimSpec, run, validate


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(line: RateLine) -> str:
    return f"{_pct(line.low)}–{_pct(line.high)}"


def _rate_text(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def _elo(r: Rating | None) -> str:
    if r is None:
        return ""
    if r.unbounded is not None:
        return "+∞" if r.unbounded == "above" else "−∞"
    return f"{r.elo:+.0f}"


def _elo_interval(r: Rating | None) -> str:
    """The interval, or why there is none: a clean sweep leaves the rating unbounded."""
    if r is None:
        return ""
    if r.unbounded is not None:
        return "unbounded"
    if r.anchor:
        return "anchor (0)"
    return f"{r.low:+.0f} … {r.high:+.0f}"


def render(summary: Summary, console: Console, title: str = "") -> None:
    """Print a summary as tables."""
    head = title or f"{summary.game}, {summary.players} players"
    console.print(
        f"[bold]{head}[/]: {summary.games} games, {summary.draws} draws, "
        f"length mean {summary.mean_length:.1f} / median {summary.median_length:g} {summary.length_unit}"
        + (f", {_rate_text(summary.games_per_second)} games/s" if summary.seconds > 0 else ""),
        highlight=False,
    )
    if len(summary.bots) > 1:
        t = Table(title="bots")
        for col in ("bot", "games", "win", "95% Wilson", "Elo (BT)", "Elo 95%", "ms/move"):
            t.add_column(col, justify="left" if col == "bot" else "right")
        for b in sorted(summary.bots, key=lambda b: -(b.rating.elo if b.rating else b.rate)):
            r = b.rating
            t.add_row(
                b.label,
                str(b.games),
                _pct(b.rate),
                _interval(b),
                _elo(r),
                _elo_interval(r),
                f"{b.ms_per_move:.2f}",
            )
        console.print(t)
        for b in summary.bots:
            r = b.rating
            if r is not None and r.unbounded is not None:
                console.print(
                    f"{b.label}: rating unbounded {r.unbounded}, {r.reason}: the games set no limit "
                    "to it (it needs a win and a loss against the others; play more games).",
                    style="dim", soft_wrap=True,
                )
    t = Table(title="seats" if len(summary.bots) > 1 else f"seats ({summary.bots[0].label if summary.bots else ''})")
    for col in ("seat", "games", "win rate", "95% Wilson"):
        t.add_column(col, justify="left" if col == "seat" else "right")
    for line in summary.seats:
        t.add_row(line.label, str(line.games), _pct(line.rate), _interval(line))
    console.print(t)
    if summary.first_mover:
        even = 1.0 / summary.players
        t = Table(title=f"order of play (even share {_pct(even)})")
        for col in ("position", "win rate", "95% Wilson", "edge"):
            t.add_column(col, justify="left" if col == "position" else "right")
        for line in summary.first_mover:
            t.add_row(line.label, _pct(line.rate), _interval(line), f"{100 * (line.rate - even):+.1f} pts")
        console.print(t)


def sim(
    game: str = typer.Argument(..., help="game id (see `knockabout games`)"),
    players: int | None = typer.Option(None, "--players", "-p", help="number of players (default: the game's minimum)"),
    games: int = typer.Option(1000, "--games", "-n", help="number of games (rounded up to whole paired deals)"),
    seed: int = typer.Option(1, "--seed", "-s", help="base seed; same seed, same results"),
    bots: str = typer.Option(
        "random", "--bots", "-b", help="comma-separated bot levels: one for all seats, or several for a tournament"
    ),
    workers: int = typer.Option(1, "--workers", "-w", help="processes to use (results do not depend on it)"),
    option: list[str] = typer.Option([], "--option", "-o", help="table option key=value (repeatable)"),
    out: Path | None = typer.Option(None, "--out", help="save results to FILE (.json or .csv)"),
    bootstrap: int = typer.Option(200, "--bootstrap", help="bootstrap resamples for rating intervals"),
) -> None:
    """Play many seeded bot games and report win rates, ratings and game length."""
    console = Console(highlight=False)
    with friendly_errors():
        g = get_game(game)
        n = g.min_players if players is None else players
        levels = tuple(x.strip() for x in bots.split(",") if x.strip())
        if workers < 1:
            raise fail(f"--workers must be at least 1, not {workers}")
        spec = SimSpec(game=g.id, players=n, games=games, seed=seed, bots=levels, config=parse_options(option))
        validate(spec)
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task(f"{g.id} ×{n}", total=None)

            def tick(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            results = run(spec, workers=workers, progress=tick)
        render(summarize(results, bootstrap=bootstrap), console)
        if out is not None:
            results.save(out)
            console.print(f"Results saved to {out}; reopen with: knockabout report {out}")


def report(
    files: list[Path] = typer.Argument(..., help="results saved by `knockabout sim --out` (JSON or CSV)"),
    bootstrap: int = typer.Option(200, "--bootstrap", help="bootstrap resamples for rating intervals"),
) -> None:
    """Reopen saved simulation results; with several files, compare their win rates."""
    console = Console(highlight=False)
    with friendly_errors():
        summaries = []
        for f in files:
            s = summarize(SimResults.load(f), bootstrap=bootstrap)
            render(s, console, title=f"{f}: {s.game}, {s.players} players")
            summaries.append(s)
        if len(summaries) > 1:
            t = Table(title="comparison (win rate, 95% Wilson)")
            t.add_column("bot / seat")
            for f in files:
                t.add_column(str(f), justify="right")
            t.add_column("change", justify="right")
            for line in compare(summaries):
                cells = [
                    "—" if r is None else f"{_pct(r.rate)} ({_interval(r)})" for r in line.rates
                ]
                first, last = line.rates[0], line.rates[-1]
                change = "" if first is None or last is None else f"{100 * (last.rate - first.rate):+.1f} pts"
                t.add_row(line.label, *cells, change)
            console.print(t)
