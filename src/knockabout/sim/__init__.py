"""Simulation: the bot-play driver, seeded batches of bot games, tournaments, content
balance runs, statistics and saved results."""

from knockabout.sim.driver import Played, Step, play
from knockabout.sim.report import Summary, compare, summarize
from knockabout.sim.results import GameResult, ResultsError, SimResults
from knockabout.sim.tournament import SimSpec, lineups, plan, play_game, run, seat_orders

__all__ = [
    "GameResult",
    "Played",
    "ResultsError",
    "SimResults",
    "SimSpec",
    "Step",
    "Summary",
    "compare",
    "lineups",
    "plan",
    "play",
    "play_game",
    "run",
    "seat_orders",
    "summarize",
]
