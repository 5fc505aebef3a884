"""Seats at a live table: a person, a bot of a named level, or an empty chair.

Seat texts (used by ``knockabout play --seats`` and the lobby):

* ``me``, ``you``, ``person``, ``human`` - a person;
* ``open``, ``empty``, ``free`` - an empty seat a person may join later;
* ``invite`` - an empty seat kept for whoever has its invite link (the server hands
  the creator one link per such seat; nobody else can take it);
* ``bot:LEVEL`` or just ``LEVEL`` (e.g. ``random``, ``easy``, ``hard``) - a bot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from knockabout.bots.levels import LEVELS, check_level, levels_for, make_bot
from knockabout.core.errors import KnockaboutError

SeatKind = Literal["person", "bot", "empty"]

PERSON_WORDS = ("me", "you", "person", "human")
EMPTY_WORDS = ("open", "empty", "free")
INVITE_WORDS = ("invite", "reserved")


class SeatError(KnockaboutError):
    """A seat description cannot be understood."""


@dataclass
class Seat:
    """One chair at a table. ``away`` marks a person whose seat a stand-in bot plays;
    ``reserved`` an empty seat only its invite link can take."""

    kind: SeatKind
    name: str = ""
    level: str | None = None
    away: bool = False
    reserved: bool = False

    @property
    def is_person(self) -> bool:
        return self.kind == "person"

    def public(self) -> dict[str, object]:
        """What everyone at the table may know about this seat."""
        return {"kind": self.kind, "name": self.name, "level": self.level, "away": self.away,
                "reserved": self.reserved}


def parse_seat(text: str, game_id: str) -> Seat:
    """Read one seat text (see the module doc). Unknown bot levels raise a clear error."""
    word = text.strip().lower()
    if not word:
        raise SeatError("a seat is empty text; use me, open or a bot level")
    if word in PERSON_WORDS:
        return Seat("person")
    if word in EMPTY_WORDS:
        return Seat("empty")
    if word in INVITE_WORDS:
        return Seat("empty", reserved=True)
    level = word.removeprefix("bot:")
    if level not in LEVELS:
        raise SeatError(
            f"unknown seat {text.strip()!r}: use me (a person), open (a free seat), invite (a seat "
            f"kept for its invite link) or a bot level "
            f"({', '.join(levels_for(game_id))})"
        )
    try:
        check_level(level, game_id)
    except KnockaboutError as exc:
        raise SeatError(str(exc)) from None
    make_bot(level, game_id)  # the level must be able to play this game
    return Seat("bot", level=level)


def parse_seats(texts: list[str], game_id: str) -> list[Seat]:
    return [parse_seat(t, game_id) for t in texts]


def default_names(seats: list[Seat]) -> None:
    """Fill in missing names: people are Player N, bots are named by seat and level."""
    for i, s in enumerate(seats):
        if s.name:
            continue
        s.name = f"Bot {i + 1} ({s.level})" if s.kind == "bot" else f"Player {i + 1}"


def standin_level() -> str:
    """The level of the bot that plays for a person who is away."""
    for level in ("easy", "random"):
        if level in LEVELS:
            return level
    return next(iter(LEVELS))
