"""Many knockabout games at once through Gymnasium's vector environments.

    .venv/bin/python examples/vector_envs.py --game knockabout/NakMuay-v0 --envs 4 --steps 2000
    .venv/bin/python examples/vector_envs.py --async   # one process per environment

Every sub-environment is one learning seat against knockabout bots (``--opponents``);
actions here are random legal ones, drawn from each sub-environment's ``action_mask``.
A finished sub-environment resets itself on its next step (Gymnasium's next-step
autoreset), which is why an all-zero mask is answered with any action.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import knockabout.envs.gymnasium  # noqa: F401 - registers knockabout/<Game>-v0


def make(env_id: str, opponents: str):  # type: ignore[no-untyped-def]
    return lambda: gym.make(env_id, opponents=opponents, seat="rotate")


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="knockabout/NakMuay-v0", help="a registered id")
    ap.add_argument("--envs", type=int, default=4, help="sub-environments")
    ap.add_argument("--steps", type=int, default=2000, help="vector steps")
    ap.add_argument("--opponents", default="random", help="bot level of the other seats")
    ap.add_argument("--async", dest="use_async", action="store_true", help="AsyncVectorEnv (a process each)")
    args = ap.parse_args(argv)
    fns = [make(args.game, args.opponents) for _ in range(args.envs)]
    envs = gym.vector.AsyncVectorEnv(fns) if args.use_async else gym.vector.SyncVectorEnv(fns)
    rng = np.random.default_rng(0)
    _obs, infos = envs.reset(seed=list(range(args.envs)))
    episodes = 0
    returns = 0.0
    start = time.perf_counter()
    for _ in range(args.steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in infos["action_mask"]])
        _obs, rewards, terminated, truncated, infos = envs.step(actions)
        done = terminated | truncated
        episodes += int(done.sum())
        returns += float(rewards[done].sum())
    seconds = time.perf_counter() - start
    envs.close()
    result = {
        "steps_per_s": args.steps * args.envs / seconds,
        "episodes": episodes,
        "mean_return": returns / max(1, episodes),
    }
    kind = "AsyncVectorEnv" if args.use_async else "SyncVectorEnv"
    print(f"{kind} x{args.envs} {args.game}: {result['steps_per_s']:,.0f} learner steps/s, "
          f"{episodes} episodes, mean return {result['mean_return']:+.3f} (random play vs {args.opponents})")
    return result


if __name__ == "__main__":
    main()
