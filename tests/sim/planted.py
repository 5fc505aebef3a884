"""A planted imbalance for the ablation and tuning tests: a copy of KNOCKBACK's Ember Rush
whose Spark Imp has attack 9 and heart 9 on every edge (the most a pack file allows)."""

from __future__ import annotations

from pathlib import Path

import tomlkit

from knockabout.games.knockback.content import CONTENT_DIR

PACK = "ember-rush"
CARD = "Spark Imp"
EDGES = ("north", "east", "south", "west")


def planted_pack(folder: Path) -> Path:
    """A content version (a folder with the one pack file) whose Spark Imp is absurdly
    strong; it replaces the shipped Ember Rush."""
    folder.mkdir(parents=True, exist_ok=True)
    doc = tomlkit.parse((CONTENT_DIR / f"{PACK}.toml").read_text(encoding="utf-8"))
    card = next(c for c in doc["cards"] if c["name"] == CARD)
    for edge in EDGES:
        card["edges"][edge]["attack"] = 9
        card["edges"][edge]["heart"] = 9
    (folder / f"{PACK}.toml").write_text(tomlkit.dumps(doc), encoding="utf-8")
    return folder
