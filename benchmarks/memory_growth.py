"""What grew between two of a server's tracemalloc snapshots (``benchmarks/load.py
--trace-memory DIR``, see ``knockabout.server.memory_probe``): the allocation sites whose
memory grew most, with the lines of knockabout (or the library) that made them, and the
garbage a full collection found at each snapshot.

    .venv/bin/python benchmarks/memory_growth.py DIR                 # the 2nd snapshot against the last
    .venv/bin/python benchmarks/memory_growth.py A.snapshot B.snapshot --top 30
"""

from __future__ import annotations

import argparse
import json
import tracemalloc
from pathlib import Path

IGNORED = (tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
           tracemalloc.Filter(False, "<frozen importlib._bootstrap_external>"), tracemalloc.Filter(False, "<unknown>"))


def where(frames: tracemalloc.Traceback, lines: int) -> str:
    """The innermost ``lines`` frames, knockabout's first if any."""
    ours = [f for f in frames if "knockabout" in f.filename]
    shown = (ours or list(frames))[:lines]
    return " <- ".join(f"{_short(f.filename)}:{f.lineno}" for f in shown)


def _short(filename: str) -> str:
    for mark in ("/knockabout/", "/site-packages/", "/lib/python3"):
        if mark in filename:
            return filename.split(mark, 1)[1]
    return filename


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="a folder of snapshots, or two snapshot files")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--frames", type=int, default=3, help="frames shown per allocation site")
    args = ap.parse_args()
    if len(args.paths) == 1:
        found = sorted(Path(args.paths[0]).glob("memory-*.snapshot"))
        if len(found) < 2:
            raise SystemExit(f"{args.paths[0]}: fewer than two snapshots")
        first, last = found[1 if len(found) > 2 else 0], found[-1]  # (the first is the start: caches filling)
    elif len(args.paths) == 2:
        first, last = Path(args.paths[0]), Path(args.paths[1])
    else:
        raise SystemExit("give a folder, or two snapshot files")
    for path in sorted({*first.parent.glob("memory-*-garbage.json")}):
        g = json.loads(path.read_text())
        kinds = ", ".join(f"{k.rsplit('.', 1)[-1]} {v}" for k, v in list(g["by_type"].items())[:6])
        print(f"{path.name}: traced {g['traced_bytes'] / 2**20:.1f} MB; a full collection then found "
              f"{g['unreachable']} unreachable objects ({kinds})")
    a = tracemalloc.Snapshot.load(str(first)).filter_traces(IGNORED)
    b = tracemalloc.Snapshot.load(str(last)).filter_traces(IGNORED)
    total_a = sum(s.size for s in a.statistics("filename"))
    total_b = sum(s.size for s in b.statistics("filename"))
    print(f"\n{first.name} -> {last.name}: traced {total_a / 2**20:.1f} -> {total_b / 2**20:.1f} MB "
          f"({(total_b - total_a) / 2**20:+.1f} MB)\n")
    print("    growth       now   blocks  where (innermost first)")
    for stat in b.compare_to(a, "traceback")[:args.top]:
        print(f"{stat.size_diff / 2**20:+8.2f} MB {stat.size / 2**20:7.2f} MB {stat.count_diff:+8d}  "
              f"{where(stat.traceback, args.frames)}")


if __name__ == "__main__":
    main()
