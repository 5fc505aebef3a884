"""``knockabout``: the command-line entry point. Each sub-command lives in its own module."""

from __future__ import annotations

import typer

from knockabout.cli import balance as balance_cmd
from knockabout.cli import bench as bench_cmd
from knockabout.cli import content as content_cmd
from knockabout.cli import demo as demo_cmd
from knockabout.cli import games as games_cmd
from knockabout.cli import learn as learn_cmd
from knockabout.cli import play as play_cmd
from knockabout.cli import replay as replay_cmd
from knockabout.cli import report as report_cmd
from knockabout.cli import schema as schema_cmd
from knockabout.cli import serve as serve_cmd
from knockabout.cli import sim as sim_cmd

app = typer.Typer(
    name="knockabout",
    help="Three fighting card games for people and bots, in a terminal or a browser.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.command("games", help="List the games and their options.")(games_cmd.games)
app.command("demo", help="Watch bots play a game in the terminal, turn by turn.")(demo_cmd.demo)
app.command("replay", help="Replay a saved game record and show how it ended.")(replay_cmd.replay)
# further commands register below, one line each
app.command("sim", help="Play many seeded bot games: win rates, ratings, game length.")(sim_cmd.sim)
app.command("report", help="Reopen saved sim or balance results; compare sim files; HTML report.")(report_cmd.report)
app.command("bench", help="Measure each game's speed: steps/s, clone µs, ISMCTS iterations/s.")(bench_cmd.bench)
app.command("play", help="Play a game in the terminal against bots or friends (hotseat).")(play_cmd.play)
app.command("learn", help="Learn a game by playing its tutorial: one rule at a time, at a real table.")(
    learn_cmd.learn
)
app.command("serve", help="Serve the web app: lobby, tables against bots or friends, replays.")(serve_cmd.serve)
app.add_typer(balance_cmd.app, name="balance")
app.command("schema", help="Print the JSON Schema of a game's view (what its renderers may read).")(
    schema_cmd.schema
)
app.add_typer(content_cmd.app, name="content")


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover - `python -m knockabout.cli.main`
    main()
