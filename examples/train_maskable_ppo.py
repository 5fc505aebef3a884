"""Train a small policy for 2-player Nak Muay with MaskablePPO, then evaluate it.

    pip install 'knockabout[rl,train]'      # stable-baselines3, sb3-contrib, CPU PyTorch
    .venv/bin/python examples/train_maskable_ppo.py --timesteps 100000 --opponents random
    .venv/bin/python examples/train_maskable_ppo.py --timesteps 100000 --opponents easy --eval 400

Why this library: sb3-contrib's MaskablePPO is the widely used PPO that honours action
masks (most of the 110 action codes are illegal at any moment, so an unmasked policy
wastes its samples on illegal moves), it needs nothing but a Gymnasium env with an
``action_masks()`` method, and a 2 x 64 MLP trains on 2 CPU cores at a few thousand
steps a second. The learner plays ``knockabout/NakMuay-v0`` against the chosen bot
level, its seat alternating with the seed.

Evaluation follows ``knockabout sim``'s paired seeds: every deal is played twice, the
policy in seat 0 and then in seat 1, against ``random`` and against ``easy``; the score
is wins + half the draws, with a 95 % Wilson interval. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO

import knockabout.envs.gymnasium  # noqa: F401 - registers knockabout/<Game>-v0
from knockabout.envs.gymnasium import KnockaboutGym
from knockabout.sim.stats import wilson


def evaluate(model: MaskablePPO, game: str, opponents: str, deals: int, first_seed: int = 10_000) -> dict[str, Any]:
    """The policy's score over ``deals`` paired deals (2 games each, seats swapped)."""
    score = 0.0
    games = 0
    for seat in (0, 1):
        env = KnockaboutGym(game, opponents=opponents, seat=seat)
        for k in range(deals):
            obs, info = env.reset(seed=first_seed + k)
            done = False
            while not done:
                action, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool), deterministic=True)
                obs, _r, term, trunc, info = env.step(int(action))
                done = term or trunc
            score += info["payoffs"][seat]
            games += 1
    lo, hi = wilson(score, games)
    return {"opponents": opponents, "games": games, "score": score / games, "interval95": [lo, hi]}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="nak-muay", help="a knockabout game id")
    ap.add_argument("--timesteps", type=int, default=100_000, help="learner steps to train")
    ap.add_argument("--opponents", default="random", help="bot level trained against")
    ap.add_argument("--eval", type=int, default=200, help="paired deals per evaluation (2 games each)")
    ap.add_argument("--n-steps", type=int, default=1024, help="learner steps per PPO rollout")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2, help="PyTorch CPU threads")
    ap.add_argument("--save", default="", help="save the trained model here")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    env = KnockaboutGym(args.game, opponents=args.opponents, seat="rotate")
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=args.n_steps, batch_size=min(256, args.n_steps), learning_rate=3e-4,
        gamma=0.99, ent_coef=0.01, policy_kwargs={"net_arch": [64, 64]}, seed=args.seed, verbose=0, device="cpu",
    )
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    train_s = time.perf_counter() - t0
    if args.save:
        model.save(args.save)
    result = {
        "game": args.game,
        "library": "sb3-contrib MaskablePPO",
        "timesteps": args.timesteps,
        "trained_against": args.opponents,
        "train_seconds": round(train_s, 1),
        "steps_per_s": round(args.timesteps / train_s),
        "eval": [evaluate(model, args.game, level, args.eval) for level in ("random", "easy")],
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    gym.logger.min_level = 40
    main()
