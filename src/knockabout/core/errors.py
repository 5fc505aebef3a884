"""Errors raised by the engine. Every one carries a message a person can act on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from knockabout.core.actions import Action
    from knockabout.core.protocol import Decision


class KnockaboutError(Exception):
    """Base class for every error this package raises on purpose.

    ``plain`` is the same problem in a player's words, when the message itself names
    option keys or ids a player never sees (what the browser shows); the message stays
    what a developer or a command line needs."""

    def __init__(self, *args: object, plain: str | None = None) -> None:
        super().__init__(*args)
        self._plain = plain

    @property
    def plain(self) -> str:
        return self._plain or str(self)


class ConfigError(KnockaboutError):
    """A game configuration (player count, variant, table setting) is invalid."""


class ContentError(KnockaboutError):
    """A content file (cards, fighters, packs, arenas) failed validation."""


class ActionParseError(KnockaboutError):
    """A piece of text does not name any action of the game."""


class IllegalActionError(KnockaboutError):
    """A well-formed action was offered that the pending decision does not allow."""

    def __init__(
        self,
        action: Action | str,
        decision: Decision | None,
        legal: Sequence[Action],
        where: str = "",
    ) -> None:
        """``where`` starts the message when the action was one of many (``game 3``)."""
        self.action = action
        self.decision = decision
        self.legal = tuple(legal)
        if decision is None:
            msg = f"illegal action {str(action)!r}: the game is over, no action is accepted"
        else:
            # (seats counted from 1, as everywhere a person reads them)
            msg = (
                f"illegal action {str(action)!r} for decision {decision.kind!r} "
                f"of seat {decision.player + 1}; legal: {listed(self.legal, 24)}"
            )
        super().__init__(f"{where}: {msg}" if where else msg)


def listed(actions: Sequence[object], most: int) -> str:
    """The first ``most`` of ``actions`` as text, then how many there are in all."""
    shown = ", ".join(str(a) for a in actions[:most])
    return shown if len(actions) <= most else f"{shown}, ... ({len(actions)} in all)"


class ReplayError(KnockaboutError):
    """A replay record cannot be read or does not replay."""


class UnknownGameError(KnockaboutError):
    """No game is registered under the requested id."""
