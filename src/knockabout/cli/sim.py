"""``knockabout sim``: many seeded bot games, win rates with intervals, ratings (saved
results are reopened by ``knockabout report``, :mod:`knockabout.cli.report`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from knockabout.cli import runs
from knockabout.cli.errors import fail, friendly_errors
from knockabout.cli.options import parse_options
from knockabout.core.registry import get_game
from knockabout.sim.executor import make_executor
from knockabout.sim.report import RateLine, Summary, summarize
from knockabout.sim.stats import Rating
from knockabout.sim.tournament import SimSpec, Until, block_for, run, run_identity, validate


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
        "random", "--bots", "-b",
        help="comma-separated bot levels (random, easy, medium, hard; learned where the game ships a trained "
        "network, see `knockabout games`): one for all seats, or several for a tournament"
    ),
    workers: int | None = runs.WORKERS,
    backend: str = runs.BACKEND,
    address: str | None = runs.ADDRESS,
    option: list[str] = typer.Option([], "--option", "-o", help="table option key=value (repeatable)"),
    out: Path | None = typer.Option(None, "--out", help="save results to FILE (.json or .csv)"),
    bootstrap: int = typer.Option(200, "--bootstrap", help="bootstrap resamples for rating intervals"),
    until: float | None = runs.UNTIL_CI,
    max_games: int = typer.Option(20000, "--max-games", help="with --until-ci: stop after this many games anyway"),
    resume: Path | None = runs.RESUME,
    checkpoint: Path | None = runs.CHECKPOINT,
) -> None:
    """Play many seeded bot games and report win rates, ratings and game length."""
    console = Console(highlight=False)
    with friendly_errors():
        g = get_game(game)
        n = g.min_players if players is None else players
        levels = tuple(x.strip() for x in bots.split(",") if x.strip())
        width = runs.until_ci(until)
        stop = None if width is None else Until(width, max_games)
        if stop is not None and max_games < 1:
            raise fail(f"--max-games must be at least 1, not {max_games}")
        spec = SimSpec(game=g.id, players=n, games=games, seed=seed, bots=levels, config=parse_options(option))
        validate(spec)
        ex = make_executor(backend, workers, address)
        with ex:
            ck, keep = runs.open_checkpoint("sim", g.id, run_identity(spec, stop, block_for(spec, stop)),
                                            g.content_hash(), resume, checkpoint)
            label = f"{g.id} ×{n} ({ex.describe()})"
            bar = runs.progress_bar(console, label, "games", stop is not None)
            with runs.run_errors(console, ck, keep), bar as tick:
                results = run(spec, executor=ex, checkpoint=ck, until=stop, on_progress=tick)
        render(summarize(results, bootstrap=bootstrap), console)
        render_until(results.meta.get("until_ci"), console)
        if out is not None:
            results.save(out)
            console.print(f"Results saved to {out}; reopen with: knockabout report {out}", markup=False)


def render_until(info: dict[str, Any] | None, console: Console) -> None:
    """The sequential run's stopping line and its intervals (at the look's level)."""
    if not info:
        return
    state = "reached" if info["reached"] else "NOT reached (cap hit)"
    console.print(
        f"--until-ci ±{100 * info['width']:g} pts {state} at look {info['look']} "
        f"(alpha-spending: this look's intervals are at level {100 * (1 - info['alpha']):.3f}%, "
        "which keeps each stopped interval a valid 95% one)",
        highlight=False,
    )
    t = Table(title="sequential 95% intervals")
    for col in ("rate", "value", "interval", "±"):
        t.add_column(col, justify="left" if col == "rate" else "right")
    for label, rate, lo, hi in info["intervals"]:
        t.add_row(label, _pct(rate), f"{_pct(lo)}–{_pct(hi)}", f"{100 * (hi - lo) / 2:.1f}")
    console.print(t)
