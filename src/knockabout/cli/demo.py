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
from knockabout.core.errors import ConfigError
from knockabout.core.registry import get_game
from knockabout.core.replay import Match
from knockabout.core.rng import Rng, mix_seed
from knockabout.sim.driver import Step, play


def demo(
    game: str = typer.Argument("nak-muay", help="game id (see `knockabout games`)"),
    players: int | None = typer.Option(
        None, "--players", "-p", min=1, help="number of players (default: 4, or the nearest count the game allows)"
    ),
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
        n = max(g.min_players, min(4, g.max_players)) if players is None else players
        if not g.min_players <= n <= g.max_players:
            span = str(g.min_players) if g.min_players == g.max_players else f"{g.min_players}-{g.max_players}"
            raise ConfigError(f"{g.id} is played by {span} players, not {n}")
        cfg = parse_options(option)
        if "players" in g.config_model.model_fields:
            # the record replays from its options, so a game that has the option keeps the count there
            cfg.setdefault("players", n)
        match = Match(g, cfg, seed)
        levels = [x.strip() for x in bots.split(",") if x.strip()]
        if len(levels) == 1:
            levels *= n
        if len(levels) != n:
            raise fail(f"--bots names {len(levels)} levels but the game has {n} seats")
        seats = [make_bot(level, g.id) for level in levels]
    names = [f"P{i + 1}·{levels[i]}" for i in range(n)]
    rng = Rng(mix_seed(seed, "demo-bots"))  # one stream, drawn from by the seats in turn
    console.print(Rule(f"{g.name} — {n} players, seed {seed}"))
    first = match.state.to_act()
    if first is not None:
        console.print(f"{names[first.player]} goes first.")

    def narrate(step: Step) -> None:
        match.record.actions.append(step.action.text)
        for ev in step.events:
            if public_only and ev.visible_to is not None:
                continue
            line = g.narrate(ev, names)
            if line:
                style = "bold" if ev.type in ("turn", "game_over") else ""
                console.print(line, style=style)
                if delay:
                    time.sleep(delay)

    played = play(match.state, seats, [rng] * n, observer=narrate)
    out = played.outcome
    console.print(Rule("result"))
    if out.draw:
        console.print(f"Draw among {', '.join(names[w] for w in out.winners)} ({out.reason}).")
    else:
        console.print(f"[bold green]{names[out.winners[0]]} wins[/] ({out.reason}).")
    console.print(f"{played.decisions} decisions. Replay: knockabout replay FILE with --record FILE.")
    if record is not None:
        record.write_text(match.record.to_json(indent=1), encoding="utf-8")
        console.print(f"Record written to {record}.")
