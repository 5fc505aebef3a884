"""Simulation: seeded batches of bot games, tournaments, statistics and saved results."""

from knockabout.sim.report import Summary, compare, summarize
from knockabout.sim.results import GameResult, ResultsError, SimResults
from knockabout.sim.tournament import SimSpec, lineups, plan, play_game, run, seat_orders

__all__ = [
    "GameResult",
    "ResultsError",
    "SimResults",
    "SimSpec",
    "Summary",
    "compare",
    "lineups",
    "plan",
    "play_game",
    "run",
    "seat_orders",
    "summarize",
]
