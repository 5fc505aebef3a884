"""A game told line by line in the terminal: what ``demo`` and ``replay`` print.

Seats are named the way a person reads them everywhere: 1-based, with the seat's name
(``Bot 2 (hard)``, ``Player 1``), the names the table gives its seats.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

from knockabout.core.events import Event
from knockabout.core.protocol import Game, Outcome
from knockabout.table import Seat, default_names

PACE = 0.15
"""Seconds between narrated lines when a person watches (standard output is a terminal)."""


def bot_names(levels: Sequence[str]) -> list[str]:
    """Display names of bot seats, as a table names them (``Bot 1 (random)``)."""
    seats = [Seat("bot", level=level) for level in levels]
    default_names(seats)
    return [s.name for s in seats]


def seat_names(players: int) -> list[str]:
    """Display names of seats nobody named (``Player 1`` …)."""
    seats = [Seat("person") for _ in range(players)]
    default_names(seats)
    return [s.name for s in seats]


def pace_for(console: Console, delay: float | None) -> float:
    """The pause between lines: as asked, else :data:`PACE` on a terminal and none in a pipe."""
    if delay is not None:
        return delay
    return PACE if console.is_terminal else 0.0


class Narrator:
    """Prints a game's events in plain words, pausing ``delay`` seconds after each line.

    ``public_only`` keeps to what a spectator sees (private events such as the card a
    player drew are left out).
    """

    def __init__(
        self,
        console: Console,
        game: Game[Any],
        names: Sequence[str],
        *,
        delay: float = 0.0,
        public_only: bool = False,
    ) -> None:
        self.console = console
        self.game = game
        self.names = list(names)
        self.delay = delay
        self.public_only = public_only

    def first(self, player: int | None) -> None:
        if player is not None:
            self.console.print(f"{self.names[player]} goes first.", markup=False)

    def events(self, events: Iterable[Event]) -> None:
        for ev in events:
            if self.public_only and ev.visible_to is not None:
                continue
            line = self.game.narrate(ev, self.names)
            if line:
                style = "bold" if ev.type in ("turn", "game_over") else ""
                self.console.print(line, style=style)
                if self.delay:
                    time.sleep(self.delay)

    def result(self, outcome: Outcome) -> str:
        """The result in one line (with markup): who won, or who shared a draw, and why."""
        if outcome.draw:
            among = ", ".join(escape(self.names[w]) for w in outcome.winners)
            return f"Draw among {among} ({escape(outcome.reason)})." if among else f"Draw ({escape(outcome.reason)})."
        # (names and reasons are text: a name such as "Alice [1]" is not markup)
        return f"[bold green]{escape(self.names[outcome.winners[0]])} wins[/] ({escape(outcome.reason)})."
