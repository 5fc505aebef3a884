"""The single-agent Gymnasium environments: registered ids, Gymnasium's env checker,
seeded replay, and the learner deciding every time the game asks its seat."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from knockabout.core.errors import ConfigError, IllegalActionError
from knockabout.envs.gymnasium import ENV_IDS, KnockaboutGym, env_name
from tests.envs.positions import GAMES

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_each_game_is_registered_under_its_camel_case_name() -> None:
    assert env_name("nak-muay") == "knockabout/NakMuay-v0"
    assert {"knockabout/NakMuay-v0", "knockabout/Knockdown-v0", "knockabout/Knockback-v0"} <= set(ENV_IDS)
    assert set(ENV_IDS) == {env_name(g) for g in GAMES}


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_registered_env_made_the_plain_way_passes_gymnasiums_checker(env_id: str) -> None:
    """``gym.make(id)`` with no options: Gymnasium's checker steps actions sampled from the
    whole action space, illegal ones included, which the env must take (as a loss)."""
    check_env(gym.make(env_id).unwrapped)
    assert gym.spec(env_id).kwargs["illegal_action"] == "lose"


@pytest.mark.parametrize("env_id", ["knockabout/NakMuay-v0", "knockabout/Knockdown-v0", "knockabout/Knockback-v0"])
def test_gymnasium_env_checker_with_options(env_id: str) -> None:
    e = gym.make(env_id, opponents="easy", render_mode="ansi")
    check_env(e.unwrapped)


def _episode(e: gym.Env, seed: int) -> tuple[list[int], float, dict]:  # type: ignore[type-arg]
    _obs, info = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, total, done = [], 0.0, False
    while not done:
        mask = info["action_mask"]
        assert mask.any()
        a = int(rng.choice(np.flatnonzero(mask)))
        actions.append(a)
        _obs, r, term, trunc, info = e.step(a)
        total += float(r)
        done = term or trunc
    return actions, total, info


@pytest.mark.parametrize("game_id", ["nak-muay", "knockdown", "knockback"])
def test_a_seeded_episode_replays_and_pays_the_learners_outcome(game_id: str) -> None:
    e = KnockaboutGym(game_id, opponents="easy", seat="rotate")
    a1, r1, info = _episode(e, 11)
    a2, r2, _ = _episode(e, 11)
    assert a1 == a2 and r1 == r2
    assert e.seat == 11 % e.players
    n = e.players
    assert r1 == pytest.approx((n * info["payoffs"][e.seat] - 1) / (n - 1))


def test_bots_play_every_other_seat_including_reactions() -> None:
    e = KnockaboutGym("nak-muay", players=4, seat=2, opponents="random")
    for seed in range(5):
        _obs, info = e.reset(seed=seed)
        while True:
            d = e.state.to_act()
            if d is None:
                break
            assert d.player == 2  # the learner is only ever asked for its own seat
            _obs, _r, term, trunc, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
            if term or trunc:
                break


@pytest.mark.parametrize("make", [lambda **kw: KnockaboutGym("nak-muay", **kw),
                                  lambda **kw: gym.make("knockabout/NakMuay-v0", **kw)])
def test_illegal_actions_lose_by_default_and_raise_on_request(make: Any) -> None:
    lose = make()
    _obs, info = lose.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, r, term, _trunc, info = lose.step(illegal)
    assert r == -1.0 and term and info["illegal_action"] == lose.unwrapped.game.actions[illegal].text
    e = make(illegal_action="raise")
    e.reset(seed=0)
    before = e.unwrapped.state.to_dict()
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    assert e.unwrapped.state.to_dict() == before


def test_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="seat must be"):
        KnockaboutGym("knockdown", seat=2)
    with pytest.raises(Exception, match="unknown bot level"):
        KnockaboutGym("knockdown", opponents="grandmaster")
    with pytest.raises(ConfigError, match="illegal_action"):
        KnockaboutGym("knockdown", illegal_action="ignore")  # type: ignore[arg-type]


def test_vectorised_envs_step_together() -> None:
    envs = gym.vector.SyncVectorEnv([lambda: gym.make("knockabout/NakMuay-v0") for _ in range(2)])
    obs, infos = envs.reset(seed=[1, 2])
    assert obs.shape[0] == 2 and obs.dtype == np.float32
    for _ in range(5):
        masks = infos["action_mask"]
        # a finished sub-env's mask is empty: its next step only resets it (any action)
        actions = np.array([int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks])
        obs, _r, _t, _tr, infos = envs.step(actions)
    envs.close()


def test_reset_skips_a_deal_that_ends_before_the_learner_decides() -> None:
    e = KnockaboutGym("nak-muay", players=2, seat=1, opponents="random")
    e._deal(70)  # seed 70: the bot's opening knocks seat 1 out before it is asked anything
    assert e.state.is_over
    _obs, info = e.reset(seed=70)
    assert info["seed"] == 71 and not e.state.is_over
    assert e.state.to_act().player == 1  # type: ignore[union-attr]
    _obs, info = e.reset(seed=69)
    assert info["seed"] == 69
