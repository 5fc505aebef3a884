"""Stopping when the answer is known: ``--until-ci W``.

A run with ``--until-ci W`` plays *rounds* (a round is one paired deal of a sim run, or
one match of every ordered pairing of a balance run) and looks at its results after
``n_1 < n_2 < …`` rounds, each look about 1.5 times the last, up to the ``--max-games``
cap. It stops at the first look where every reported win rate's interval is at most
±W points.

Looking again and again at a growing sample and stopping when the interval looks narrow
would make a plain 95 % interval lie: over many looks, the chance that *some* look's
interval misses the true rate is well above 5 %. So look ``k`` spends only
``alpha_k = 0.05 / (k (k + 1))`` of the error budget (an alpha-spending rule; the
``alpha_k`` add up to 0.05 over any number of looks, a union bound), and the interval at
look ``k`` is the Wilson interval at level ``1 - alpha_k``. Whatever look the run stops
at, its intervals cover the true rates with at least 95 % probability, each. Because the
looks are geometric, ``k`` grows only like the logarithm of the run's length and the
price is modest: at the 5th look the intervals are about 1.5 times as wide as a plain
95 % interval of the same sample.

Games of one round are not independent (a deal is played in every seat order), so the
interval uses the round as its sampling unit: the Wilson interval is taken over the
*effective* number of games, the games divided by the design effect (the variance of the
rate estimated from round totals over its variance for independent games; at least 1).

Looks happen at fixed round counts and read only the rounds before them, so where a run
stops depends on its results alone, never on the backend, the worker count or a resume.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from statistics import NormalDist

from knockabout.sim.stats import WinRate, wilson

ALPHA = 0.05
GROWTH = 1.5


def look_alpha(look: int, alpha: float = ALPHA) -> float:
    """The error spent at look ``look`` (1-based)."""
    return alpha / (look * (look + 1))


def z_for(alpha: float) -> float:
    """The two-sided normal quantile of an interval at level ``1 - alpha``."""
    return NormalDist().inv_cdf(1.0 - alpha / 2.0)


def looks(first: int, cap: int, step: int = 1) -> Iterator[int]:
    """The round counts at which a run looks: ``first``, then about ×1.5 each time, the
    last one ``cap``; every count a multiple of ``step`` (the work block) or ``cap``."""
    n = min(cap, max(step, math.ceil(first / step) * step))
    while True:
        yield n
        if n >= cap:
            return
        n = min(cap, math.ceil(n * GROWTH / step) * step)


Estimate = WinRate
"""A win rate seen by a sequential run, and its interval at the look's level."""


def design_effect(rounds: Sequence[tuple[float, int]]) -> float:
    """Variance of the rate from round totals ``(points, games)`` over the variance for
    independent games (at least 1)."""
    games = sum(g for _, g in rounds)
    k = sum(1 for _, g in rounds if g)
    if games == 0 or k < 2:
        return 1.0
    rate = sum(p for p, _ in rounds) / games
    binomial = rate * (1.0 - rate) / games
    if binomial <= 0.0:
        return 1.0
    clustered = sum((p - rate * g) ** 2 for p, g in rounds) / games**2 * k / (k - 1)
    return max(1.0, clustered / binomial)


def estimate(label: str, rounds: Sequence[tuple[float, int]], alpha: float) -> Estimate:
    """The rate over ``rounds`` (points and games of each round) with its interval at
    level ``1 - alpha``, over the effective number of games."""
    points = sum(p for p, _ in rounds)
    games = sum(g for _, g in rounds)
    deff = design_effect(rounds)
    lo, hi = wilson(points / deff, games / deff, z_for(alpha)) if games else (0.0, 1.0)
    return Estimate(label, games, points, lo, hi)


def widest(estimates: Sequence[Estimate]) -> float:
    """The largest half-width among ``estimates`` (1 when there are none)."""
    return max((e.half_width for e in estimates), default=1.0)
