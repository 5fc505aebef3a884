"""``knockabout demo``: bots play one game and the terminal narrates it turn by turn."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.console import Console
from rich.rule import Rule

from knockabout.bots.levels import make_bot
from knockabout.cli.errors import fail, friendly_errors
from knockabout.cli.options import parse_options
from knockabout.core.bot import SeatView
from knockabout.core.registry import get_game
from knockabout.core.replay import Match
from knockabout.core.rng import Rng, mix_seed


def demo(
    game: str = typer.Argument("nak-muay", help="game id (see `knockabout games`)"),
    players: int = typer.Option(4, "--players", "-p", min=1, help="number of players"),
    seed: int = typer.Option(1, "--seed", "-s", help="seed of the deal and the bots"),
    bots: str = typer.Option(
        "random", "--bots", help="comma-separated bot levels, one per seat or one for all"
    ),
    option: list[str] = typer.Option(
        [], "--option", "-o", help="table option key=value, e.g. end_turn=strict_end_turn"
    ),
    delay: float = typer.Option(0.0, "--delay", min=0.0, help="seconds to pause between lines"),
    public_only: bool = typer.Option(
        False, "--public-only", help="show only what a spectator sees (hide drawn cards)"
    ),
    record: Path | None = typer.Option(None, "--record", help="write the replay record here"),
) -> None:
    console = Console(highlight=False)
    with friendly_errors():
        g = get_game(game)
        cfg = parse_options(option)
        if "players" in g.config_model.model_fields:
            cfg.setdefault("players", players)
        match = Match(g, cfg, seed)
        n = match.state.num_players
        levels = [x.strip() for x in bots.split(",") if x.strip()]
        if len(levels) == 1:
            levels *= n
        if len(levels) != n:
            raise fail(f"--bots names {len(levels)} levels but the game has {n} seats")
        seats = [make_bot(level, g.id) for level in levels]
    names = [f"P{i + 1}·{levels[i]}" for i in range(n)]
    rng = Rng(mix_seed(seed, "demo-bots"))
    console.print(Rule(f"{g.name} — {n} players, seed {seed}"))
    first = match.state.to_act()
    if first is not None:
        console.print(f"{names[first.player]} goes first.")
    steps = 0
    while (decision := match.state.to_act()) is not None:
        legal = match.state.legal_actions()
        action = seats[decision.player].choose(SeatView(match.state, decision.player), legal, rng)
        for ev in match.apply(action):
            if public_only and ev.visible_to is not None:
                continue
            line = g.narrate(ev, names)
            if line:
                style = "bold" if ev.type in ("turn", "game_over") else ""
                console.print(line, style=style)
                if delay:
                    time.sleep(delay)
        steps += 1
    out = match.state.outcome()
    console.print(Rule("result"))
    if out is not None:
        if out.draw:
            console.print(f"Draw among {', '.join(names[w] for w in out.winners)} ({out.reason}).")
        else:
            console.print(f"[bold green]{names[out.winners[0]]} wins[/] ({out.reason}).")
    console.print(f"{steps} decisions. Replay: knockabout replay FILE with --record FILE.")
    if record is not None:
        record.write_text(match.record.to_json(indent=1), encoding="utf-8")
        console.print(f"Record written to {record}.")
