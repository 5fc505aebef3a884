"""What one seat (or a spectator) may see of a live table, handed out in one piece.

:meth:`knockabout.table.Table.updates_for` is the table's single redaction point: the
server's WebSocket frames and the terminal's screens are built from the
:class:`Update` it returns and from nothing else, so what a seat may see is decided
in exactly one place.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from knockabout.core.events import Event
from knockabout.core.plugins import Guidance
from knockabout.core.protocol import Decision, Outcome
from knockabout.core.view import View


@dataclass(frozen=True)
class Update:
    """Everything ``seat`` may see now, and the log entries it has not seen yet.

    ``events`` are ``(step, event)`` for the table's events from ``since`` on that are
    visible to ``seat``; pass ``cursor`` back next time to get only newer ones.
    ``legal`` holds the texts of the legal actions when ``seat`` is the one deciding
    (empty otherwise); ``challenge`` is the open puzzle when the table judges this
    seat's decision (see :mod:`knockabout.table.challenge`); ``guidance`` is what the
    game tells the deciding seat about its decision (None for other seats, or a game
    without a guide). A judged seat is offered no actions, neither in ``legal`` nor in
    its view's own ``legal`` field (see :func:`without_choices`): the table takes only an
    answer from it, and the game's verdict actions would be dead buttons. ``can_undo``:
    whether ``seat`` may take back its last move now (see :meth:`~knockabout.table.Table.undo`).
    """

    seat: int | None
    version: int
    view: View
    events: tuple[tuple[int, Event], ...]
    decision: Decision | None
    legal: tuple[str, ...]
    challenge: dict[str, Any] | None
    outcome: Outcome | None
    since: int
    cursor: int
    guidance: Guidance | None = None
    can_undo: bool = False

    @property
    def my_decision(self) -> bool:
        """Whether ``seat`` must decide now."""
        return self.seat is not None and self.decision is not None and self.decision.player == self.seat


def without_choices(view: View) -> View:
    """``view`` with its ``legal`` field (a game view's list of the viewer's legal actions,
    see :class:`~knockabout.core.encoding.FramedView`) emptied to None, for a seat whose
    decision the table judges; a view without that field as it is."""
    if getattr(view, "legal", None) is not None and is_dataclass(view) and any(f.name == "legal" for f in fields(view)):
        emptied: View = replace(view, legal=None)
        return emptied
    return view
