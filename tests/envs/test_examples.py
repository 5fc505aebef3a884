"""The examples run (tiny budgets)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.script_modules import load_script


def _load(name: str) -> Any:
    return load_script(Path("examples") / f"{name}.py")


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_vector_envs_example() -> None:
    result = _load("vector_envs").main(["--envs", "2", "--steps", "100"])
    assert result["steps_per_s"] > 0 and result["episodes"] > 0


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")
def test_training_example() -> None:
    pytest.importorskip("sb3_contrib", reason="the training example needs the train extra")
    result = _load("train_maskable_ppo").main(
        ["--timesteps", "128", "--n-steps", "128", "--eval", "2", "--threads", "1"]
    )
    assert [e["opponents"] for e in result["eval"]] == ["random", "easy"]
    assert all(e["games"] == 4 and 0.0 <= e["score"] <= 1.0 for e in result["eval"])


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_selfplay_example_checkpoints_and_resumes(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="self-play training needs the train extra")
    example = _load("selfplay_ppo")
    common = ["--game", "knockback", "--envs", "4", "--rollout", "8", "--minibatch", "16", "--epochs", "1",
              "--every", "1", "--eval", "1", "--against", "random", "--threads", "1", "--out", str(tmp_path)]
    first = example.main([*common, "--steps", "64"])
    assert first["steps"] == 64 and first["updates"] == 2 and len(first["checkpoints"]) == 2
    assert (tmp_path / "ckpt-32.pt").exists() and (tmp_path / "ckpt-64.pt").exists()
    assert first["checkpoints"][-1]["eval"][0]["games"] == 2
    saved = torch.load(tmp_path / "latest.pt", weights_only=False)
    again = example.main([*common, "--steps", "96", "--resume"])
    assert again["steps"] == 96 and again["updates"] == 3  # went on from 64 steps and 2 updates
    resumed = torch.load(tmp_path / "ckpt-96.pt", weights_only=False)
    assert resumed["games"] >= saved["games"]
    assert any(not torch.equal(resumed["net"][k], saved["net"][k]) for k in saved["net"])
    lines = (tmp_path / "scores.jsonl").read_text().splitlines()
    assert len(lines) == 3


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_selfplay_exports_the_network_the_learned_level_plays(tmp_path: Path) -> None:
    """A tiny training run writes the numpy archive at its end, and a checkpoint converts
    to the same file's numbers; both load without PyTorch and play legal moves."""
    import numpy as np
    import torch

    from knockabout.bots.learned import PolicyNetwork

    example = _load("selfplay_ppo")
    common = ["--game", "nak-muay", "--envs", "4", "--rollout", "8", "--minibatch", "16", "--epochs", "1",
              "--every", "1", "--eval", "0", "--threads", "1", "--out", str(tmp_path), "--hidden", "16",
              "-o", "max_turns=30"]
    trained = example.main([*common, "--steps", "32", "--export", str(tmp_path / "end.npz")])
    assert trained["steps"] == 32
    again = example.main([*common, "--checkpoint", str(tmp_path / "ckpt-32.pt"),
                          "--export", str(tmp_path / "ck.npz")])
    assert again == {"game": "nak-muay", "exported": str(tmp_path / "ck.npz"), "steps": 32}
    end, ck = PolicyNetwork.load(tmp_path / "end.npz"), PolicyNetwork.load(tmp_path / "ck.npz")
    assert end.meta == ck.meta and end.meta["trained"]["steps"] == 32 and end.meta["game"] == "nak-muay"
    assert end.meta["trained"]["options"] == {"max_turns": 30}  # what it was trained on (-o)
    obs = np.random.default_rng(1).random((6, end.size), dtype=np.float32)
    np.testing.assert_array_equal(end.logits(obs), ck.logits(obs))
    saved = torch.load(tmp_path / "ckpt-32.pt", weights_only=False)
    np.testing.assert_array_equal(ck.hidden[0][0], saved["net"]["body.0.weight"].numpy())
    with pytest.raises(SystemExit):  # converting a checkpoint of another game is refused
        example.main([*common, "--game", "knockback", "--checkpoint", str(tmp_path / "ckpt-32.pt"),
                      "--export", str(tmp_path / "no.npz")])
    assert not (tmp_path / "no.npz").exists()


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_alphazero_example_trains_checkpoints_and_searches_from_the_view(tmp_path: Path) -> None:
    import torch

    from knockabout.core.registry import get_game
    from knockabout.core.rng import Rng

    az = _load("selfplay_alphazero")
    common = ["--game", "nak-muay", "--seconds", "0.1", "--games", "1", "--iterations", "4", "--hidden", "16",
              "--eval", "1", "--out", str(tmp_path)]
    first = az.main(common)
    assert first["updates"] >= 1 and first["decisions"] > 0 and first["eval"][0]["games"] == 2
    saved = torch.load(tmp_path / "latest.pt", weights_only=False)
    assert saved["steps"] == first["decisions"] and saved["method"] == "alphazero"
    again = az.main([*common, "--resume"])
    assert again["decisions"] > first["decisions"] and again["games"] > first["games"]
    # selfplay_ppo.py exports its checkpoints for the learned level
    _load("selfplay_ppo").main(["--game", "nak-muay", "--checkpoint", str(tmp_path / "latest.pt"),
                                "--export", str(tmp_path / "az.npz")])
    assert (tmp_path / "az.npz").exists()
    # the search spends its iterations, and re-dealing what the seat cannot see changes nothing
    game = get_game("nak-muay")
    searcher = az.Searcher(az.Net(360, len(game.actions), 16), game, iterations=24)
    state = game.new_state({}, 3, players=2)
    d = state.to_act()
    assert d is not None
    visits = searcher.search(state, d.player, Rng(9))
    assert sum(visits.values()) == 24 - 1  # the first iteration only scores the root
    assert searcher.search(state.determinize(d.player, Rng(1)), d.player, Rng(9)) == visits


def test_selfplay_advantages_follow_each_seats_trajectory() -> None:
    pytest.importorskip("torch", reason="self-play training needs the train extra")
    import numpy as np

    example = _load("selfplay_ppo")
    # two seats alternate in one game: seat 0 at 0 and 2, seat 1 at 1 and 3 (its last, the game's end)
    rewards = np.array([0.0, 0.0, 1.0, -1.0], np.float32)
    values = np.array([0.1, 0.2, 0.5, -0.4], np.float32)
    nxt = np.array([2, 3, -1, -1])
    terminal = np.array([False, False, True, True])
    adv = example.advantages(rewards, values, nxt, terminal, lam=1.0)
    assert adv.tolist() == pytest.approx([1.0 - 0.1, -1.0 - 0.2, 1.0 - 0.5, -1.0 + 0.4])
    # an unfinished trajectory's last decision bootstraps from its own value
    adv = example.advantages(rewards, values, np.array([2, -1, -1, -1]), np.array([False] * 4), lam=1.0)
    assert adv.tolist() == pytest.approx([0.5 - 0.1, 0.0, 0.0, 0.0])
