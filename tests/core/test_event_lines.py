"""``EventLines``: an event's sentence from its type's template, filled from its data."""

from __future__ import annotations

import pytest

from knockabout.core.events import Event
from knockabout.core.narration import EventLines

LINES = EventLines(
    {
        "attack": "{player} hits {target} for {value}.",
        "wait": "{player} waits {seconds:g} seconds.",
        "drew": "{player} drew {card}.",
        "reshuffle": "The pile is shuffled ({pile} cards).",
    },
    seats=("player", "target"),
    show={"card": str.upper},
)
NAMES = ["Ann", "Bo"]


def test_seat_fields_are_written_as_names_and_shown_fields_as_their_function_gives() -> None:
    assert LINES.line(Event("attack", {"player": 0, "target": 1, "value": 3}), NAMES) == "Ann hits Bo for 3."
    assert LINES.line(Event("drew", {"player": "1", "card": "ko"}), NAMES) == "Bo drew KO."
    assert LINES.line(Event("reshuffle", {"pile": 12}), NAMES) == "The pile is shuffled (12 cards)."


def test_format_specs_apply_to_the_value() -> None:
    assert LINES.line(Event("wait", {"player": 1, "seconds": 10.0}), NAMES) == "Bo waits 10 seconds."


def test_a_type_without_a_template_has_no_line_here() -> None:
    assert LINES.line(Event("turn", {"player": 0}), NAMES) is None


def test_a_missing_field_is_a_key_error_naming_it() -> None:
    with pytest.raises(KeyError, match="target"):
        LINES.line(Event("attack", {"player": 0, "value": 3}), NAMES)
