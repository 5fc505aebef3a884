"""Quick match under a crowd: 300 people arriving at random, through the real queue.

Drives :class:`knockabout.ladder.matching.MatchQueue` (the server's own queue logic)
with a simulated clock: people arrive as a Poisson process over ``--minutes``, with
ratings drawn from a normal distribution on the shown scale (mean 1500), and wait until
the queue seats them, with people or, after ``--bot-after`` seconds, with bots. Reports
the median and 95th percentile of the waits, how far apart the people seated together
were (their rating span), and how many tables got bots. Deterministic for a seed.

    .venv/bin/python benchmarks/queue_sim.py                      # the default grid
    .venv/bin/python benchmarks/queue_sim.py --people 300 --minutes 10 --players 2
    .venv/bin/python benchmarks/queue_sim.py --json benchmarks/results/queue_sim.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from knockabout.ladder.matching import BOT_AFTER, MatchPolicy, MatchQueue, Pairing


@dataclass
class Result:
    people: int
    players: int
    minutes: float
    seed: int
    tables: int
    bot_tables: int
    seated_with_bots: int  # people seated at a table with at least one bot
    wait_median: float
    wait_p95: float
    wait_max: float
    gap_median: float  # rating span of the people at tables of people only
    gap_p95: float
    gap_max: float


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank), 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def simulate(people: int, players: int, minutes: float, seed: int, policy: MatchPolicy,
             spread: float = 250.0) -> Result:
    rng = random.Random(seed)
    clock = FakeClock()
    queue = MatchQueue(players, clock, policy)
    rate = people / (minutes * 60.0)  # arrivals per second
    arrivals: list[tuple[float, float]] = []
    t = 0.0
    for _ in range(people):
        t += rng.expovariate(rate)
        arrivals.append((t, rng.gauss(1500.0, spread)))
    pairings: list[Pairing] = []
    i = 0
    while i < len(arrivals) or len(queue):
        next_arrival = arrivals[i][0] if i < len(arrivals) else None
        due = queue.next_due()
        times = [x for x in (next_arrival, due) if x is not None]
        clock.now = max(clock.now, min(times))
        if next_arrival is not None and clock.now >= next_arrival:
            queue.join(f"t{i}", f"p{i}", arrivals[i][1])
            i += 1
        pairings.extend(queue.match())
    waits = [w for p in pairings for w in p.waits]
    people_only = [p.gap for p in pairings if p.bots == 0]
    with_bots = [p for p in pairings if p.bots]
    return Result(
        people=people, players=players, minutes=minutes, seed=seed, tables=len(pairings),
        bot_tables=len(with_bots), seated_with_bots=sum(len(p.tickets) for p in with_bots),
        wait_median=statistics.median(waits), wait_p95=percentile(waits, 95), wait_max=max(waits),
        gap_median=statistics.median(people_only) if people_only else 0.0,
        gap_p95=percentile(people_only, 95), gap_max=max(people_only, default=0.0),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--people", type=int, default=300)
    ap.add_argument("--players", default="2,4", help="seats per table, comma-separated (a queue each)")
    ap.add_argument("--minutes", default="5,30,120", help="the arrivals spread over this long, comma-separated")
    ap.add_argument("--seeds", type=int, default=5, help="runs per cell (seeds 1..N), results averaged")
    ap.add_argument("--bot-after", type=float, default=BOT_AFTER)
    ap.add_argument("--window", type=float, default=MatchPolicy.window)
    ap.add_argument("--widen", type=float, default=MatchPolicy.widen)
    ap.add_argument("--max-window", type=float, default=MatchPolicy.max_window)
    ap.add_argument("--spread", type=float, default=250.0, help="standard deviation of the people's ratings")
    ap.add_argument("--json", type=Path, help="write every run's numbers here")
    args = ap.parse_args(argv)
    policy = MatchPolicy(args.window, args.widen, args.max_window, args.bot_after)
    print(f"policy: window {policy.window:g} points, +{policy.widen:g}/s up to {policy.max_window:g}, "
          f"bots after {policy.bot_after:g} s; ratings N(1500, {args.spread:g}); "
          f"{args.people} people, {args.seeds} seeds per line (mean of the seeds)")
    print(f"{'seats':>5} {'arrive over':>11} {'tables':>6} {'with bots':>9} {'people w/ bots':>14} "
          f"{'wait p50':>8} {'wait p95':>8} {'wait max':>8} {'gap p50':>7} {'gap p95':>7} {'gap max':>7}")
    runs: list[Result] = []
    for players in (int(x) for x in args.players.split(",")):
        for minutes in (float(x) for x in args.minutes.split(",")):
            cell = [simulate(args.people, players, minutes, seed, policy, args.spread)
                    for seed in range(1, args.seeds + 1)]
            runs.extend(cell)

            def mean(field: str, cell: list[Result] = cell) -> float:
                return statistics.fmean(float(getattr(r, field)) for r in cell)

            print(f"{players:>5} {minutes:>8g} min {mean('tables'):>6.1f} {mean('bot_tables'):>9.1f} "
                  f"{100 * mean('seated_with_bots') / args.people:>13.1f}% "
                  f"{mean('wait_median'):>7.1f}s {mean('wait_p95'):>7.1f}s {mean('wait_max'):>7.1f}s "
                  f"{mean('gap_median'):>7.0f} {mean('gap_p95'):>7.0f} {mean('gap_max'):>7.0f}")
    if args.json:
        args.json.write_text(json.dumps({"policy": asdict(policy), "spread": args.spread,
                                         "runs": [asdict(r) for r in runs]}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
