"""Events are values: equal field by field, pickled whole, shown with their fields
(unchangeable too: tests/core/test_compiled.py checks it on the compiled build)."""

from __future__ import annotations

import pickle

import pytest

from knockabout.core.events import Event, events_for


def test_events_are_equal_when_their_fields_are() -> None:
    a = Event("draw", {"player": 1}, frozenset({1}))
    assert a == Event("draw", {"player": 1}, frozenset({1}))
    assert a != Event("draw", {"player": 2}, frozenset({1}))
    assert a != Event("draw", {"player": 1})
    assert a != Event("drew", {"player": 1}, frozenset({1}))
    assert a != ("draw", {"player": 1}, frozenset({1})), "an event is not a tuple"
    assert Event("x") == Event("x", {}, None) and Event("x").data == {}


def test_an_event_pickles_and_reads_as_its_fields() -> None:
    a = Event("steal", {"player": 0, "target": 2}, frozenset({0, 2}))
    assert pickle.loads(pickle.dumps(a)) == a
    assert repr(a) == "Event(type='steal', data={'player': 0, 'target': 2}, visible_to=frozenset({0, 2}))"
    with pytest.raises(TypeError):
        hash(a)  # (its data is a dict, as it always was)


def test_who_sees_an_event() -> None:
    public, mine = Event("a"), Event("b", {}, frozenset({1}))
    assert public.visible(None) and public.visible(0)
    assert mine.visible(1) and not mine.visible(0) and not mine.visible(None)
    assert events_for([public, mine], 0) == [public] and events_for([public, mine], 1) == [public, mine]
