"""Statistics for bot games: Wilson intervals, Bradley–Terry ratings on the Elo scale,
and bootstrap intervals. Pure Python; every random choice comes from a seeded
:class:`~knockabout.core.rng.Rng` so a report is reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from knockabout.core.rng import Rng

Z95 = 1.959963984540054
ELO_SCALE = 400.0 / math.log(10.0)


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95 % by default).

    ``successes`` may be fractional (a shared draw counts as a fraction of a win).
    With no trials the interval is the whole of [0, 1].
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes ({successes}) must lie between 0 and trials ({trials})")
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def paired_mean(diffs: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of paired differences (each match against its twin on the same deal) and
    its normal interval from their spread: ``(mean, low, high)``. One difference gives
    an interval of ±z (a difference of rates lies within ±1); none gives zeros."""
    n = len(diffs)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1)) if n > 1 else 1.0
    half = z * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


Pair = tuple[int, int, float]
"""One pairwise result: (player a, player b, a's score in [0, 1])."""


def bradley_terry(
    pairs: Sequence[Pair], players: int, prior: float = 0.5, iterations: int = 500, tol: float = 1e-10
) -> list[float]:
    """Bradley–Terry strengths fitted by minorization–maximization (Hunter 2004).

    ``prior`` adds that many virtual games, split evenly, between every two players
    so that an unbeaten player still gets a finite rating. Strengths are scaled to a
    geometric mean of 1.
    """
    wins = [[0.0] * players for _ in range(players)]
    for a, b, s in pairs:
        wins[a][b] += s
        wins[b][a] += 1.0 - s
    if prior > 0:
        for a in range(players):
            for b in range(players):
                if a != b:
                    wins[a][b] += prior / 2
    games = [[wins[a][b] + wins[b][a] for b in range(players)] for a in range(players)]
    total_wins = [sum(row) for row in wins]
    p = [1.0] * players
    for _ in range(iterations):
        new = []
        for a in range(players):
            denom = sum(games[a][b] / (p[a] + p[b]) for b in range(players) if b != a and games[a][b])
            new.append(total_wins[a] / denom if denom > 0 else p[a])
        log_mean = sum(math.log(max(x, 1e-300)) for x in new) / players
        scale = math.exp(log_mean)
        new = [x / scale for x in new]
        delta = max(abs(math.log(max(x, 1e-300)) - math.log(max(y, 1e-300))) for x, y in zip(new, p, strict=True))
        p = new
        if delta < tol:
            break
    return p


def elo_from_strengths(strengths: Sequence[float], anchor: int | None = None) -> list[float]:
    """Bradley–Terry strengths on the Elo scale (400 points = 10:1 odds).

    ``anchor`` gets 0; without one the mean rating is 0.
    """
    elo = [ELO_SCALE * math.log(max(s, 1e-300)) for s in strengths]
    shift = elo[anchor] if anchor is not None else sum(elo) / len(elo)
    return [e - shift for e in elo]


@dataclass(frozen=True)
class Rating:
    """An Elo-scale rating with its 95 % interval.

    ``unbounded`` is ``"above"`` or ``"below"`` when the games say nothing about how far
    the rating goes that way: the player won (or lost) every game it played against the
    others, or the anchor did. The numbers are then only the prior's (every bootstrap
    resample shows the same clean sweep, so the interval has no width), not a measurement.
    ``reason`` says which sweep it was. ``anchor`` marks the player rated 0 by definition.
    """

    elo: float
    low: float
    high: float
    unbounded: Literal["above", "below"] | None = None
    reason: str = ""
    anchor: bool = False


def sweeps(pairs: Sequence[Pair], players: int) -> list[Literal["won", "lost"] | None]:
    """Per player: ``"won"`` when it won every pairwise result it took part in, ``"lost"``
    when it lost every one, else None (also for a player in no result)."""
    score = [0.0] * players
    count = [0] * players
    for a, b, s in pairs:
        score[a] += s
        score[b] += 1.0 - s
        count[a] += 1
        count[b] += 1
    out: list[Literal["won", "lost"] | None] = []
    for p in range(players):
        if count[p] and score[p] == count[p]:
            out.append("won")
        elif count[p] and score[p] == 0:
            out.append("lost")
        else:
            out.append(None)
    return out


def _unbounded(
    swept: Sequence[Literal["won", "lost"] | None], anchor: int | None
) -> list[tuple[Literal["above", "below"] | None, str]]:
    """Which ratings the data leave unbounded, and why (see :class:`Rating`)."""
    out: list[tuple[Literal["above", "below"] | None, str]] = []
    for p, sweep in enumerate(swept):
        if p == anchor:
            out.append((None, ""))  # the anchor is 0 by definition
        elif sweep == "won":
            out.append(("above", "won every game"))
        elif sweep == "lost":
            out.append(("below", "lost every game"))
        elif anchor is not None and swept[anchor] == "lost":
            out.append(("above", "the anchor lost every game"))
        elif anchor is not None and swept[anchor] == "won":
            out.append(("below", "the anchor won every game"))
        else:
            out.append((None, ""))
    return out


def elo_ratings(
    games: Sequence[Sequence[Pair]],
    players: int,
    anchor: int | None = None,
    bootstrap: int = 200,
    seed: int = 0,
) -> list[Rating]:
    """Elo-scale Bradley–Terry ratings with 95 % bootstrap intervals.

    ``games`` holds, per game, its pairwise results (games are resampled whole).
    """
    flat = [pr for g in games for pr in g]
    point = elo_from_strengths(bradley_terry(flat, players), anchor)
    open_ends = _unbounded(sweeps(flat, players), anchor)
    if bootstrap <= 0 or not games:
        return [Rating(e, e, e, *open_ends[i], anchor=i == anchor) for i, e in enumerate(point)]
    rng = Rng(seed)
    samples: list[list[float]] = [[] for _ in range(players)]
    n = len(games)
    for _ in range(bootstrap):
        resampled = [pr for _ in range(n) for pr in games[rng.below(n)]]
        est = elo_from_strengths(bradley_terry(resampled, players, iterations=200, tol=1e-7), anchor)
        for i, e in enumerate(est):
            samples[i].append(e)
    out = []
    for i in range(players):
        s = sorted(samples[i])
        lo = s[int(0.025 * (len(s) - 1))]
        hi = s[math.ceil(0.975 * (len(s) - 1))]
        out.append(Rating(point[i], min(lo, point[i]), max(hi, point[i]), *open_ends[i], anchor=i == anchor))
    return out


def pairs_from_payoffs(bots: Sequence[int], payoffs: Sequence[float]) -> list[Pair]:
    """Pairwise results of one game between seats held by different bots.

    Seats a and b score ``pa / (pa + pb)`` for a (a sole winner beats everyone; a
    shared draw is half a win each); two seats that both scored nothing tell nothing.
    """
    out: list[Pair] = []
    n = len(bots)
    for i in range(n):
        for j in range(i + 1, n):
            if bots[i] == bots[j]:
                continue
            total = payoffs[i] + payoffs[j]
            if total <= 0:
                continue
            out.append((bots[i], bots[j], payoffs[i] / total))
    return out



@dataclass(frozen=True)
class WinRate:
    """A win rate: ``points`` (a win is 1, a shared draw a fraction) out of ``games``,
    with its interval ``low``-``high``."""

    label: str
    games: int
    points: float
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0
