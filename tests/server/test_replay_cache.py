"""Replays of finished games keep states along the way (issue 15, item 1): a step costs at
most EVERY actions from a kept state instead of a replay from the start, and gives the
very same state as a replay from the start."""

from __future__ import annotations

import json
from typing import Any

import pytest

from knockabout.bots.random_bot import RandomBot
from knockabout.core.bot import SeatView
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from knockabout.server.replays import ReplayCache
from knockabout.store.store import StoredTable


def finished(game_id: str, seed: int, table_id: str = "t1") -> StoredTable:
    game = get_game(game_id)
    state = game.new_state({}, seed)
    rng = Rng(seed)
    actions = []
    while (d := state.to_act()) is not None:
        a = RandomBot().choose(SeatView(state, d.player), state.legal_actions(), rng)
        actions.append(a.text)
        state.apply(a)
    return StoredTable(table_id, game_id, game.rules_version, {}, seed, [], status="finished", actions=actions)


def from_the_start(st: StoredTable, step: int) -> tuple[str, list[str]]:
    state = get_game(st.game).new_state(st.config, st.seed)
    events: list[Any] = []
    for text in st.actions[:step]:
        events = state.apply(text)
    return json.dumps(state.to_dict(), sort_keys=True), [e.type for e in events]


@pytest.mark.parametrize("game_id", ["nak-muay", "knockdown", "knockback"])
def test_every_step_matches_a_replay_from_the_start(game_id: str) -> None:
    st = finished(game_id, 4)
    cache = ReplayCache(every=8)
    steps = list(range(len(st.actions) + 1))
    order = steps[::-1][:20] + steps[:30] + steps[len(steps) // 2:][:20]  # backwards, forwards, a jump
    for step in order:
        at = cache.step(st, step)
        state_json, event_types = from_the_start(st, step)
        assert json.dumps(at.state.to_dict(), sort_keys=True) == state_json, step
        assert [e.type for e in at.events] == event_types, step


def test_stepping_through_a_long_game_costs_linear_work() -> None:
    st = finished("knockdown", 2)
    n = len(st.actions)
    assert n > 200, "a long enough game"
    cache = ReplayCache(every=16)
    for step in range(n + 1):
        cache.step(st, step)
    # from the start every time it would be n (n + 1) / 2 actions
    assert cache.applied <= (n + 1) * 16, (cache.applied, n)


def test_a_kept_state_is_never_changed_by_a_later_walk() -> None:
    st = finished("nak-muay", 9)
    cache = ReplayCache(every=4)
    first = json.dumps(cache.step(st, 5).state.to_dict(), sort_keys=True)
    cache.step(st, len(st.actions))
    assert json.dumps(cache.step(st, 5).state.to_dict(), sort_keys=True) == first


def test_the_least_recently_watched_games_leave_memory() -> None:
    cache = ReplayCache(games=2, every=4)
    games = [finished("knockback", seed, f"t{seed}") for seed in range(3)]
    for st in games:
        cache.step(st, 3)
    assert list(cache._kept) == ["t1", "t2"]


def test_a_step_outside_the_game_is_refused() -> None:
    st = finished("knockback", 1)
    with pytest.raises(ValueError, match="outside"):
        ReplayCache().step(st, len(st.actions) + 1)
