"""The numbers of a balance report, as plain data: what the Markdown, HTML, CSV and JSON
reports show.

For each group: the pairing matrix (row entrant's points against each column entrant,
both seat orders, with the count), each entrant against the field, the first-player
edge (of matches, and of rounds for games with rounds), the distribution of match
lengths, draws per pairing, and per-card statistics.

Per-card statistics come only from the watcher's :attr:`MatchMetrics.cards` (each seat's
cards with times drawn and played): for each entrant and card, the times drawn and
played over all matches, the matches where the entrant's side played it, that side's win
rate in them with its Wilson interval, and its difference from the entrant's average
(the interval shifted by that average): a card whose interval lies above zero wins games
for the entrant that plays it.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from knockabout.core.plugins import BalanceMatch, EntrantGroup
from knockabout.sim.results import write_results_file
from knockabout.sim.stats import wilson


@dataclass(frozen=True)
class Rate:
    """``points`` out of ``n`` with its 95 % Wilson interval."""

    points: float
    n: int
    low: float
    high: float

    @classmethod
    def of(cls, points: float, n: int) -> Rate:
        lo, hi = wilson(points, n)
        return cls(points, n, lo, hi)

    @property
    def rate(self) -> float:
        return self.points / self.n if self.n else 0.0


@dataclass(frozen=True)
class Cell:
    row: str
    col: str
    rate: Rate
    draws: int


@dataclass(frozen=True)
class CardLine:
    entrant: str
    card: str
    drawn: int
    played: int
    side: Rate
    """The entrant's side in the matches where it played the card."""
    average: float
    """The entrant's rate over all its matches."""

    @property
    def diff(self) -> float:
        return self.side.rate - self.average

    @property
    def diff_low(self) -> float:
        return self.side.low - self.average

    @property
    def diff_high(self) -> float:
        return self.side.high - self.average


@dataclass(frozen=True)
class CardEffect:
    """A card's effect on an entrant's rate, by paired ablation."""

    group: str
    entrant: str
    card: str
    matches: int
    """The entrant's matches in the comparison (each played with the card and without)."""
    rate: float
    """The entrant's rate with the card."""
    without: float
    """Its rate on the same deals with the card replaced by the neutral stand-in."""
    effect: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Any) -> CardEffect:
        return cls(str(d["group"]), str(d["entrant"]), str(d["card"]), int(d["matches"]), float(d["rate"]),
                   float(d["without"]), float(d["effect"]), float(d["low"]), float(d["high"]))


@dataclass
class GroupTables:
    title: str
    kind: str
    entrants: list[str]
    labels: list[str]
    matrix: list[Cell] = field(default_factory=list)
    fieldrates: dict[str, Rate] = field(default_factory=dict)
    first: Rate = field(default_factory=lambda: Rate.of(0, 0))
    first_rounds: Rate | None = None
    lengths: list[int] = field(default_factory=list)
    draws: list[Cell] = field(default_factory=list)
    cards: list[CardLine] = field(default_factory=list)
    effects: list[CardEffect] = field(default_factory=list)
    """Each card's effect by ablation, largest first (empty: no ablation was run)."""

    def effect_of(self, entrant: str, card: str) -> CardEffect | None:
        return next((e for e in self.effects if (e.entrant, e.card) == (entrant, card)), None)


def tables(group: EntrantGroup, matches: Sequence[BalanceMatch], kind: str, label: Any,
           effects: Sequence[CardEffect] = ()) -> GroupTables:
    """Every table of one group from its matches (``label``: an entrant's short name;
    ``effects``: an ablation's, of every group — this group's are kept)."""
    out = GroupTables(group.title, kind, list(group.entrants), [label(e) for e in group.entrants])
    out.effects = sorted((e for e in effects if e.group == group.title), key=lambda e: -e.effect)
    cell: dict[tuple[str, str], list[float]] = {}
    side_pts: dict[str, list[float]] = {}
    for m in matches:
        for seat, (me, other) in enumerate(((m.a, m.b), (m.b, m.a))):
            c = cell.setdefault((me, other), [0.0, 0, 0])
            c[0] += m.payoffs[seat]
            c[1] += 1
            c[2] += int(m.draw)
            s = side_pts.setdefault(me, [0.0, 0])
            s[0] += m.payoffs[seat]
            s[1] += 1
    for a in group.entrants:
        for b in group.entrants:
            if a != b and (a, b) in cell:
                p, n, d = cell[(a, b)]
                out.matrix.append(Cell(a, b, Rate.of(p, int(n)), int(d)))
        if a in side_pts:
            out.fieldrates[a] = Rate.of(side_pts[a][0], int(side_pts[a][1]))
    for i, a in enumerate(group.entrants):
        for b in group.entrants[i + 1 :]:
            if (a, b) in cell:
                n = int(cell[(a, b)][1])
                out.draws.append(Cell(a, b, Rate.of(cell[(a, b)][2], n), int(cell[(a, b)][2])))
    out.first = Rate.of(sum(m.payoffs[m.metrics.first] for m in matches), len(matches))
    rounds = [r for m in matches for r in m.metrics.rounds if r[1] is not None]
    if any(m.metrics.rounds for m in matches):
        out.first_rounds = Rate.of(sum(s == w for s, w in rounds), len(rounds))
    out.lengths = [m.length for m in matches]
    out.cards = _cards(matches, {e: r.rate for e, r in out.fieldrates.items()})
    return out


def _cards(matches: Sequence[BalanceMatch], average: dict[str, float]) -> list[CardLine]:
    tally: dict[tuple[str, str], list[float]] = {}  # drawn, played, matches played in, points there
    for m in matches:
        for seat, cards in enumerate(m.metrics.cards):
            me = m.a if seat == 0 else m.b
            for name, (drawn, played) in cards.items():
                t = tally.setdefault((me, name), [0, 0, 0, 0.0])
                t[0] += drawn
                t[1] += played
                if played:
                    t[2] += 1
                    t[3] += m.payoffs[seat]
    return [
        CardLine(e, c, int(t[0]), int(t[1]), Rate.of(t[3], int(t[2])), average[e])
        for (e, c), t in sorted(tally.items())
    ]


def tables_json(all_tables: Sequence[GroupTables], meta: dict[str, Any]) -> str:
    """Every table as JSON (rates with their intervals; cards with their differences)."""
    def group(t: GroupTables) -> dict[str, Any]:
        d = asdict(t)
        d["fieldrates"] = [{"entrant": e, **asdict(r), "rate": r.rate} for e, r in t.fieldrates.items()]
        d["cards"] = [{**asdict(c), "diff": c.diff, "diff_low": c.diff_low, "diff_high": c.diff_high}
                      for c in t.cards]
        d["effects"] = [e.to_dict() for e in t.effects]
        return d

    return json.dumps({"meta": meta, "groups": [group(t) for t in all_tables]}, indent=1)


CSV_COLUMNS = ("group", "table", "entrant", "other", "n", "points", "rate", "low", "high", "drawn", "played",
               "diff", "diff_low", "diff_high")


def tables_csv(all_tables: Sequence[GroupTables]) -> str:
    """Every table as one CSV, a row per number, the ``table`` column saying which."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)

    def rate(r: Rate) -> list[Any]:
        return [r.n, r.points, r.rate, r.low, r.high]

    for t in all_tables:
        for c in t.matrix:
            w.writerow([t.title, "matrix", c.row, c.col, *rate(c.rate), "", "", "", "", ""])
        for e, r in t.fieldrates.items():
            w.writerow([t.title, "field", e, "", *rate(r), "", "", "", "", ""])
        w.writerow([t.title, "first_player", "", "", *rate(t.first), "", "", "", "", ""])
        if t.first_rounds is not None:
            w.writerow([t.title, "first_player_rounds", "", "", *rate(t.first_rounds), "", "", "", "", ""])
        for c in t.draws:
            w.writerow([t.title, "draws", c.row, c.col, *rate(c.rate), "", "", "", "", ""])
        for n in t.lengths:
            w.writerow([t.title, "length", "", "", "", n, "", "", "", "", "", "", "", ""])
        for k in t.cards:
            w.writerow([t.title, "card", k.entrant, k.card, *rate(k.side), k.drawn, k.played,
                        k.diff, k.diff_low, k.diff_high])
        for x in t.effects:  # rate: with the card; diff: the effect (rate - rate with the stand-in)
            w.writerow([t.title, "ablation", x.entrant, x.card, x.matches, "", x.rate, "", "", "", "",
                        x.effect, x.low, x.high])
    return buf.getvalue()


def write_tables(path: Path, all_tables: Sequence[GroupTables], meta: dict[str, Any]) -> None:
    """``.csv``: :func:`tables_csv`; anything else: :func:`tables_json`."""
    text = tables_csv(all_tables) if path.suffix.lower() == ".csv" else tables_json(all_tables, meta)
    write_results_file(path, text)
