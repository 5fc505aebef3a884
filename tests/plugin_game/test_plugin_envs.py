"""A third-party game that declares an observation encoder gets every research
environment without knockabout naming it: PettingZoo, Gymnasium and OpenSpiel."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from knockabout.envs.gymnasium import KnockaboutGym, env_name, register_envs
from knockabout.envs.openspiel import register_games
from knockabout.envs.pettingzoo import env

pytestmark = [pytest.mark.usefixtures("installed"), pytest.mark.filterwarnings("ignore::UserWarning")]


def test_pettingzoo() -> None:
    api_test(env("high-card"), num_cycles=50)
    seed_test(lambda: env("high-card"), num_cycles=50)


def test_gymnasium() -> None:
    assert env_name("high-card") in register_envs()
    check_env(KnockaboutGym("high-card", opponents="easy", illegal_action="lose"))


def test_openspiel() -> None:
    assert "knockabout_high_card" in register_games()
    game = pyspiel.load_game("knockabout_high_card")
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_no_leak() -> None:
    from knockabout.envs.observation import SeatObserver

    obs = SeatObserver(get_game("high-card"))
    rng = Rng(1)
    s = get_game("high-card").new_state({}, 3)
    while s.to_act() is not None:
        for seat in (0, 1):
            other = s.determinize(seat, rng)
            assert np.array_equal(obs.vector(other, seat), obs.vector(s, seat))
            assert np.array_equal(obs.mask(other, seat), obs.mask(s, seat))
        s.apply(s.legal_actions()[0])


def test_batched_environment_through_the_view() -> None:
    """A game without a state encoder is batched through its view encoder."""
    from knockabout.envs.bench import random_legal
    from knockabout.envs.vector import VectorEnv, ViewStateEncoder

    game = get_game("high-card")
    assert game.state_encoder() is None
    e = VectorEnv("high-card", batch=4, seed=2)
    assert isinstance(e.encoder, ViewStateEncoder)
    obs, mask, seat = e.reset()
    rng = np.random.default_rng(0)
    enc = game.encoder()
    assert enc is not None
    ended = 0
    for _ in range(50):
        for i, s in enumerate(e.states()):
            assert obs[i].tobytes() == np.frombuffer(enc.encode(s.observe(int(seat[i]))), dtype=np.float32).tobytes()
        obs, mask, _reward, done, seat = e.step(random_legal(mask, rng))
        ended += int(done.sum())
    assert ended > 0
