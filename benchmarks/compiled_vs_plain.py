"""The plain and the compiled build side by side, on fixed seeded work timed in CPU seconds.

    scripts/test-builds.sh                      # makes build/plain/src and build/compiled/src
    python benchmarks/compiled_vs_plain.py [--rounds 3] [--games 100] [--iterations 200] [GAME ...]

Each round runs every game once in each build, alternating which build goes first, each
in a fresh process with that build first on ``sys.path``; it prints the median of the
rounds per build and their ratio. The ISMCTS and ``hard`` choices of every run must be
identical, or the script stops with an error naming the game.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILDS = ("plain", "compiled")
METRICS = (  # field, label, higher is better
    ("steps_per_cpu_s", "random steps/CPU s", True),
    ("clone_us", "clone µs", False),
    ("determinize_us", "determinize µs", False),
    ("ismcts_iters_per_cpu_s", "ISMCTS it/CPU s", True),
    ("hard_cpu_ms_per_move", "hard CPU ms/move", False),
)
CODE = """
import dataclasses, json, sys
from knockabout.sim.bench import fixed_work
r = fixed_work(sys.argv[1], games=int(sys.argv[2]), iterations=int(sys.argv[3]))
print(json.dumps(dataclasses.asdict(r)))
"""


def run(build: str, game: str, games: int, iterations: int) -> dict[str, object]:
    src = ROOT / "build" / build / "src"
    if not src.is_dir():
        sys.exit(f"{src} is missing: run scripts/test-builds.sh first")
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{ROOT}"}
    out = subprocess.run(
        [sys.executable, "-c", CODE, game, str(games), str(iterations)],
        env=env, capture_output=True, text=True, check=True,
    ).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    want = "plain Python" if build == "plain" else "compiled"
    if not str(result["build"]).startswith(want):
        sys.exit(f"build/{build} runs {result['build']!r}, not {want!r}")
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games_", nargs="*", metavar="GAME", default=["nak-muay", "knockback", "knockdown"])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=100, help="random games per run")
    ap.add_argument("--iterations", type=int, default=200, help="ISMCTS iterations per searched position")
    ap.add_argument("--json", type=Path, help="also write every run to this file")
    args = ap.parse_args()
    runs: dict[str, dict[str, list[dict[str, object]]]] = {g: {b: [] for b in BUILDS} for g in args.games_}
    for r in range(args.rounds):
        order = BUILDS if r % 2 == 0 else BUILDS[::-1]
        for game in args.games_:
            for build in order:
                runs[game][build].append(run(build, game, args.games, args.iterations))
                print(f"round {r + 1}/{args.rounds} {game} {build} done", file=sys.stderr, flush=True)
    for game, by_build in runs.items():
        choices = {json.dumps(x["choices"]) for b in BUILDS for x in by_build[b]}
        if len(choices) != 1:
            sys.exit(f"{game}: the builds made different choices: {sorted(choices)}")
        n_choices = len(by_build["plain"][0]["choices"])  # type: ignore[arg-type]
        print(f"\n{game} ({args.rounds} rounds, medians; the same {n_choices} choices in every run)")
        print(f"  {'':22}{'plain':>12}{'compiled':>12}{'speed-up':>10}")
        for field, label, higher in METRICS:
            med = {b: statistics.median(float(x[field]) for x in by_build[b]) for b in BUILDS}  # type: ignore[arg-type]
            fast, slow = (med["compiled"], med["plain"]) if higher else (med["plain"], med["compiled"])
            ratio = fast / slow if slow else 0.0
            print(f"  {label:22}{med['plain']:>12,.1f}{med['compiled']:>12,.1f}{ratio:>9.2f}×")
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1))


if __name__ == "__main__":
    main()
