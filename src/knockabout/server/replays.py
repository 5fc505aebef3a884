"""Finished games, step by step, without replaying from the start on every request.

``GET /api/tables/{id}/replay/{step}`` used to rebuild the game from step 0 each time, so
stepping through a long replay cost the square of its length. :class:`ReplayCache` keeps,
for the finished games watched most recently, a copy of the state every :data:`EVERY`
steps; a step is then at most ``EVERY - 1`` actions from a kept state. A finished game
never changes, so what is kept never goes stale. Only finished games come here (the route
refuses live ones), so the copies hold nothing a player of a running table could use.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from knockabout.core.events import Event
from knockabout.core.protocol import State
from knockabout.core.registry import get_game
from knockabout.store.store import StoredTable

EVERY = 64
"""A kept state every this many steps."""
GAMES = 32
"""How many finished games' kept states stay in memory (the least recently watched go)."""


@dataclass
class _Kept:
    states: list[State] = field(default_factory=list)  # states[i] is the game after i * EVERY steps


@dataclass(frozen=True)
class ReplayStep:
    """The game after ``step`` actions, the events of the last one and who took it."""

    state: State
    events: list[Event]
    actor: int | None


class ReplayCache:
    """Kept states of recently watched finished games (safe to use from many threads)."""

    def __init__(self, games: int = GAMES, every: int = EVERY) -> None:
        self._games = games
        self._every = every
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = threading.Lock()
        self.applied = 0  # actions applied so far (how much work the cache saved shows here)

    def step(self, st: StoredTable, step: int) -> ReplayStep:
        """The finished game ``st`` after ``step`` of its actions (0 <= step <= its length)."""
        if not 0 <= step <= len(st.actions):
            raise ValueError(f"step {step} is outside 0-{len(st.actions)}")
        with self._lock:
            kept = self._kept.pop(st.id, None) or _Kept()
            self._kept[st.id] = kept  # the most recently watched
            while len(self._kept) > self._games:
                self._kept.popitem(last=False)
            if not kept.states:
                kept.states.append(get_game(st.game).new_state(st.config, st.seed))
            # the nearest kept state at or before the step before ``step`` (its events are needed)
            start = min(max(step - 1, 0) // self._every, len(kept.states) - 1)
            state = kept.states[start].clone()
        at = start * self._every
        known = len(kept.states)  # (read without the lock: at worst a copy is made twice)
        events: list[Event] = []
        actor = None
        grown: list[tuple[int, State]] = []  # (index, copy) of kept states this walk passes first
        while at < step:
            d = state.to_act()
            actor = None if d is None else d.player
            events = state.apply(st.actions[at])
            at += 1
            if at % self._every == 0 and at // self._every >= known:
                grown.append((at // self._every, state.clone()))
        with self._lock:
            self.applied += step - start * self._every
            for index, copy in grown:
                if index == len(kept.states):
                    kept.states.append(copy)
        return ReplayStep(state, events, actor)
