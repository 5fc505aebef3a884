"""The batched environment (``knockabout.envs.vector``): its buffers hold every game's
observation, mask and seat exactly as the single-game path gives them, rewards go to the
seat that acted, finished games are dealt again in place from their own seeds, and bad
input changes nothing."""

from __future__ import annotations

import json

import numpy as np
import pytest

from knockabout.core.errors import ActionParseError, ConfigError, IllegalActionError, KnockaboutError
from knockabout.core.protocol import State
from knockabout.core.registry import get_game
from knockabout.core.replay import Match
from knockabout.envs.bench import random_legal
from knockabout.envs.observation import seat_rewards
from knockabout.envs.vector import GymVectorEnv, VectorEnv
from tests.envs.positions import GAMES


def _check_buffers(env: VectorEnv, obs: np.ndarray, mask: np.ndarray, seat: np.ndarray) -> None:
    enc = env.game.encoder()
    assert enc is not None
    for i, s in enumerate(env.states()):
        d = s.to_act()
        assert d is not None and seat[i] == d.player
        want = np.frombuffer(enc.encode(s.observe(d.player)), dtype=np.float32)
        assert obs[i].tobytes() == want.tobytes(), f"game {i}: the row is not the seat's encoded view"
        assert np.flatnonzero(mask[i]).tolist() == sorted(a.code for a in s.legal_actions())


@pytest.mark.parametrize("game_id", GAMES)
def test_buffers_rewards_and_resets(game_id: str) -> None:
    batch = 6
    env = VectorEnv(game_id, batch=batch, seed=40)
    obs, mask, seat = env.reset()
    assert obs.shape == (batch, env.size) and obs.dtype == np.float32
    assert mask.shape == (batch, len(env.game.actions)) and mask.dtype == np.bool_
    assert seat.shape == (batch,)
    assert env.seeds.tolist() == [40 + i for i in range(batch)]
    _check_buffers(env, obs, mask, seat)
    rng = np.random.default_rng(3)
    played: list[list[int]] = [[] for _ in range(batch)]
    deals = [0] * batch
    ended = 0
    for step in range(3000):
        before = env.seeds.tolist()
        acting = seat.copy()
        actions = random_legal(mask, rng)
        obs, mask, reward, done, seat = env.step(actions)
        for i in range(batch):
            played[i].append(int(actions[i]))
            if not done[i]:
                assert reward[i] == 0.0
                continue
            # the game that ended replays from its seed and gives these rewards
            m = Match(game_id, {}, before[i])
            for code in played[i]:
                m.apply(env.game.actions[code])
            outcome = m.state.outcome()
            assert outcome is not None
            final = seat_rewards(outcome.payoffs)
            assert env.final_rewards[i].tolist() == pytest.approx(final)
            assert reward[i] == pytest.approx(final[acting[i]])
            enc = env.game.encoder()
            assert enc is not None
            last = np.frombuffer(enc.encode(m.state.observe(int(acting[i]))), dtype=np.float32)
            assert env.final_obs[i].tobytes() == last.tobytes()
            # dealt again in place, from the game's next seed
            deals[i] += 1
            assert env.seeds[i] == 40 + i + deals[i] * batch
            played[i] = []
            ended += 1
        if step % 50 == 0 or done.any():
            _check_buffers(env, obs, mask, seat)
        if ended >= 8:
            break
    assert ended >= 8 and env.games_finished == ended


def test_a_seeded_run_replays() -> None:
    def run() -> list[bytes]:
        env = VectorEnv("nak-muay", batch=4, seed=7, players=3)
        obs, mask, _ = env.reset()
        rng = np.random.default_rng(0)
        out = [obs.tobytes()]
        for _ in range(200):
            obs, mask, reward, done, _ = env.step(random_legal(mask, rng))
            out += [obs.tobytes(), reward.tobytes(), done.tobytes()]
        return out

    assert run() == run()


def test_game_options_as_keywords() -> None:
    env = VectorEnv("nak-muay", batch=3, players=4, end_turn="strict_end_turn", max_turns=50)
    env.reset()
    for s in env.states():
        d = s.to_dict()
        assert (d["players"], d["strict"], d["max_turns"]) == (4, True, 50)
    kb = VectorEnv("knockback", batch=2, config={"scoring": "best_of"})
    kb.reset()
    assert [s.to_dict()["scoring"] for s in kb.states()] == ["best_of", "best_of"]


def _snapshot(env: VectorEnv) -> list[str]:
    return [json.dumps(s.to_dict(), sort_keys=True) for s in env.states()]


def test_bad_input_changes_nothing() -> None:
    env = VectorEnv("knockback", batch=4, seed=1)
    _obs, mask, _seat = env.reset()
    good = random_legal(mask, np.random.default_rng(0))
    before = _snapshot(env)
    kept = (env.obs.copy(), env.mask.copy(), env.seat.copy())
    illegal = good.copy()
    illegal[2] = int(np.flatnonzero(~mask[2])[0])
    with pytest.raises(IllegalActionError, match="knockback: game 2: illegal action"):
        env.step(illegal)
    out_of_range = good.copy()
    out_of_range[1] = len(env.game.actions)
    with pytest.raises(ActionParseError, match="game 1"):
        env.step(out_of_range)
    with pytest.raises(ActionParseError, match="4 integer action codes"):
        env.step(good[:3])
    with pytest.raises(ActionParseError):
        env.step(good.astype(np.float64) + 0.5)
    assert _snapshot(env) == before
    assert np.array_equal(env.obs, kept[0]) and np.array_equal(env.mask, kept[1]) and np.array_equal(env.seat, kept[2])
    env.step(good)  # and it goes on


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ConfigError, match="batch"):
        VectorEnv("nak-muay", batch=0)
    with pytest.raises(ConfigError, match="players"):
        VectorEnv("nak-muay", batch=2, players=9)
    with pytest.raises(ConfigError, match="no_such_option"):
        VectorEnv("nak-muay", batch=2, no_such_option=1)
    with pytest.raises(KnockaboutError):
        VectorEnv("no-such-game", batch=2)
    with pytest.raises(ConfigError, match="reset"):
        VectorEnv("nak-muay", batch=2).step([0, 0])


def test_gymnasium_vector_env() -> None:
    env = GymVectorEnv("knockdown", num_envs=3, seed=5)
    obs, infos = env.reset(seed=11)
    assert env.single_observation_space.contains(obs[0])
    assert obs.shape == (3, env.single_observation_space.shape[0])
    assert env.env.seeds.tolist() == [11, 12, 13]
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(4000):
        mask = infos["action_mask"]
        acting = infos["seat"]
        assert np.array_equal(mask, env.action_masks())
        obs, rewards, terminated, truncated, infos = env.step(random_legal(mask, rng))
        assert env.observation_space.contains(obs)
        assert not truncated.any()
        if terminated.any():
            assert np.array_equal(infos["_final_obs"], terminated)
            assert infos["final_obs"].shape == obs.shape
            for i in np.flatnonzero(terminated):
                assert rewards[i] == pytest.approx(infos["final_rewards"][i][acting[i]])
            finished += int(terminated.sum())
            if finished >= 2:
                break
    assert finished >= 2
    with pytest.raises(ConfigError, match="one seed"):
        env.reset(seed=[1, 5, 9])


def test_states_are_the_games() -> None:
    env = VectorEnv("knockdown", batch=2)
    env.reset()
    assert all(isinstance(s, State) and s.game is get_game("knockdown") for s in env.states())
