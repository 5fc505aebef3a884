"""``knockabout demo``: bots play one game and the terminal narrates it turn by turn."""

from __future__ import annotations

import secrets
import shlex
from pathlib import Path

import typer
from rich.console import Console
from rich.rule import Rule

from knockabout.bots.levels import make_bot
from knockabout.cli.errors import fail, friendly_errors
from knockabout.cli.narration import PACE, Narrator, bot_names, pace_for
from knockabout.cli.options import parse_options
from knockabout.core.errors import ConfigError
from knockabout.core.registry import get_game
from knockabout.core.replay import Match
from knockabout.core.rng import Rng, mix_seed
from knockabout.sim.driver import Step, play


def fresh_seed() -> int:
    """A new seed for a game nobody asked a seed for (printed, so it can be replayed)."""
    return secrets.randbelow(1_000_000)


def demo(
    game: str = typer.Argument("nak-muay", help="game id (see `knockabout games`)"),
    players: int | None = typer.Option(
        None, "--players", "-p", min=1, help="number of players (default: 4, or the nearest count the game allows)"
    ),
    seed: int | None = typer.Option(
        None, "--seed", "-s", help="seed of the deal and the bots (default: a fresh one, printed)"
    ),
    bots: str = typer.Option(
        "random", "--bots", help="comma-separated bot levels, one per seat or one for all"
    ),
    option: list[str] = typer.Option(
        [], "--option", "-o", help="table option key=value, e.g. end_turn=strict_end_turn"
    ),
    delay: float | None = typer.Option(
        None, "--delay", min=0.0,
        help=f"seconds to pause between lines (default: {PACE} on a terminal, none when piped)",
    ),
    public_only: bool = typer.Option(
        False, "--public-only", help="show only what a spectator sees (hide drawn cards)"
    ),
    record: Path | None = typer.Option(None, "--record", help="write the replay record here"),
) -> None:
    console = Console(highlight=False)
    if seed is None:
        seed = fresh_seed()
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
    names = bot_names(levels)
    match.record.names = names
    rng = Rng(mix_seed(seed, "demo-bots"))  # one stream, drawn from by the seats in turn
    console.print(Rule(f"{g.name} — {n} players, seed {seed}"))
    teller = Narrator(console, g, names, delay=pace_for(console, delay), public_only=public_only)
    first = match.state.to_act()
    teller.first(None if first is None else first.player)

    def narrate(step: Step) -> None:
        match.record.actions.append(step.action.text)
        teller.events(step.events)

    played = play(match.state, seats, [rng] * n, observer=narrate)
    console.print(Rule("result"))
    console.print(teller.result(played.outcome))
    again = shlex.join(["knockabout", "demo", g.id, *_replay_args(n, seed, bots, option)])
    console.print(f"{played.decisions} decisions. Watch this game again: {again}", soft_wrap=True, markup=False)
    if record is None:
        console.print("Add --record FILE to save it for `knockabout replay FILE`.", style="dim")
        return
    try:
        record.write_text(match.record.to_json(indent=1), encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot write the record to {record}: {exc.strerror}") from None
    console.print(
        f"Record written to {record}; replay it with: knockabout replay {shlex.quote(str(record))}", soft_wrap=True
    )


def _replay_args(players: int, seed: int, bots: str, options: list[str]) -> list[str]:
    """The demo options that make the same game again."""
    out = ["--players", str(players), "--seed", str(seed)]
    if bots != "random":
        out += ["--bots", bots]
    for o in options:
        out += ["-o", o]
    return out
