"""Live play: one game at a table of people, bots and empty seats (see :mod:`.table`)."""

from knockabout.table.challenge import Challenge, ChallengeError, Puzzle, check_shape
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
from knockabout.table.update import Update

__all__ = [
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
    "Update",
    "check_shape",
    "default_names",
    "parse_seat",
    "parse_seats",
    "public_and_deterministic",
]
