"""Balance runs for KNOCKBACK packs: every pack against every other, both seat orders.

``python -m knockabout.games.knockback.balance --bot easy --games 20`` plays, for
each ordered pair of different packs, ``games`` seeded matches with the same bot
level on both sides, and prints:

* the matrix of win rates (row pack against column pack, draws count half);
* each pack's win rate against the field;
* the first-player edge: how often the player who starts a round (places first and
  fights first) wins it, over decisive rounds, and how often the first round's starter
  wins the match.

Seeds are fixed, so a run is reproducible for a given level and budget.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from knockabout.bots.levels import make_bot
from knockabout.core.bot import SeatView
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng, mix_seed
from knockabout.games.knockback.state import KnockbackState
from knockabout.sim.matrix import matrix_lines, pct, play_pairings
from knockabout.sim.stats import wilson


@dataclass
class PairResult:
    a: str
    b: str
    games: int = 0
    a_points: float = 0.0
    rounds: int = 0
    starter_round_wins: int = 0
    decisive_rounds: int = 0
    first_starter_points: float = 0.0
    seconds: float = 0.0
    draws: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def play_pair(a: str, b: str, games: int, bot: str, config: dict[str, Any], seed: int) -> PairResult:
    """``games`` matches with pack ``a`` in seat 0 and pack ``b`` in seat 1."""
    g = get_game("knockback")
    res = PairResult(a, b)
    t0 = time.perf_counter()
    for i in range(games):
        deal = mix_seed(seed, a, b, i)
        s = g.new_state({**config, "packs": [a, b]}, deal)
        assert isinstance(s, KnockbackState)
        bots = [make_bot(bot, "knockback"), make_bot(bot, "knockback")]
        rng = Rng(mix_seed(deal, "bots"))
        first_starter = s.starter
        starter = s.starter
        while True:
            d = s.to_act()
            if d is None:
                break
            action = bots[d.player].choose(SeatView(s, d.player), s.legal_actions(), rng)
            for e in s.apply(action):
                if e.type == "round_over":
                    res.rounds += 1
                    w = e.data["winner"]
                    if w is not None:
                        res.decisive_rounds += 1
                        res.starter_round_wins += int(w == starter)
                elif e.type == "round_start":
                    starter = int(e.data["starter"])
        out = s.outcome()
        assert out is not None
        res.games += 1
        res.a_points += out.payoffs[0]
        res.first_starter_points += out.payoffs[first_starter]
        res.draws += int(out.draw)
    res.seconds = time.perf_counter() - t0
    return res


def run(
    packs: Sequence[str],
    games: int,
    bot: str,
    config: dict[str, Any],
    seed: int,
    workers: int,
    on_done: Callable[[PairResult], None] | None = None,
) -> list[PairResult]:
    """Every ordered pair of different packs, ``games`` matches each."""
    return play_pairings(packs, play_pair, (games, bot, config, seed), workers, on_done)


def report(packs: Sequence[str], results: Sequence[PairResult]) -> str:
    """The matrix, each pack against the field, and the first-player edge, as Markdown."""
    lines = matrix_lines(packs, results, "pack", lambda p: p.split("-")[0])
    games = sum(r.games for r in results)
    seat0 = sum(r.a_points for r in results) / games
    decisive = sum(r.decisive_rounds for r in results)
    starter = sum(r.starter_round_wins for r in results) / max(1, decisive)
    first = sum(r.first_starter_points for r in results) / games
    rounds = sum(r.rounds for r in results)
    draws = sum(r.draws for r in results)
    starter_ci = wilson(sum(r.starter_round_wins for r in results), decisive)
    first_ci = wilson(sum(r.first_starter_points for r in results), games)
    secs = sum(r.seconds for r in results)
    lines += [
        "",
        f"{games} matches, {rounds} rounds ({decisive} decisive), {draws} drawn matches, {secs:.0f} s of play.",
        f"First-player edge: the first round's starter scores {100 * first:.1f}% of matches "
        f"(95 % interval {pct(first_ci)}; edge {100 * (first - 0.5):+.1f} points over an even share); "
        f"seat A scores {100 * seat0:.1f}%.",
        f"Inside a round: the round's starter wins {100 * starter:.1f}% of decisive rounds ({pct(starter_ci)}).",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:  # pragma: no cover - a command-line tool
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--bot", default="easy")
    ap.add_argument("--games", type=int, default=10, help="matches per ordered pair of packs")
    ap.add_argument("--scoring", default="tug")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--packs", nargs="*", default=None, help="pack ids (default: every pack available)")
    ap.add_argument("--pack-files", nargs="*", default=[], help="extra pack files or directories")
    args = ap.parse_args(argv)
    from knockabout.games.knockback.content import available_packs

    packs = args.packs or [p.id for p in available_packs(args.pack_files)]
    config = {"scoring": args.scoring, "pack_files": list(args.pack_files)}
    results = run(packs, args.games, args.bot, config, args.seed, args.workers)
    print(report(packs, results))


if __name__ == "__main__":  # pragma: no cover
    main()
