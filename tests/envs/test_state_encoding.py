"""The observation written straight from the state (``Game.state_encoder()``, what the batched
environment steps with) is exactly the view encoder's ``encode(state.observe(seat))``, for
every seat at positions along random games of every game, player count and walked variant.

So the fast path holds nothing the seat's own view does not: the no-leak guarantee of the
view (tests/envs/test_encoding.py) carries over. ``scripts/test-builds.sh`` runs this file
on the plain and the compiled build.
"""

from __future__ import annotations

import numpy as np
import pytest

from knockabout.core.registry import get_game
from knockabout.core.state_encoding import Scatter, StateEncoder
from knockabout.envs.vector import encode_row, scatter_into
from tests.envs.positions import GAMES, configs, tables, walk


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_declares_a_state_encoder(game_id: str) -> None:
    enc = get_game(game_id).state_encoder()
    assert isinstance(enc, StateEncoder)
    assert enc.size == get_game(game_id).encoder().size  # type: ignore[union-attr]


@pytest.mark.parametrize(("game_id", "players"), tables())
def test_state_encoding_is_the_view_encoding(game_id: str, players: int) -> None:
    g = get_game(game_id)
    view_encoder = g.encoder()
    fast = g.state_encoder()
    assert view_encoder is not None and fast is not None
    positions = 0
    for config in configs(game_id):
        for s in walk(game_id, players, range(3), config, every=3):
            positions += 1
            for seat in range(s.num_players):
                want = np.frombuffer(view_encoder.encode(s.observe(seat)), dtype=np.float32)
                got = encode_row(fast, s, seat)
                if got.tobytes() != want.tobytes():
                    bad = np.flatnonzero(got != want)
                    names = [f.name for at, f in view_encoder.layout() for i in bad if at <= i < at + f.size]
                    pytest.fail(
                        f"{game_id} {config} seat {seat}: positions {bad.tolist()} ({sorted(set(names))}):"
                        f" fast {got[bad].tolist()}, view {want[bad].tolist()}"
                    )
    assert positions > 20


def test_scatter_clips_skips_zeros_and_adds_blocks() -> None:
    made = Scatter()
    made.one(7)
    made.ratio(9, 1, 4)
    block = made.take()
    assert len(block) == 2
    out = Scatter()
    out.begin(3)
    out.one(0)
    out.ratio(1, 1, 3)
    out.ratio(2, 0, 3)  # zero: not written
    out.ratio(3, 7, 3)  # clipped to 1
    out.ratio(4, -2, 3)  # clipped to 0: not written
    out.value(5, 0.25)
    out.value(6, 2.5)
    out.flag(7, False)
    out.end()
    out.begin(1)
    out.flag(8, True)
    out.block(block)
    out.end()
    assert len(out) == 8
    assert out.items() == [
        (3, 0, 1.0), (3, 1, float(np.float32(1 / 3))), (3, 3, 1.0), (3, 5, 0.25), (3, 6, 1.0),
        (1, 8, 1.0), (1, 7, 1.0), (1, 9, 0.25),
    ]
    rows = np.zeros((4, 10), dtype=np.float32)
    scatter_into(rows, out)
    assert rows[3].tolist()[:7] == [1.0, float(np.float32(1 / 3)), 0.0, 1.0, 0.0, 0.25, 1.0]
    assert rows[1].tolist()[7:] == [1.0, 1.0, 0.25]
    assert not rows[0].any() and not rows[2].any()
