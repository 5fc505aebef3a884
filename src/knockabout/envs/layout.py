"""A game's observation layout as a Markdown table (docs/envs.md is made from these)."""

from __future__ import annotations

from knockabout.core.plugins import ObservationEncoder


def layout_table(encoder: ObservationEncoder) -> str:
    """One row per field: its offsets, size, name and meaning; then the total."""
    rows = ["| offsets | size | field | meaning |", "|---|---|---|---|"]
    for at, f in encoder.layout():
        span = str(at) if f.size == 1 else f"{at}-{at + f.size - 1}"
        rows.append(f"| {span} | {f.size} | `{f.name}` | {f.meaning.replace('|', '/')} |")
    rows.append(f"| | **{encoder.size}** | | every number in [0, 1] |")
    return "\n".join(rows)
