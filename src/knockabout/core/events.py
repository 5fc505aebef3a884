"""Events: what happened, and who may know it.

``apply`` returns the events an action caused. An event is public
(``visible_to is None``) or private to some players. A public event never carries
hidden information; when something has a public and a private side (a draw: all see
that a card was drawn, the drawer sees which) the game emits two events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

_NO_DATA: Mapping[str, Any] = {}


class Event(NamedTuple):
    """One thing that happened. ``data`` holds JSON-able values only.

    A named tuple: immutable and cheap to make (events are created on the hot path).
    """

    type: str
    data: Mapping[str, Any] = _NO_DATA
    visible_to: frozenset[int] | None = None

    def visible(self, player: int | None) -> bool:
        """Whether ``player`` (None = a spectator) may see this event."""
        if self.visible_to is None:
            return True
        return player is not None and player in self.visible_to

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type, **self.data}
        return d


def events_for(events: Iterable[Event], player: int | None) -> list[Event]:
    """The events ``player`` may see (None: a spectator, public events only)."""
    return [e for e in events if e.visible(player)]
