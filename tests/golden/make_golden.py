"""Write the golden records: seeded games per game and option set, with a fingerprint of
every state they pass through and of every seat's view, plus games between bots whose
choices must stay the same.

Run once from a checkout whose behaviour is the reference:

    .venv/bin/python -m tests.golden.make_golden

A change that alters any of these on purpose bumps the game's rules version and
regenerates the file, saying why in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.golden.fingerprint import BOT_GAMES, OPTION_SETS, play_bots, play_random

HERE = Path(__file__).parent


def main() -> None:
    records: list[dict[str, Any]] = []
    for game_id, options in OPTION_SETS.items():
        for k, config in enumerate(options):
            for seed in range(3):
                records.append(play_random(game_id, config, seed * 7919 + k))
    bots: list[dict[str, Any]] = [play_bots(*spec) for spec in BOT_GAMES]
    (HERE / "records.json").write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    (HERE / "bot_games.json").write_text(json.dumps(bots, indent=1, sort_keys=True) + "\n")
    counts: dict[str, int] = {}
    for r in records:
        counts[r["record"]["game"]] = counts.get(r["record"]["game"], 0) + 1
    print("records:", counts, "bot games:", len(bots))


if __name__ == "__main__":
    main()
