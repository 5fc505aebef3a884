"""Making Knockdown's events: public ones everybody sees, private ones for one seat."""

from __future__ import annotations

from typing import Any

from knockabout.core.events import Event


def public(type_: str, **data: Any) -> Event:
    return Event(type_, data)


def private(seat: int, type_: str, **data: Any) -> Event:
    return Event(type_, data, frozenset((seat,)))
