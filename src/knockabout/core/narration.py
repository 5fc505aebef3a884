"""Event lines from templates: the plain sentences games write for their events.

Most of a game's narration is one fixed sentence per event type with the event's data
filled in (``"{player} draws a card."``). A game declares those as :class:`EventLines`
and writes code only for the lines that need more than filling in.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from knockabout.core.events import Event

_Name = TypeVar("_Name", bound=str)


@dataclass(frozen=True, slots=True)
class _Fields:
    """The values a template reads: one event's data, seat fields as display names,
    fields with a way of showing them shown that way and phrases made from several fields."""

    data: Mapping[str, Any]
    names: Sequence[str]
    seats: Collection[str]
    show: Mapping[str, Callable[[Any], str]]
    derive: Mapping[str, Callable[[Mapping[str, Any]], str]]

    def __getitem__(self, key: str) -> Any:
        phrase = self.derive.get(key)
        if phrase is not None:
            return phrase(self.data)
        value = self.data[key]
        if key in self.seats:
            return self.names[int(value)]
        shown = self.show.get(key)
        return value if shown is None else shown(value)


class EventLines:
    """One ``str.format`` template per event type, filled from the event's data.

    ``{field}`` is the event's ``data[field]``; a field named in ``seats`` holds a seat
    and is written as that seat's display name; a field in ``show`` is written as its
    function gives it (a card id as the card's title). A name in ``derive`` is no field
    of the event but a phrase its function makes from the whole data (``heavy`` and
    ``light`` as ``1 heavy and 2 light wounds``); derived names take precedence over fields.
    Format specs work as usual (``{seconds:g}``). A missing field raises
    :class:`KeyError`, as reading it would.
    """

    __slots__ = ("derive", "seats", "show", "templates")

    def __init__(
        self,
        templates: Mapping[_Name, str],
        *,
        seats: Collection[str] = ("player",),
        show: Mapping[str, Callable[[Any], str]] | None = None,
        derive: Mapping[str, Callable[[Mapping[str, Any]], str]] | None = None,
    ) -> None:
        self.templates: dict[str, str] = {str(k): v for k, v in templates.items()}
        self.seats = frozenset(seats)
        self.show = dict(show or {})
        self.derive = dict(derive or {})

    def line(self, event: Event, names: Sequence[str]) -> str | None:
        """The event's sentence, or None when no template is declared for its type."""
        template = self.templates.get(event.type)
        if template is None:
            return None
        return template.format_map(_Fields(event.data, names, self.seats, self.show, self.derive))
