"""Summaries of simulation results: per seat, per first-mover position, per bot.

:func:`summarize` works from saved results alone, so a file reopened later gives
the same report (thinking times included, as measured when it was made).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from knockabout.core.rng import mix_seed
from knockabout.sim.results import SimResults
from knockabout.sim.stats import Rating, WinRate, elo_ratings, pairs_from_payoffs, wilson

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


RateLine = WinRate
"""A win rate with its 95 % Wilson interval."""


@dataclass(frozen=True)
class BotLine(RateLine):
    rating: Rating | None = None
    ms_per_move: float = 0.0
    moves: int = 0


@dataclass
class Summary:
    game: str
    players: int
    games: int
    draws: int
    mean_length: float
    median_length: float
    length_unit: str
    seconds: float
    seats: list[RateLine] = field(default_factory=list)
    first_mover: list[RateLine] = field(default_factory=list)
    bots: list[BotLine] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


def _rate(label: str, points: float, games: int) -> RateLine:
    lo, hi = wilson(points, games)
    return RateLine(label, games, points, lo, hi)


def summarize(results: SimResults, bootstrap: int = 200) -> Summary:
    meta = results.meta
    games = results.games
    n = int(meta["players"])
    lengths = [g.length for g in games]
    seat_points = [0.0] * n
    pos_points = [0.0] * n
    pos_games = [0] * n
    for g in games:
        for s in range(n):
            seat_points[s] += g.payoffs[s]
        if g.first >= 0:
            for s in range(n):
                pos = (s - g.first) % n
                pos_points[pos] += g.payoffs[s]
                pos_games[pos] += 1
    total = len(games)
    summary = Summary(
        game=str(meta["game"]),
        players=n,
        games=total,
        draws=sum(1 for g in games if g.draw),
        mean_length=statistics.fmean(lengths) if lengths else 0.0,
        median_length=float(statistics.median(lengths)) if lengths else 0.0,
        length_unit=str(meta.get("length_unit", "decisions")),
        seconds=float(meta.get("seconds", 0.0)),
        seats=[_rate(f"seat {s + 1}", seat_points[s], total) for s in range(n)],  # people count from 1
        first_mover=[
            _rate(f"{ORDINALS[p] if p < len(ORDINALS) else p + 1} to play", pos_points[p], pos_games[p])
            for p in range(n)
            if pos_games[p]
        ],
    )
    names = list(dict.fromkeys(name for g in games for name in g.bots))
    index = {name: i for i, name in enumerate(names)}
    b_points = [0.0] * len(names)
    b_games = [0] * len(names)
    b_think = [0.0] * len(names)
    b_moves = [0] * len(names)
    per_game_pairs = []
    for g in games:
        ids = [index[b] for b in g.bots]
        for s, b in enumerate(ids):
            b_points[b] += g.payoffs[s]
            b_games[b] += 1
            b_think[b] += g.think[s]
            b_moves[b] += g.moves[s]
        per_game_pairs.append(pairs_from_payoffs(ids, g.payoffs))
    ratings: list[Rating | None] = [None] * len(names)
    if len(names) > 1:
        anchor = index.get("random")
        seed = mix_seed(int(meta.get("seed", 0)), "bootstrap")
        ratings = list(elo_ratings(per_game_pairs, len(names), anchor, bootstrap, seed))
    for b, name in enumerate(names):
        lo, hi = wilson(b_points[b], b_games[b])
        summary.bots.append(
            BotLine(
                name,
                b_games[b],
                b_points[b],
                lo,
                hi,
                ratings[b],
                1000.0 * b_think[b] / b_moves[b] if b_moves[b] else 0.0,
                b_moves[b],
            )
        )
    return summary


@dataclass(frozen=True)
class CompareLine:
    label: str
    rates: list[RateLine | None]


def compare(summaries: list[Summary]) -> list[CompareLine]:
    """Line up the per-bot (or, for single-bot runs, per-seat) win rates of several runs."""
    def lines(s: Summary) -> list[RateLine]:
        return list(s.bots) if len(s.bots) > 1 else list(s.seats)

    labels = list(dict.fromkeys(line.label for s in summaries for line in lines(s)))
    out = []
    for label in labels:
        row: list[RateLine | None] = []
        for s in summaries:
            row.append(next((x for x in lines(s) if x.label == label), None))
        out.append(CompareLine(label, row))
    return out
