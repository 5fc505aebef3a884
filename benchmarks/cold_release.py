"""How long `hard` bots think on a cold server table, against when their moves are due.

A steady table (what `knockabout serve` makes) releases a bot's move ``bot_pace`` seconds
after its decision opened, or later if its learned floor (1.25 x the longest recent
thinking) says so. A table that has seen no thinking yet has no floor: a search longer
than the pace would then show once. The table caps each search at 0.6 of the pace
(``THINK_SHARE``); ``--no-cap`` turns the cap off to show the difference.

    .venv/bin/python benchmarks/cold_release.py --moves 40
    .venv/bin/python benchmarks/cold_release.py --moves 40 --no-cap --busy 2

``--busy N`` runs N busy processes beside it, as other tables' work would on a loaded server.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time

from knockabout.table import Seat, Table

GAMES = ("nak-muay", "knockdown", "knockback")


def spin(until: float) -> None:
    while time.monotonic() < until:
        pass


def measure(game_id: str, moves: int, pace: float, cap: bool, seed: int) -> tuple[list[float], list[float]]:
    """Thinking times and release waits (seconds after each decision opened)."""
    seats = [Seat("bot", "A", "hard"), Seat("bot", "B", "hard")]
    table = Table(game_id, seats, {}, seed, bot_pace=pace, bot_delay=pace, steady_bots=True, challenges={})
    if not cap:
        table._think_by = lambda d: None  # type: ignore[method-assign]
    thinking: list[float] = []
    waits: list[float] = []
    while len(thinking) < moves and not table.over:
        opened = table.clock()
        thought = table.think()
        if thought is None:  # a person's decision never comes here; a finished plan: release it
            table.tick(think=False)
            continue
        thought.run()
        table.accept(thought)
        due = table.next_due()
        assert due is not None
        thinking.append(thought.ready_after)
        waits.append(due - opened)
        time.sleep(max(0.0, due - table.clock()))
        while not table.tick(think=False):
            time.sleep(0.001)
    return thinking, waits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=40, help="bot moves measured per game (a fresh table each game)")
    ap.add_argument("--pace", type=float, default=0.9, help="bot_pace in seconds (the server's default: 0.9)")
    ap.add_argument("--no-cap", action="store_true", help="let searches run their full budget")
    ap.add_argument("--busy", type=int, default=0, help="busy processes beside the measurement")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    until = time.monotonic() + 3600
    busy = [multiprocessing.Process(target=spin, args=(until,), daemon=True) for _ in range(args.busy)]
    for p in busy:
        p.start()
    try:
        print(f"pace {args.pace} s, cap {'off' if args.no_cap else 'on'}, {args.busy} busy processes")
        print(f"{'game':<10} {'moves':>5} {'think p50':>9} {'think max':>9} {'over pace':>9} {'wait max':>8}")
        for game_id in GAMES:
            thinking, waits = measure(game_id, args.moves, args.pace, not args.no_cap, args.seed)
            over = sum(t > args.pace for t in thinking)
            print(f"{game_id:<10} {len(thinking):>5} {statistics.median(thinking) * 1000:>7.0f}ms "
                  f"{max(thinking) * 1000:>7.0f}ms {over:>9} {max(waits):>7.2f}s")
    finally:
        for p in busy:
            p.terminate()


if __name__ == "__main__":
    main()
