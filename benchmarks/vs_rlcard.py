"""Nak Muay random play against RLCard's raw UNO loop, side by side in one process.

Both loops do the same work a simulation does: start a game, then until it ends ask for
the legal actions and apply a random one. knockabout goes through its checked protocol
(`legal_actions()` / `apply()` on the state); RLCard goes straight to its game object
(`UnoGame.init_game()` / `step()`, the legal actions from its state dict), without its
environment wrapper. The two alternate, ``--rounds`` times each for ``--seconds`` of CPU
time (process time, so other jobs on a shared machine slow neither side's count), and the
median of the per-round ratios is printed. RLCard comes with the ``envs-bench`` extra.

    .venv/bin/python benchmarks/vs_rlcard.py --seconds 3 --rounds 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from knockabout.compiled import build_summary
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from knockabout.sim.bench import random_play


def knockabout_steps(seconds: float, players: int) -> float:
    """Nak Muay random-play steps per CPU second through the protocol."""
    steps, _, took = random_play(get_game("nak-muay"), players, seconds, Rng(1), time.process_time)
    return steps / took


def rlcard_steps(seconds: float, players: int) -> float:
    """UNO random-play steps per CPU second on RLCard's game object."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(1)
    pick = random.Random(1)
    steps = 0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        state, _ = game.init_game()
        while not game.is_over():
            legal = state["legal_actions"]
            state, _ = game.step(legal[pick.randrange(len(legal))])
            steps += 1
    return steps / (clock() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per side per round")
    ap.add_argument("--rounds", type=int, default=3, help="how many times each side runs (alternating)")
    ap.add_argument("--players", type=int, default=2, help="players in both games (2-5)")
    args = ap.parse_args()
    if not 2 <= args.players <= 5 or args.rounds < 1 or args.seconds <= 0:
        raise SystemExit("--players 2-5, --rounds >= 1, --seconds > 0")
    try:
        import rlcard  # noqa: F401
    except ImportError:
        raise SystemExit("RLCard is missing: pip install 'knockabout[envs-bench]'") from None
    print(f"knockabout build: {build_summary()}; {args.players} players, {args.seconds:g} CPU s a side a round")
    print(f"{'round':>5}  {'Nak Muay steps/s':>16}  {'RLCard UNO steps/s':>18}  {'ratio':>5}")
    ratios = []
    for k in range(args.rounds):
        ours = knockabout_steps(args.seconds, args.players)
        theirs = rlcard_steps(args.seconds, args.players)
        ratios.append(ours / theirs)
        print(f"{k + 1:>5}  {ours:>16,.0f}  {theirs:>18,.0f}  {ratios[-1]:>5.2f}", flush=True)
    print(f"median ratio (Nak Muay / RLCard UNO): {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
