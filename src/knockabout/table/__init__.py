"""Live play: one game at a table of people, bots and empty seats (see :mod:`.table`)."""

from knockabout.table.challenge import MAKERS, Challenge, ChallengeError, Puzzle, tower_puzzle
from knockabout.table.seats import Seat, SeatError, default_names, parse_seat, parse_seats
from knockabout.table.table import (
    LogEntry,
    NotYourDecisionError,
    StaleActionError,
    Table,
    TableError,
    UndoError,
)
from knockabout.table.undo import public_and_deterministic

__all__ = [
    "MAKERS",
    "Challenge",
    "ChallengeError",
    "LogEntry",
    "NotYourDecisionError",
    "Puzzle",
    "Seat",
    "SeatError",
    "StaleActionError",
    "Table",
    "TableError",
    "UndoError",
    "default_names",
    "parse_seat",
    "parse_seats",
    "public_and_deterministic",
    "tower_puzzle",
]
