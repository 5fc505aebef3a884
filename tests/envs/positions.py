"""Seeded positions along random games, for every game with an encoder and player count."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from knockabout.core.protocol import State
from knockabout.core.registry import game_ids, get_game
from knockabout.core.rng import Rng

GAMES = [g for g in game_ids() if get_game(g).encoder() is not None]
"""Every registered game that declares an observation encoder."""

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "knockback": [{"lineup": "draft4", "scoring": "best_of"}, {"knockback": "whole_line"}],
    "nak-muay": [{"end_turn": "strict_end_turn"}],
    "knockdown": [{"boxes": ["tainted_grail", "nemesis", "siege_storm"]}, {"knockdown_test": "tower"}],
}
"""Configurations beyond the default worth walking, where a game has variants that change
what a view holds (a draft that hides hands, other boxes' arenas)."""


def configs(game_id: str) -> list[dict[str, Any]]:
    return [{}, *VARIANTS.get(game_id, [])]


def tables() -> list[tuple[str, int]]:
    """(game id, player count) for every game and every count it allows."""
    return [(g, n) for g in GAMES for n in range(get_game(g).min_players, get_game(g).max_players + 1)]


def walk(game_id: str, players: int, seeds: range, config: dict[str, Any] | None = None,
         every: int = 1, cap: int = 400) -> Iterator[State]:
    """Every ``every``-th position (the end included) of random games with these seeds."""
    g = get_game(game_id)
    for seed in seeds:
        rng = Rng(seed + 1000)
        s = g.new_state(config or {}, seed, players=players)
        k = 0
        while s.to_act() is not None and k < cap:
            if k % every == 0:
                yield s
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
            k += 1
        yield s
