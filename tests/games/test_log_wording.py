"""Log lines are written for people: no "(s)" plurals, no raw event dumps, no grid
coordinates the board never shows, for whole random games of every game."""

from __future__ import annotations

import re

import pytest

from knockabout.core import game_ids, get_game
from knockabout.core.rng import Rng

COORDS = re.compile(r"\(-?\d+, -?\d+\)")


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_line_of_a_random_game_reads_as_words(game_id: str, seed: int) -> None:
    game = get_game(game_id)
    state = game.new_state({}, seed)
    rng = Rng(seed)
    names = [f"P{i + 1}" for i in range(state.num_players)]
    lines: list[str] = []
    steps = 0
    while state.to_act() is not None and steps < 3000:
        legal = state.legal_actions()
        for e in state.apply(legal[rng.below(len(legal))]):
            text = game.narrate(e, names)
            if text:
                lines.append(text)
                assert "(s)" not in text, text
                assert not text.startswith(f"{e.type}:"), f"no sentence for {e.type}: {text}"
                assert not COORDS.search(text), f"grid coordinates the board does not show: {text}"
        steps += 1
    assert lines


def test_menhir_candles_are_named_by_the_arena_columns() -> None:
    from knockabout.core.events import Event

    text = get_game("knockdown").narrate(Event("candle", {"count": 1, "left": 1, "right": 7}), ["A", "B"])
    assert text is not None and "columns b and h" in text
