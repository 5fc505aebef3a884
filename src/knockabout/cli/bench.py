"""``knockabout bench``: how fast each game runs through the protocol, and ISMCTS on it."""

from __future__ import annotations

import json
from collections.abc import Sequence

import typer
from rich.console import Console
from rich.table import Table

from knockabout.cli.errors import friendly_errors
from knockabout.compiled import build_summary
from knockabout.core.errors import ConfigError
from knockabout.core.registry import game_ids, get_game
from knockabout.sim.bench import bench_game


def bench(
    game: str | None = typer.Option(None, "--game", "-g", help="one game id (default: every registered game)"),
    seconds: float = typer.Option(2.0, "--seconds", min=0.1, help="seconds of random play (and of search) per game"),
    players: int | None = typer.Option(None, "--players", "-p", help="player count (default: the game's default)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of a table"),
    envs: bool = typer.Option(
        False, "--envs", help="measure the PettingZoo environment and the batched one against the raw protocol"
        " and Leduc (needs the rl extra: pip install knockabout\\[rl])"
    ),
    batch: int = typer.Option(256, "--batch", min=1, help="with --envs: games per batched step"),
) -> None:
    """Measure random-play steps/s, games/s, clone() µs and ISMCTS iterations/s."""
    console = Console(highlight=False)
    if envs:
        _bench_envs(console, game, seconds, players, as_json, batch)
        return
    with friendly_errors():
        ids = [get_game(game).id] if game else game_ids()
        if players is not None:
            for gid in ids:
                g = get_game(gid)
                if not g.min_players <= players <= g.max_players:
                    span = f"{g.min_players}-{g.max_players}"
                    raise ConfigError(f"{gid} is played by {span} players, not {players}")
        rows = []
        for gid in ids:
            with console.status(f"benchmarking {gid}…"):
                rows.append(bench_game(gid, seconds, players))
    if as_json:
        console.print_json(json.dumps([r.__dict__ for r in rows]))
        return
    build = rows[0].build if rows else "no build measured"
    # headers that fit 80 columns whole, one word a line where needed
    console.print(_table(
        f"knockabout bench (one process; {build})",
        ("players", "steps/s", "games/s", "clone\nµs", "determinize\nµs", "ISMCTS\nit/s", "hard\nms/move"),
        [(r.game, str(r.players), f"{r.steps_per_s:,.0f}", f"{r.games_per_s:,.0f}", f"{r.clone_us:.2f}",
          f"{r.determinize_us:.1f}", f"{r.ismcts_iters_per_s:,.0f}", f"{r.hard_ms_per_move:.0f}") for r in rows],
    ))


def _bench_envs(
    console: Console, game: str | None, seconds: float, players: int | None, as_json: bool, batch: int
) -> None:
    with friendly_errors():
        try:
            from knockabout.envs.bench import bench_env
        except ImportError as exc:
            raise ConfigError(f"--envs needs the research extras: pip install 'knockabout[rl]' ({exc})") from None
        ids = [get_game(game).id] if game else [g for g in game_ids() if get_game(g).encoder() is not None]
        rows = []
        for gid in ids:
            get_game(gid).check_players(players)
            with console.status(f"benchmarking the {gid} environment…"):
                rows.append(bench_env(gid, seconds, players, batch=batch))
    if as_json:
        console.print_json(json.dumps(
            [{**r.__dict__, "step_share": r.step_share, "build": build_summary()} for r in rows]
        ))
        return
    build = build_summary()
    # raw: the protocol; env step / last+step: PettingZoo's AEC loop without / with the
    # observation and mask; batched: VectorEnv, observations and masks included
    console.print(_table(
        f"knockabout bench --envs (random legal actions, agent steps/s; {build})",
        ("seats", "raw", "env\nstep", "last+\nstep", f"batched\n×{batch}", "Leduc\nlast+step", f"pgx Leduc\n×{batch}"),
        [(r.game, str(r.players), f"{r.raw_steps_per_s:,.0f}", f"{r.step_per_s:,.0f}", f"{r.last_step_per_s:,.0f}",
          f"{r.batched_per_s:,.0f}",
          "-" if r.leduc_last_step_per_s is None else f"{r.leduc_last_step_per_s:,.0f}",
          "-" if r.pgx_leduc_per_s is None else f"{r.pgx_leduc_per_s:,.0f}") for r in rows],
    ))


def _table(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> Table:
    """A results table that fits 80 columns: the game, then a right-aligned column per
    header (a header's lines stand one above the other; the column is as wide as the
    longest)."""
    t = Table(title=title, box=None, pad_edge=False, header_style="bold")
    t.add_column("game", no_wrap=True)
    for col in headers:
        t.add_column(col, justify="right", min_width=max(len(w) for w in col.split("\n")))
    for row in rows:
        t.add_row(*row)
    return t
