"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every game and
player count, plus what the environment promises beyond them."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from knockabout.core.errors import ActionParseError, ConfigError, IllegalActionError, KnockaboutError
from knockabout.core.registry import get_game
from knockabout.envs.pettingzoo import env
from tests.envs.positions import tables

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(("game_id", "players"), tables())
def test_pettingzoo_api_test(game_id: str, players: int) -> None:
    api_test(env(game_id, players=players), num_cycles=200)


@pytest.mark.parametrize(("game_id", "players"), tables())
def test_pettingzoo_seed_test(game_id: str, players: int) -> None:
    seed_test(lambda: env(game_id, players=players), num_cycles=200)


def _play(e, seed: int) -> tuple[dict[str, float], int]:  # type: ignore[no-untyped-def]
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
        steps += 1
    return totals, steps


@pytest.mark.parametrize(("game_id", "players"), tables())
def test_a_whole_game_pays_the_outcome_once(game_id: str, players: int) -> None:
    e = env(game_id, players=players)
    totals, steps = _play(e, 3)
    outcome = e.state.outcome()
    assert outcome is not None and steps > 0
    n = players
    assert [totals[a] for a in e.possible_agents] == pytest.approx([(n * p - 1) / (n - 1) for p in outcome.payoffs])
    assert sum(totals.values()) == pytest.approx(0.0)


@pytest.mark.parametrize("game_id", ["nak-muay", "knockdown", "knockback"])
def test_shaped_rewards_add_the_potential_difference(game_id: str) -> None:
    plain, _ = _play(env(game_id), 4)
    e = env(game_id, shaped_rewards=True, shaping_scale=0.5)
    shaped, _ = _play(e, 4)
    enc = get_game(game_id).encoder()
    assert enc is not None
    start = get_game(game_id).new_state({}, 4)
    for p, a in enumerate(e.possible_agents):
        extra = 0.5 * (enc.potential(e.state.observe(p)) - enc.potential(start.observe(p)))
        assert shaped[a] == pytest.approx(plain[a] + extra)


@pytest.mark.parametrize(("game_id", "players", "config", "seeds", "timeout", "off_turn_kinds"), [
    ("nak-muay", 3, {}, 30, "no-response", ("attack_response", "countdown_response")),
    ("knockdown", 2, {"knockdown_test": "tower"}, 6, "tower:fail", ("block", "tower_challenge")),
])
def test_every_decision_is_an_agent_turn_with_its_kind_and_timeout(
    game_id: str, players: int, config: dict[str, str], seeds: int, timeout: str, off_turn_kinds: tuple[str, ...]
) -> None:
    """Reactions on other seats' turns (Nak Muay's Attack and Countdown answers, Knockdown's
    Block windows and tower decision) are the deciding agent's ordinary turns; a timed
    decision's timeout (Nak Muay's Countdown, Knockdown's tower) is an action code the mask
    allows."""
    e = env(game_id, players=players, config=config)
    game = get_game(game_id)
    seen_timed = 0
    off_turn: dict[str, int] = {}
    for seed in range(seeds):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in e.agent_iter():
            obs, _r, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            d = e.state.to_act()
            assert d is not None and agent == f"player_{d.player}" and info["kind"] == d.kind
            if d.player != e.state.observe(None).to_json()["current"]:
                off_turn[d.kind] = off_turn.get(d.kind, 0) + 1
            if "time_limit" in info:
                seen_timed += 1
                assert info["time_limit"] > 0 and game.actions[info["timeout_action"]].text == timeout
                assert obs["action_mask"][info["timeout_action"]] == 1
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen_timed > 0
    assert all(off_turn.get(kind, 0) > 0 for kind in off_turn_kinds), off_turn


def test_only_the_deciding_seat_has_a_mask() -> None:
    e = env("nak-muay", players=4)
    e.reset(seed=1)
    for agent in e.possible_agents:
        mask = e.observe(agent)["action_mask"]
        assert mask.dtype == np.int8
        assert mask.any() == (agent == e.agent_selection)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = env("nak-muay")
    e.reset(seed=2)
    agent = e.agent_selection
    before = e.state.to_dict()
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=r"not legal|illegal"):
        e.step(illegal)
    assert e.state.to_dict() == before and e.agent_selection == agent


def test_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="render_mode"):
        env("nak-muay", render_mode="human")
    with pytest.raises(ConfigError, match="players must be"):
        env("knockdown", players=3)
    with pytest.raises(ConfigError, match="max_turns"):
        env("nak-muay", config={"max_turns": -1})
    with pytest.raises(KnockaboutError, match=r"unknown game|no game"):
        env("no-such-game")


def test_max_steps_truncates() -> None:
    e = env("knockback", max_steps=5)
    e.reset(seed=0)
    steps = 0
    for _agent in e.agent_iter():
        obs, _r, term, trunc, _i = e.last()
        if term or trunc:
            assert trunc and not term
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 5


@pytest.mark.parametrize("game_id", ["nak-muay", "knockdown", "knockback"])
def test_ansi_render_draws_the_public_board(game_id: str) -> None:
    e = env(game_id, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "player_0" in text and "decides" in text


@pytest.mark.parametrize("bad", [-1, 10_000, 2.5, "draw", True])
def test_a_bad_action_code_is_named(bad: object) -> None:
    e = env("nak-muay")
    e.reset(seed=0)
    before = e.state.to_dict()
    with pytest.raises(ActionParseError, match="is not an action code"):
        e.step(bad)  # type: ignore[arg-type]
    assert e.state.to_dict() == before


def test_the_cheap_mask_and_codes_match_the_observation() -> None:
    e = env("nak-muay", players=3)
    e.reset(seed=4)
    for _ in range(30):
        agent = e.agent_selection
        if e.terminations[agent]:
            break
        mask = e.observe(agent)["action_mask"]
        assert np.array_equal(e.action_mask(agent), mask)
        assert e.legal_action_codes() == list(np.flatnonzero(mask))
        e.step(e.legal_action_codes()[-1])
