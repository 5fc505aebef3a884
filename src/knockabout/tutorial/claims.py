"""Checking a step's claims (:class:`~knockabout.tutorial.scenario.Check`) against the engine.

The values a check may read are gathered by :class:`~knockabout.tutorial.lesson.Lesson`
(the learner's view, the engine's state, the legal actions, the decision, the events,
the outcome) as plain JSON data; :func:`failures` says which checks do not hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from jsonpointer import JsonPointerException, resolve_pointer

from knockabout.tutorial.scenario import Check

_MISSING = object()


def matches(item: Any, wanted: Any) -> bool:
    """Whether ``item`` is what ``wanted`` describes: an object matches when it has every
    member of ``wanted`` with a matching value; anything else must be equal (a list or
    tuple equals a list with the same items)."""
    if isinstance(wanted, Mapping):
        return isinstance(item, Mapping) and all(k in item and matches(item[k], v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return isinstance(item, list | tuple) and len(item) == len(wanted) and all(
            matches(a, b) for a, b in zip(item, wanted, strict=True))
    if isinstance(wanted, bool) or isinstance(item, bool):
        return item is wanted  # True is not 1
    return bool(item == wanted)


def _holds(check: Check, value: Any) -> bool:
    if "length" in check.model_fields_set:
        return hasattr(value, "__len__") and len(value) == check.length
    if "equals" in check.model_fields_set:
        return matches(value, check.equals) and matches(check.equals, value)
    wanted = check.contains if "contains" in check.model_fields_set else check.excludes
    if isinstance(value, str | Mapping):  # a text holds a text; an object holds a member name
        found = isinstance(wanted, str) and wanted in value
    elif isinstance(value, list | tuple):
        found = any(matches(item, wanted) for item in value)
    else:
        return False
    return found if "contains" in check.model_fields_set else not found


def failures(checks: Iterable[Check], sources: Mapping[str, Any]) -> list[str]:
    """Each check that does not hold, as a line naming it and what was found."""
    out = []
    for check in checks:
        try:
            value = resolve_pointer(sources[check.on], check.path, _MISSING) if check.path else sources[check.on]
        except JsonPointerException as exc:
            out.append(f"{check.describe()}: {exc}")
            continue
        if value is _MISSING:
            out.append(f"{check.describe()}: there is nothing at {check.path}")
        elif not _holds(check, value):
            shown = repr(value)
            out.append(f"{check.describe()}: found {shown if len(shown) <= 300 else shown[:300] + '…'}")
    return out
