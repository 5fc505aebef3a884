"""The ``learned`` level: a self-play network shipped as numpy arrays, played without PyTorch
from the seat's own observation (issue 41, item 3)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from knockabout.bots.learned import LearnedBot, PolicyNetwork, policy_file
from knockabout.bots.levels import LEVELS, levels_for, make_bot
from knockabout.core.bot import SeatView
from knockabout.core.errors import KnockaboutError
from knockabout.core.registry import all_games, get_game
from knockabout.core.rng import Rng
from knockabout.envs.vector import VectorEnv
from knockabout.sim import SimSpec, run, summarize
from tests.bots.view_only import checked_against_redeals
from tests.script_modules import load_script

SHIPPED = [g.id for g in all_games() if policy_file(g) is not None]


def _selfplay() -> Any:
    return load_script(Path("examples/selfplay_ppo.py"))


def test_a_network_ships_for_nak_muay_at_least() -> None:
    assert "nak-muay" in SHIPPED


@pytest.mark.parametrize("game_id", SHIPPED)
def test_the_shipped_network_is_small_and_fits_its_game(game_id: str) -> None:
    game = get_game(game_id)
    path = policy_file(game)
    assert path is not None and path.stat().st_size < 5_000_000
    net = PolicyNetwork.load(path)
    encoder = game.encoder()
    assert encoder is not None
    assert (net.size, net.actions) == (encoder.size, len(game.actions))
    assert net.meta["game"] == game_id and net.meta["trained"]["steps"] > 0
    assert "learned" in levels_for(game_id)


def test_levels_for_offers_learned_exactly_where_a_network_ships() -> None:
    for g in all_games():
        shipped = policy_file(g) is not None
        assert ("learned" in levels_for(g.id)) == shipped
        assert levels_for(g.id)[:4] == ["random", "easy", "medium", "hard"]
        if not shipped:
            with pytest.raises(KnockaboutError, match=r"not available for .*no trained network"):
                make_bot("learned", g.id)
    assert "learned" in LEVELS


@pytest.mark.parametrize("game_id", ["nak-muay", "knockback", "knockdown"])
def test_numpy_inference_equals_the_torch_policy(game_id: str, tmp_path: Path) -> None:
    """A network exported by the training script gives, in numpy, the torch network's logits,
    value and masked choice on real observations of the game."""
    selfplay = _selfplay()
    torch.manual_seed(7)
    env = VectorEnv(game_id, batch=8, seed=3)
    net = selfplay.Net(env.size, env.actions, 32)
    with torch.no_grad():  # a trained network's numbers are not small uniform ones: spread them out
        for p in net.parameters():
            p.mul_(3.0)
    path = tmp_path / "net.npz"
    selfplay.export(net, path, game_id, {"method": "test", "steps": 1, "games": 0, "players": 2, "options": {},
                                         "hidden": 32})
    mine = PolicyNetwork.load(path)
    obs, mask, _seat = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(5):
        with torch.no_grad():
            logits, value = net(torch.from_numpy(obs.copy()), torch.from_numpy(mask.copy()))
        ours = mine.logits(obs)
        np.testing.assert_allclose(np.where(mask, ours, -1e9), logits.numpy(), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(mine.value(obs), value.numpy(), rtol=1e-4, atol=1e-4)
        assert (np.where(mask, ours, -np.inf).argmax(1) == logits.numpy().argmax(1)).all()
        pick = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, mask, _r, _d, _seat = env.step(pick)


def test_a_file_that_is_not_a_network_is_refused_by_name(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not an archive")
    with pytest.raises(KnockaboutError, match=r"bad\.npz: not a learned network file"):
        PolicyNetwork.load(bad)
    half = tmp_path / "half.npz"
    np.savez(half, meta=np.array("{}"), **{"policy.weight": np.zeros((3, 4), np.float32)})
    with pytest.raises(KnockaboutError, match=r"half\.npz: a learned network file without 'policy\.bias'"):
        PolicyNetwork.load(half)
    skew = tmp_path / "skew.npz"
    np.savez(skew, meta=np.array("{}"), **{
        "hidden.0.weight": np.zeros((8, 4), np.float32), "hidden.0.bias": np.zeros(8, np.float32),
        "policy.weight": np.zeros((3, 5), np.float32), "policy.bias": np.zeros(3, np.float32),
        "value.weight": np.zeros((1, 8), np.float32), "value.bias": np.zeros(1, np.float32)})
    with pytest.raises(KnockaboutError, match="shapes do not chain"):
        PolicyNetwork.load(skew)


def _play(game_id: str, seed: int, seats: tuple[str, str]) -> tuple[list[str], tuple[float, ...]]:
    """One 2-player game of the levels in ``seats``; every choice is checked to be legal."""
    game = get_game(game_id)
    state = game.new_state({}, seed, players=2)
    bots = [make_bot(level, game_id) for level in seats]
    rng = Rng(seed)
    actions = []
    while (d := state.to_act()) is not None:
        legal = state.legal_actions()
        a = bots[d.player].choose(SeatView(state, d.player), legal, rng)
        assert a in legal, (game_id, seed, a.text)
        actions.append(a.text)
        state.apply(a)
    outcome = state.outcome()
    assert outcome is not None
    return actions, tuple(outcome.payoffs)


@pytest.mark.parametrize("game_id", SHIPPED)
def test_learned_plays_only_legal_actions_and_replays_by_seed(game_id: str) -> None:
    for seed in range(4):
        first = _play(game_id, seed, ("learned", "random"))
        assert _play(game_id, seed, ("learned", "random")) == first, "the same seed plays the same game"
    assert _play(game_id, 11, ("learned", "learned")) == _play(game_id, 11, ("learned", "learned"))


@pytest.mark.parametrize("game_id", SHIPPED)
def test_learned_sees_only_its_own_observation(game_id: str) -> None:
    """Two states that differ only in what the seat cannot see (a re-deal of the hidden cards
    consistent with its view) get the same move."""
    game = get_game(game_id)
    bot = make_bot("learned", game_id)
    assert isinstance(bot, LearnedBot)
    rng = Rng(5)
    checked = sum(checked_against_redeals(bot, game.new_state({}, seed, players=2), 80, rng) for seed in range(3))
    assert checked > 40


def test_learned_is_described_with_its_training() -> None:
    text = make_bot("learned", "nak-muay").describe()
    assert text.startswith("learned: a network trained by PPO self-play") and "agent steps" in text


def test_learned_beats_easy_in_nak_muay() -> None:
    """A short strength check (the study with intervals is benchmarks/bot_strength.py --group
    learned): 60 seat-balanced games against ``easy``, where a random policy scores about 10 %."""
    result = run(SimSpec("nak-muay", players=2, games=60, seed=41, bots=("learned", "easy")), workers=1)
    line = next(x for x in summarize(result, bootstrap=0).bots if x.label == "learned")
    assert line.games == 60 and line.rate >= 0.6, line.rate
    against_random = run(SimSpec("nak-muay", players=2, games=60, seed=41, bots=("random", "easy")), workers=1)
    assert next(x for x in summarize(against_random, bootstrap=0).bots if x.label == "random").rate < 0.4
