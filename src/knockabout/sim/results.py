"""Simulation results: one row per game, saved as JSON or CSV and read back unchanged.

JSON: ``{"format": "knockabout-sim/1", "meta": {...}, "games": [{...}, ...]}``.

CSV: the first line is ``# knockabout-sim/1 `` followed by the metadata as JSON; then
a header and one row per game. List columns (``bots``, ``winners``, ``payoffs``,
``think``, ``moves``) hold their items separated by ``|``; floats are written in full
so that reading a file back gives exactly what was written.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from knockabout.core.errors import KnockaboutError

FORMAT = "knockabout-sim/1"
CSV_PREFIX = f"# {FORMAT} "


class ResultsError(KnockaboutError):
    """A results file cannot be read or written."""


def write_results_file(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``: a results file or a report; a
    :class:`ResultsError` naming the file and why when it cannot be written."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ResultsError(f"cannot write {path}: {exc.strerror}") from None


@dataclass
class GameResult:
    index: int
    deal: int
    seed: int
    bots: list[str]
    winners: list[int]
    payoffs: list[float]
    draw: bool
    length: int
    decisions: int
    first: int
    think: list[float]
    moves: list[int]
    reason: str = ""

    def outcome_key(self) -> tuple[Any, ...]:
        """Everything but the measured thinking times (which depend on the machine)."""
        d = asdict(self)
        d.pop("think")
        return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in d.items())


_LISTS = {"bots": str, "winners": int, "payoffs": float, "think": float, "moves": int}
_SCALARS = {"index": int, "deal": int, "seed": int, "length": int, "decisions": int, "first": int, "reason": str}
COLUMNS = [f.name for f in fields(GameResult)]


@dataclass
class SimResults:
    meta: dict[str, Any]
    games: list[GameResult] = field(default_factory=list)

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "meta": self.meta, "games": [asdict(g) for g in self.games]}

    @classmethod
    def from_dict(cls, data: Any, source: str = "results") -> SimResults:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ResultsError(f"{source}: not a knockabout sim results file (format {FORMAT!r} expected)")
        try:
            games = [game_from_row(row) for row in data["games"]]
            meta = dict(data["meta"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ResultsError(f"{source}: damaged results ({exc!r})") from None
        return cls(meta=meta, games=games)

    # ------------------------------------------------------------------- CSV
    def to_csv(self) -> str:
        buf = io.StringIO()
        buf.write(CSV_PREFIX + json.dumps(self.meta) + "\n")
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(COLUMNS)
        for g in self.games:
            row: list[str] = []
            for name in COLUMNS:
                v = getattr(g, name)
                if isinstance(v, list):
                    row.append("|".join(repr(x) if isinstance(x, float) else str(x) for x in v))
                elif isinstance(v, bool):
                    row.append("true" if v else "false")
                else:
                    row.append(str(v))
            w.writerow(row)
        return buf.getvalue()

    @classmethod
    def from_csv(cls, text: str, source: str = "results") -> SimResults:
        first, _, rest = text.partition("\n")
        if not first.startswith(CSV_PREFIX):
            raise ResultsError(
                f"{source}: not a knockabout sim CSV (first line must start with {CSV_PREFIX.strip()!r})"
            )
        try:
            meta = json.loads(first[len(CSV_PREFIX) :])
            rows = list(csv.DictReader(io.StringIO(rest)))
            games = []
            for row in rows:
                data: dict[str, Any] = {}
                for name, conv in _SCALARS.items():
                    data[name] = conv(row[name])
                for name, conv in _LISTS.items():
                    raw = row[name]
                    data[name] = [conv(x) for x in raw.split("|")] if raw else []
                if row["draw"] not in ("true", "false"):
                    raise ValueError(f"draw must be true or false, got {row['draw']!r}")
                data["draw"] = row["draw"] == "true"
                games.append(GameResult(**data))
        except (KeyError, TypeError, ValueError, json.JSONDecodeError) as exc:
            raise ResultsError(f"{source}: damaged results ({exc!r})") from None
        return cls(meta=meta, games=games)

    # ----------------------------------------------------------------- files
    def save(self, path: str | Path) -> None:
        """Write to ``path``: CSV if it ends in ``.csv``, else JSON."""
        p = Path(path)
        text = self.to_csv() if p.suffix.lower() == ".csv" else json.dumps(self.to_dict(), indent=1)
        write_results_file(p, text)

    @classmethod
    def load(cls, path: str | Path) -> SimResults:
        """Read a file written by :meth:`save` (the format is told by its content)."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise ResultsError(f"cannot read {p}: {exc.strerror}") from None
        if text.startswith(CSV_PREFIX) or p.suffix.lower() == ".csv":
            return cls.from_csv(text, str(p))
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ResultsError(f"{p}: neither sim JSON nor sim CSV ({exc.msg} at line {exc.lineno})") from None
        return cls.from_dict(data, str(p))


def game_from_row(row: Any) -> GameResult:
    """A game from its JSON row (as written by :meth:`SimResults.to_dict`)."""
    if not isinstance(row, dict):
        raise TypeError("a game row must be an object")
    data: dict[str, Any] = {name: conv(row[name]) for name, conv in _SCALARS.items()}
    for name, conv in _LISTS.items():
        data[name] = [conv(x) for x in row[name]]
    data["draw"] = bool(row["draw"])
    return GameResult(**data)
