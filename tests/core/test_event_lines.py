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


def test_a_derived_phrase_is_made_from_the_whole_data_and_wins_over_a_field() -> None:
    lines = EventLines(
        {"hurt": "{player} takes {wounds}.", "score": "{player} scores {value}."},
        derive={
            "wounds": lambda d: f"{d['heavy']} heavy and {d['light']} light",
            "value": lambda d: "nothing" if d["value"] == 0 else str(d["value"]),
        },
    )
    assert lines.line(Event("hurt", {"player": 1, "heavy": 2, "light": 0}), NAMES) == "Bo takes 2 heavy and 0 light."
    assert lines.line(Event("score", {"player": 0, "value": 0}), NAMES) == "Ann scores nothing."


def test_knockdown_lines_from_derived_phrases_read_as_before() -> None:
    from knockabout.games.knockdown.presentation.narration import narrate

    names = ["Ann", "Bo"]
    assert narrate(Event("dash", {"player": 0, "card": "Jab", "moves": 1}), names) == "Ann discards Jab to Dash once."
    three = narrate(Event("dash", {"player": 0, "card": "Jab", "moves": 3}), names)
    assert three == "Ann discards Jab to Dash 3 times."
    assert narrate(Event("wounds", {"player": 1, "heavy": 1, "light": 2, "source": "poison"}), names) == (
        "Bo suffers 1 heavy and 2 light wounds from Poison."
    )
    assert narrate(Event("tokens", {"player": 1, "change": -2, "token": "curse"}), names) == "Bo loses 2 curse tokens."
    assert narrate(Event("test_result", {"player": 0, "passed": False, "roll": [2, 3], "wounds": 6}), names) == (
        "Ann fails the Knockdown Test (rolled 5 against 6)."
    )
    assert narrate(Event("moved", {"player": 0, "how": "blink", "at": "c2"}), names) == "Ann blinks to c2."
