"""When may a step of a local game be taken back?

The rule: a step may be undone only if it was **public and deterministic**:

1. every event it produced is public (nothing was shown to one seat only: no card
   drawn, scouted, stolen or hidden), and
2. its result did not depend on randomness or on anything hidden from the people at
   the table: applying the same action

   * to the same state with a different random seed (games that keep their generator
     under ``"rng"`` in :meth:`State.to_dict`), and
   * to several re-deals of the hidden cards consistent with what each person seat
     knows (:meth:`State.determinize`)

   gives the same public events and the same public view.

So undo never re-rolls a random result, and a step whose outcome told someone
something (a re-deal that changes the outcome) cannot be taken back. The re-deal check
samples (``SAMPLES`` per person): a question whose answer is nearly certain (naming a
card the other player almost surely lacks) can pass it; the information such a step
gives is correspondingly small. It runs only in local games, so its cost does not
matter.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from knockabout.core.actions import Action
from knockabout.core.errors import KnockaboutError
from knockabout.core.events import Event
from knockabout.core.protocol import State
from knockabout.core.rng import Rng, mix_seed

SAMPLES = 12
_OTHER_SEED = 0x5DEECE66D


def _public(events: Iterable[Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events if e.visible_to is None]


def _without_rng(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k != "rng"}


def public_and_deterministic(
    before: State,
    action: Action,
    events: Sequence[Event],
    after: State,
    viewers: Iterable[int],
    samples: int = SAMPLES,
) -> bool:
    """Whether applying ``action`` to ``before`` (giving ``events`` and ``after``) is a step
    that may be undone. ``viewers`` are the seats whose knowledge must not grow."""
    if any(e.visible_to is not None for e in events):
        return False
    want_events = _public(events)
    want_view = after.observe(None)
    data = before.to_dict()
    if "rng" in data and isinstance(data["rng"], int):
        other = before.game.state_from_dict({**data, "rng": data["rng"] ^ _OTHER_SEED})
        other.apply(action)
        if _without_rng(other.to_dict()) != _without_rng(after.to_dict()):
            return False
    step = len(want_events)
    for p in viewers:
        for i in range(samples):
            sample = before.determinize(p, Rng(mix_seed(i, p, step, "undo-check")))
            try:
                got = sample.apply(action)
            except KnockaboutError:
                return False
            if _public(got) != want_events or sample.observe(None) != want_view:
                return False
    return True
