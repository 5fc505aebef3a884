"""Today's compiled build against the code the speed issue first measured, in one run.

    scripts/test-builds.sh                           # makes build/compiled/src
    python benchmarks/vs_first_build.py [--rev REV] [--rounds 3] [--seconds 2] [GAME ...]

The speed targets ("ISMCTS iterations/s at least 3x the first measurement") compare with
numbers taken weeks earlier on a shared machine whose speed has since swung by up to 2x,
so this script measures both sides now: it exports the source of ``--rev`` (default: the
last commit before the compiled build, the code the issue measured) with ``git archive``
into a temporary folder, then runs ``knockabout bench --json`` on that source and on
``build/compiled/src``, alternating which goes first each round, each in a fresh process.
It prints each figure's median per side and the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRST = "a953745^"  # the last commit before the compiled build (the code the issue measured)
METRICS = (  # field, label, higher is better
    ("steps_per_s", "random steps/s", True),
    ("ismcts_iters_per_s", "ISMCTS it/s", True),
    ("hard_ms_per_move", "hard ms/move", False),
)


def export(rev: str, into: Path) -> Path:
    """The ``src`` folder of ``rev``, unpacked below ``into``."""
    try:
        blob = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], check=True,
                              capture_output=True).stdout
    except subprocess.CalledProcessError as e:
        raise SystemExit(f"vs_first_build: cannot export {rev!r}: {e.stderr.decode().strip()}") from None
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def bench(src: Path, games: list[str], seconds: float) -> dict[str, dict[str, float]]:
    """``knockabout bench --json`` on the package under ``src``, by game."""
    out: dict[str, dict[str, float]] = {}
    env = {**os.environ, "PYTHONPATH": str(src)}
    for game in games:
        done = subprocess.run([sys.executable, "-m", "knockabout", "bench", "--json", "--seconds", str(seconds),
                               "--game", game], env=env, cwd=tempfile.gettempdir(), check=True,
                              capture_output=True, text=True)
        row = json.loads(done.stdout)[0]
        out[game] = {k: float(row[k]) for k, _, _ in METRICS}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=["nak-muay", "knockback", "knockdown"])
    ap.add_argument("--rev", default=FIRST, help=f"the earlier code (default {FIRST})")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds of random play and of search per game")
    args = ap.parse_args()
    compiled = ROOT / "build" / "compiled" / "src"
    if not any(compiled.rglob("*__mypyc*")):
        raise SystemExit("vs_first_build: no compiled build under build/compiled/src; run scripts/test-builds.sh first")
    with tempfile.TemporaryDirectory() as tmp:
        first = export(args.rev, Path(tmp))
        sides = {"first": first, "now": compiled}
        runs: dict[str, list[dict[str, dict[str, float]]]] = {"first": [], "now": []}
        for r in range(args.rounds):
            order = ["first", "now"] if r % 2 == 0 else ["now", "first"]
            for side in order:
                print(f"round {r + 1}/{args.rounds}: {side}", file=sys.stderr, flush=True)
                runs[side].append(bench(sides[side], args.games, args.seconds))
    print(f"{'game':<10} {'measure':<15} {'first':>10} {'now':>10} {'ratio':>7}")
    result = []
    for game in args.games:
        for key, label, higher in METRICS:
            a = [run[game][key] for run in runs["first"]]
            b = [run[game][key] for run in runs["now"]]
            ratios = [(y / x) if higher else (x / y) for x, y in zip(a, b, strict=True)]
            ratio = statistics.median(ratios)
            first_m, now_m = statistics.median(a), statistics.median(b)
            print(f"{game:<10} {label:<15} {first_m:>10,.0f} {now_m:>10,.0f} {ratio:>6.2f}x")
            result.append({"game": game, "measure": key, "first": a, "now": b, "ratio_median": ratio})
    out = ROOT / "benchmarks" / "results" / "vs_first_build.json"
    out.write_text(json.dumps({"rev": args.rev, "seconds": args.seconds, "rows": result}, indent=1) + "\n")
    print(f"(ratios: now over first, for hard ms first over now; saved in {out.relative_to(ROOT)})")


if __name__ == "__main__":
    main()
