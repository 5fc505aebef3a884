"""Content balance matrices: every entrant (a pack, a fighter) against every other.

The balance runner (:mod:`knockabout.sim.balance_run`) plays the matches; this module
turns the results into a Markdown matrix with each entrant's rate against the field.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from knockabout.sim.stats import wilson


class Pairing(Protocol):
    """Matches of entrant ``a`` (seat 0) against entrant ``b`` (seat 1)."""

    a: str
    b: str
    games: int
    a_points: float


def pct(ci: tuple[float, float]) -> str:
    """A 95 % interval as ``lo–hi%``."""
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def matrix_lines(
    entrants: Sequence[str], results: Sequence[Pairing], kind: str, short: Callable[[str], str]
) -> list[str]:
    """The Markdown table: row entrant's match win rate against each column entrant (both
    seat orders, draws count half), then against the field with its Wilson interval (a
    pairing the run did not play, as in an ablation of some cards only, shows ``·``)."""
    rate: dict[tuple[str, str], list[float]] = {}
    for r in results:
        for key, points in (((r.a, r.b), r.a_points), ((r.b, r.a), r.games - r.a_points)):
            cell = rate.setdefault(key, [0.0, 0.0])
            cell[0] += points
            cell[1] += r.games
    lines = [
        f"| {kind} \\ vs | " + " | ".join(short(e) for e in entrants) + " | field | 95 % interval |",
        "|---" * (len(entrants) + 3) + "|",
    ]
    for a in entrants:
        cells = []
        pts = tot = 0.0
        for b in entrants:
            if a == b:
                cells.append("—")
                continue
            if (a, b) not in rate:
                cells.append("·")
                continue
            p, n = rate[(a, b)]
            pts += p
            tot += n
            cells.append(f"{100 * p / n:.0f}%")
        field = f"**{100 * pts / tot:.1f}%** | {pct(wilson(pts, tot))}" if tot else "— | —"
        lines.append(f"| {a} | " + " | ".join(cells) + f" | {field} |")
    return lines
