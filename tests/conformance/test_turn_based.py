"""Every game plays at a turn-based table: a game with windows of seconds declares the
options that replace them (``Game.turn_based()``), and with those options no decision
carries a time limit of its own; an option set the game refuses is refused with one
sentence naming the game. Nothing here names a game."""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.core import ConfigError, game_ids, get_game
from knockabout.table.turn_based import turn_based_config
from tests.conformance.playouts import played
from tests.conformance.test_facts import config_variants

GAMES = game_ids()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_with_timed_decisions_says_how_it_plays_turn_based(game_id: str) -> None:
    game = get_game(game_id)
    rules = game.turn_based()
    if game.facts.timed_decisions:
        assert rules is not None, "windows of seconds need a rule for turn-based tables"
    if rules is not None:
        game.make_config(rules.options)  # the turn-based options are options of the game
        assert rules.refusal(game.make_config(rules.options)) is None, "its own options play turn-based"


def _turn_based_variants(game_id: str) -> list[dict[str, Any]]:
    out = []
    for cfg in config_variants(game_id):
        try:
            out.append(turn_based_config(get_game(game_id), cfg))
        except ConfigError as exc:
            assert str(exc).startswith(f"{get_game(game_id).name} on a turn-based table: ")
            assert "\n" not in str(exc)
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_no_decision_is_timed_on_a_turn_based_table(game_id: str) -> None:
    variants = _turn_based_variants(game_id)
    assert variants, "some option set plays turn-based"
    for cfg in variants:
        for seed in range(3):
            for s in played(game_id, cfg, seed, 600):
                d = s.to_act()
                assert d is None or d.time_limit is None, (cfg, seed, d)
