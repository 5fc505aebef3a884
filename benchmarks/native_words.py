"""The compiled build's generator on native 64-bit words against its arbitrary-precision
loop, on the same fixed seeded work, in one process (CPU seconds).

    scripts/test-builds.sh        # makes build/compiled/src
    PYTHONPATH=build/compiled/src .venv/bin/python benchmarks/native_words.py [--rounds 3] [GAME ...]

Each round runs :func:`knockabout.sim.bench.fixed_work` for every game with the words off
and on (which goes first flips each round) and prints the medians. The ISMCTS and
``hard`` choices must be the same either way (the draws are), or it stops with an error.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from knockabout.core import rng
from knockabout.core.registry import game_ids
from knockabout.sim.bench import FixedWork, fixed_work

METRICS = (
    ("steps_per_cpu_s", "random steps/CPU s"),
    ("determinize_us", "determinize µs"),
    ("ismcts_iters_per_cpu_s", "ISMCTS it/CPU s"),
    ("hard_cpu_ms_per_move", "hard CPU ms/move"),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=None, help="game ids (default: all)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--work-games", type=int, default=40, help="random games of fixed work (default 40)")
    ap.add_argument("--iterations", type=int, default=150, help="ISMCTS iterations a search (default 150)")
    args = ap.parse_args()
    if not rng.COMPILED or not rng._WORDS:
        sys.exit("native_words: run it on the compiled build (PYTHONPATH=build/compiled/src, after "
                 "scripts/test-builds.sh); this process runs knockabout.core.rng "
                 + ("compiled, but its words check failed" if rng.COMPILED else "as plain Python"))
    games = args.games or game_ids()
    results: dict[tuple[str, bool], list[FixedWork]] = {}
    for r in range(args.rounds):
        for words in ((False, True) if r % 2 == 0 else (True, False)):
            rng._WORDS = words
            for g in games:
                results.setdefault((g, words), []).append(fixed_work(g, games=args.work_games,
                                                                     iterations=args.iterations))
    rng._WORDS = True
    print(f"{'game':10} {'measure':20} {'int loop':>10} {'words':>10} {'ratio':>7}")
    for g in games:
        choices = {tuple(f.choices) for w in (False, True) for f in results[(g, w)]}
        if len(choices) != 1:
            sys.exit(f"native_words: {g}: the choices differ with the words on and off")
        for field, label in METRICS:
            off = statistics.median(getattr(f, field) for f in results[(g, False)])
            on = statistics.median(getattr(f, field) for f in results[(g, True)])
            higher = field.endswith("_s")
            ratio = on / off if higher else off / on
            print(f"{g:10} {label:20} {off:10,.1f} {on:10,.1f} {ratio:6.2f}x")


if __name__ == "__main__":
    main()
