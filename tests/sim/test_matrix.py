"""Balance matrices: both seat orders feed each cell; the field rate carries its interval."""

from __future__ import annotations

from dataclasses import dataclass

from knockabout.sim.matrix import matrix_lines


@dataclass
class _P:
    a: str
    b: str
    games: int
    a_points: float


def _fake(a: str, b: str, games: int) -> _P:
    # "x" wins every match it plays; others draw (half a point each)
    pts = float(games) if a == "x" else 0.0 if b == "x" else games / 2
    return _P(a, b, games, pts)


def test_cells_and_field_rates_count_both_seat_orders() -> None:
    out = [_fake(a, b, 4) for a in "xyz" for b in "xyz" if a != b]
    lines = matrix_lines(["x", "y", "z"], out, "pack", str.upper)
    assert lines[0] == "| pack \\ vs | X | Y | Z | field | 95 % interval |"
    row = {line.split(" | ")[0].lstrip("| "): line for line in lines[2:]}
    assert "| x | — | 100% | 100% | **100.0%** |" in row["x"]
    assert "| y | 0% | — | 50% | **25.0%** |" in row["y"]
