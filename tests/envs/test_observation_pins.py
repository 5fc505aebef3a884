"""Seeded observation vectors are pinned: an encoder refactor must give the same numbers.

For every game with an encoder, every player count and every configuration the encoder
tests walk (``tests/envs/positions.py``), the vectors of every seat and a spectator and
the shaping potentials at every position along seeded random games are hashed (float32
bytes, in order) and compared with ``observation_pins.json``. A handful of whole vectors
are stored too, so a failure shows which field moved.

Regenerate (only when a change to the encoding is meant, and say so in the commit)::

    PYTHONPATH=src:. .venv/bin/python -m tests.envs.test_observation_pins --write
"""

from __future__ import annotations

import hashlib
import json
import struct
import sys
from array import array
from pathlib import Path
from typing import Any

import pytest

from knockabout.core.plugins import ObservationEncoder
from knockabout.core.registry import get_game
from knockabout.core.view import View
from tests.envs.positions import configs, tables, walk

PINS = Path(__file__).with_name("observation_pins.json")
SEEDS = range(5)
SAMPLES = (0, 7, 40)
"""Positions (in walk order) whose whole vectors are stored, for readable failures."""


def _key(game_id: str, players: int, config: dict[str, Any]) -> str:
    return f"{game_id}/{players}/{json.dumps(config, sort_keys=True)}"


def fingerprint(game_id: str, players: int, config: dict[str, Any],
                enc: ObservationEncoder | None = None) -> dict[str, Any]:
    """The hash of every seat's and a spectator's vectors and potentials along the walk,
    the number of positions, and a few whole vectors (seat 0's)."""
    enc = enc or get_game(game_id).encoder()
    assert enc is not None
    h = hashlib.sha256()
    samples: dict[str, list[float]] = {}
    positions = 0
    for k, s in enumerate(walk(game_id, players, SEEDS, config)):
        positions += 1
        for seat in (*range(players), None):
            view = s.observe(seat)
            vec = enc.encode(view)
            h.update(vec.tobytes())
            h.update(struct.pack("<d", enc.potential(view)))
            if seat == 0 and k in SAMPLES:
                samples[str(k)] = [float(x) for x in vec]
    return {"positions": positions, "sha256": h.hexdigest(), "samples": samples}


def cases() -> list[tuple[str, int, dict[str, Any]]]:
    return [(g, n, c) for g, n in tables() for c in configs(g)]


@pytest.mark.parametrize(("game_id", "players", "config"), cases(), ids=lambda x: str(x))
def test_seeded_observations_match_the_pinned_ones(game_id: str, players: int, config: dict[str, Any]) -> None:
    pinned = json.loads(PINS.read_text())[_key(game_id, players, config)]
    got = fingerprint(game_id, players, config)
    assert got["positions"] == pinned["positions"], "the seeded games themselves changed"
    enc = get_game(game_id).encoder()
    assert enc is not None
    for k, vec in pinned["samples"].items():
        moved = [f"{f.name}[{i - at}]" for at, f in enc.layout() for i in range(at, at + f.size)
                 if got["samples"][k][i] != vec[i]]
        assert moved == [], f"position {k}: these numbers changed"
    assert got["sha256"] == pinned["sha256"]


def test_the_pin_catches_a_one_number_change() -> None:
    """Changing one number of one vector changes the fingerprint (the hash covers it)."""
    game_id, players, config = cases()[0]
    enc = get_game(game_id).encoder()
    assert enc is not None

    class Nudged(type(enc)):  # type: ignore[misc]
        calls = 0

        def encode(self, view: View) -> array[float]:
            vec = super().encode(view)
            Nudged.calls += 1
            if Nudged.calls == 5:
                vec[0] = 0.5 if vec[0] != 0.5 else 0.25
            return vec

    assert fingerprint(game_id, players, config)["sha256"] != fingerprint(game_id, players, config, Nudged())["sha256"]


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print(__doc__)
        return 2
    rows = (f"{json.dumps(_key(g, n, c))}: {json.dumps(fingerprint(g, n, c))}" for g, n, c in cases())
    PINS.write_text("{\n" + ",\n".join(rows) + "\n}\n")  # a line per table
    print(f"wrote {PINS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
