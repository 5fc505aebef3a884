"""The conformance suite: every registered game must pass every test here.

A game gets all of it by registering; nothing here knows about a particular game.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from knockabout.core import (
    Action,
    ActionParseError,
    GameRecord,
    IllegalActionError,
    KnockaboutError,
    Match,
    Rng,
    State,
    game_ids,
    get_game,
    replay,
)

GAMES = game_ids()
SEEDS = range(6)
STEP_CAP = 20_000


def _configs(game_id: str) -> list[dict[str, Any]]:
    g = get_game(game_id)
    out: list[dict[str, Any]] = []
    fields = g.config_model.model_fields
    if "players" in fields:
        out += [{"players": n} for n in range(g.min_players, g.max_players + 1)]
    else:
        out.append({})
    return out


def _playout(state: State, rng: Rng, cap: int = STEP_CAP) -> list[Action]:
    taken: list[Action] = []
    while state.to_act() is not None and len(taken) < cap:
        legal = state.legal_actions()
        a = legal[rng.below(len(legal))]
        state.apply(a)
        taken.append(a)
    return taken


def _midgame_states(game_id: str, count: int = 40) -> list[State]:
    """States sampled along random playouts, every decision kind included."""
    g = get_game(game_id)
    rng = Rng(99)
    out: list[State] = []
    for cfg in _configs(game_id):
        for seed in range(4):
            s = g.new_state(cfg, seed)
            steps = 0
            while s.to_act() is not None and steps < 3000:
                if rng.below(7) == 0:
                    out.append(s.clone())
                legal = s.legal_actions()
                s.apply(legal[rng.below(len(legal))])
                steps += 1
            out.append(s)
    return out[:: max(1, len(out) // count)] if len(out) > count else out


@pytest.mark.parametrize("game_id", GAMES)
def test_game_is_described(game_id: str) -> None:
    g = get_game(game_id)
    d = g.describe()
    assert d["id"] == game_id
    assert g.min_players <= g.max_players
    assert len(g.actions) > 0
    json.dumps(d)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playouts_reach_an_outcome(game_id: str, seed: int) -> None:
    g = get_game(game_id)
    for cfg in _configs(game_id):
        s = g.new_state(cfg, seed)
        _playout(s, Rng(seed))
        assert s.to_act() is None, f"{game_id} {cfg} seed {seed}: no outcome after {STEP_CAP} steps"
        out = s.outcome()
        assert out is not None
        assert len(out.payoffs) == s.num_players
        assert abs(sum(out.payoffs) - 1.0) < 1e-9 or out.draw
        assert s.legal_actions() == ()


@pytest.mark.parametrize("game_id", GAMES)
def test_offered_actions_accepted_and_others_rejected(game_id: str) -> None:
    g = get_game(game_id)
    for s in _midgame_states(game_id):
        legal = set(s.legal_actions())
        before = json.dumps(s.to_dict(), sort_keys=True)
        for a in g.actions:
            if a in legal:
                continue
            with pytest.raises(IllegalActionError) as info:
                s.apply(a)
            assert str(a) in str(info.value)
            assert json.dumps(s.to_dict(), sort_keys=True) == before, "rejected action changed state"
        for a in legal:
            c = s.clone()
            c.apply(a)  # must not raise
            c2 = s.clone()
            c2.apply(str(a))  # text form accepted too


@pytest.mark.parametrize("game_id", GAMES)
def test_malformed_actions_rejected_without_change(game_id: str) -> None:
    g = get_game(game_id)
    s = g.new_state(_configs(game_id)[0], 3)
    before = json.dumps(s.to_dict(), sort_keys=True)
    for bad in ["", "   ", "no-such-action", "draw:99:zz", "💥", "target:-1"]:
        with pytest.raises(KnockaboutError):
            s.apply(bad)
    with pytest.raises(KnockaboutError):
        s.apply(Action(10_000, "forged"))
    assert json.dumps(s.to_dict(), sort_keys=True) == before


@pytest.mark.parametrize("game_id", GAMES)
def test_action_text_round_trips(game_id: str) -> None:
    space = get_game(game_id).actions
    for i, a in enumerate(space):
        assert a.code == i
        assert space.parse(str(a)) is a
    with pytest.raises(ActionParseError):
        space.parse("definitely not an action")


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_replay_rebuilds_the_same_state(game_id: str, seed: int) -> None:
    for cfg in _configs(game_id):
        m = Match(game_id, cfg, seed)
        rng = Rng(seed + 1000)
        while m.state.to_act() is not None and len(m.record.actions) < STEP_CAP:
            legal = m.state.legal_actions()
            m.apply(legal[rng.below(len(legal))])
        text = m.record.to_json()
        again = replay(GameRecord.from_json(text))
        assert again.to_dict() == m.state.to_dict()
        # and from any prefix
        half = GameRecord.from_dict({**m.record.to_dict(), "actions": m.record.actions[: len(m.record.actions) // 2]})
        replay(half)


@pytest.mark.parametrize("game_id", GAMES)
def test_serialisation_round_trip(game_id: str) -> None:
    g = get_game(game_id)
    for s in _midgame_states(game_id):
        data = json.loads(json.dumps(s.to_dict()))
        back = g.state_from_dict(data)
        assert back.to_dict() == s.to_dict()
        for p in range(s.num_players):
            assert back.observe(p) == s.observe(p)
        # the restored state plays on identically
        r1, r2 = Rng(5), Rng(5)
        a1 = _playout(s.clone(), r1, 200)
        a2 = _playout(back, r2, 200)
        assert a1 == a2


@pytest.mark.parametrize("game_id", GAMES)
def test_clone_is_independent(game_id: str) -> None:
    for s in _midgame_states(game_id):
        if s.to_act() is None:
            continue
        before = json.dumps(s.to_dict(), sort_keys=True)
        c = s.clone()
        assert c.to_dict() == s.to_dict()
        _playout(c, Rng(1), 300)
        assert json.dumps(s.to_dict(), sort_keys=True) == before


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_same_game(game_id: str) -> None:
    g = get_game(game_id)
    cfg = _configs(game_id)[-1]
    a, b = g.new_state(cfg, 77), g.new_state(cfg, 77)
    assert a.to_dict() == b.to_dict()
    assert _playout(a, Rng(3)) == _playout(b, Rng(3))
    assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize("game_id", GAMES)
def test_determinize_is_consistent_with_the_view(game_id: str) -> None:
    """A determinization differs from the truth only in what the player cannot see."""
    rng = Rng(11)
    for s in _midgame_states(game_id):
        for p in range(s.num_players):
            view = s.observe(p)
            for _ in range(3):
                d = s.determinize(p, rng)
                assert d.observe(p) == view
                assert d.to_act() == s.to_act()
                assert d.legal_actions() == s.legal_actions() or (
                    s.to_act() is not None and s.to_act().player != p  # type: ignore[union-attr]
                )
                # and it is a playable state
                _playout(d, Rng(2), 300)


@pytest.mark.parametrize("game_id", GAMES)
def test_observation_never_leaks(game_id: str) -> None:
    """Two states that differ only in what a player cannot see give it identical views,
    and the same for spectators; views are JSON-able."""
    rng = Rng(21)
    for s in _midgame_states(game_id):
        for p in range(s.num_players):
            d1, d2 = s.determinize(p, rng), s.determinize(p, rng)
            assert d1.observe(p) == d2.observe(p)
            json.dumps(s.observe(p).to_json())
        json.dumps(s.observe(None).to_json())


@pytest.mark.parametrize("game_id", GAMES)
def test_determinize_reseeds_the_future(game_id: str) -> None:
    """Search on a determinized state must not see the true future randomness."""
    rng = Rng(5)
    for s in _midgame_states(game_id, 10):
        if s.to_act() is None:
            continue
        seen = {s.determinize(0, rng).to_dict().get("rng") for _ in range(4)}
        if "rng" in s.to_dict():
            assert s.to_dict()["rng"] not in seen


@pytest.mark.parametrize("game_id", GAMES)
def test_events_are_json_and_well_scoped(game_id: str) -> None:
    g = get_game(game_id)
    s = g.new_state(_configs(game_id)[-1], 8)
    rng = Rng(8)
    while s.to_act() is not None:
        legal = s.legal_actions()
        for e in s.apply(legal[rng.below(len(legal))]):
            json.dumps(e.to_dict())
            if e.visible_to is not None:
                assert e.visible_to <= frozenset(range(s.num_players))


@pytest.mark.parametrize("game_id", GAMES)
def test_bad_config_is_a_clear_error(game_id: str) -> None:
    g = get_game(game_id)
    with pytest.raises(KnockaboutError) as info:
        g.new_state({"no_such_option": 1}, 0)
    assert "no_such_option" in str(info.value)


@pytest.mark.parametrize("game_id", GAMES)
def test_actions_pickle_to_the_same_singleton(game_id: str) -> None:
    import pickle

    for a in get_game(game_id).actions:
        assert pickle.loads(pickle.dumps(a)) is a


@pytest.mark.parametrize("game_id", GAMES)
def test_states_pickle_for_worker_processes(game_id: str) -> None:
    import pickle

    for s in _midgame_states(game_id, 5):
        back = pickle.loads(pickle.dumps(s))
        assert back.to_dict() == s.to_dict()
        assert back.legal_actions() == s.legal_actions()
