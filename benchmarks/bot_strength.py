"""The bot-strength bars of issue 3, on 2-player Nak Muay Knockout.

    hard beats random in >= 95 % of games, hard beats easy in >= 65 %, easy beats random in >= 70 %

Each pairing plays seat-balanced paired deals (both seat orders on every deal) through
``knockabout.sim``; the win rate comes with its 95 % Wilson interval. Results are saved
next to this script (``results/``) so ``knockabout report`` can reopen them.

    .venv/bin/python benchmarks/bot_strength.py --games 400 --workers 2
    .venv/bin/python benchmarks/bot_strength.py --only easy-random --games 1000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from knockabout.sim import SimSpec, run, summarize

BARS = {
    "hard-random": ("hard", "random", 0.95),
    "hard-easy": ("hard", "easy", 0.65),
    "easy-random": ("easy", "random", 0.70),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=400, help="games per pairing (both seat orders per deal)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", choices=sorted(BARS), action="append", help="run only these pairings")
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("results"))
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    failed = 0
    lines = []
    for name in args.only or list(BARS):
        bot, rival, bar = BARS[name]
        spec = SimSpec("nak-muay", players=2, games=args.games, seed=args.seed, bots=(bot, rival))
        t0 = time.perf_counter()
        results = run(spec, workers=args.workers)
        results.save(args.out / f"bot_strength-{name}.json")
        summary = summarize(results)
        line = next(b for b in summary.bots if b.label == bot)
        ok = line.rate >= bar
        failed += not ok
        text = (
            f"{bot} vs {rival}: {100 * line.rate:.1f}% of {line.games} games "
            f"(95% Wilson {100 * line.low:.1f}-{100 * line.high:.1f}%), bar {100 * bar:.0f}%: "
            f"{'PASS' if ok else 'FAIL'}; {line.ms_per_move:.0f} ms/decision for {bot}; "
            f"{time.perf_counter() - t0:.0f} s"
        )
        lines.append(text)
        print(text, flush=True)
    print("\n".join(["", "summary:", *lines]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
