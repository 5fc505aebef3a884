"""Fingerprints of a game's path: one hash over every state (``to_dict``) and one over
every seat's view after every step, so a replay that differs anywhere is caught.

Views are compared in their JSON form with keys whose value is null left out, so a
typed view may spell "not shown" as null where an older one left the key out.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from knockabout.core.protocol import State
from knockabout.core.registry import get_game
from knockabout.core.replay import GameRecord
from knockabout.core.rng import Rng, mix_seed

OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "nak-muay": [
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 5},
        {"players": 3, "end_turn": "strict_end_turn"},
        {"players": 4, "countdown_seconds": 3},
        {"players": 2, "max_turns": 12},
        {"players": 2, "starting_block": True},
        {"players": 5, "starting_block": True, "end_turn": "strict_end_turn"},
        {"players": 3, "hand_size": 4},
        {"players": 3, "extra_kos": 2},
    ],
    "knockback": [
        {},
        {"knockback": "whole_line"},
        {"scoring": "speed"},
        {"scoring": "best_of", "best_of": 3},
        {"lineup": "draft2"},
        {"lineup": "draft4"},
        {"packs": ["iron-knuckles", "tide-breakers"], "max_turns": 40},
        {"knockout_on_tie": True},
        {"alternate_starts": True, "max_turns": 20},
    ],
    "knockdown": [
        {},
        {"boxes": ["nemesis"]},
        {"boxes": ["siege_storm"]},
        {"boxes": ["tainted_grail"]},
        {"knockdown_test": "tower"},
        {"boxes": ["nemesis", "siege_storm", "tainted_grail"], "fighters": ["puppy", "driana"]},
        {"fighters": ["mistbearer", "lost_knight"], "boxes": ["tainted_grail"], "knockdown_test": "tower",
         "max_turns": 30},
        {"rounds_to_win": 1},
        {"hand_limit": 4},
    ],
}
"""Option sets per game; each is played from three seeds."""

BOT_GAMES: list[tuple[str, dict[str, Any], int, tuple[str, ...], int]] = [
    # (game, config, seed, seat levels, decisions to play at most)
    ("nak-muay", {"players": 3}, 11, ("easy", "easy", "random"), 400),
    ("nak-muay", {"players": 2}, 12, ("medium", "easy"), 40),
    ("knockback", {}, 13, ("easy", "random"), 400),
    ("knockback", {}, 14, ("medium", "easy"), 30),
    ("knockdown", {}, 15, ("easy", "easy"), 400),
    ("knockdown", {"knockdown_test": "tower"}, 16, ("medium", "random"), 30),
]


def _strip_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _strip_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_strip_none(v) for v in value]
    return value


def view_json(state: State, seat: int | None) -> Any:
    """A seat's view as plain JSON data, null-valued keys left out."""
    view: Any = state.observe(seat)
    to_json = getattr(view, "to_json", None)
    data = to_json() if callable(to_json) else view
    return _strip_none(json.loads(json.dumps(data, sort_keys=True)))


class Fingerprint:
    def __init__(self) -> None:
        self.states = hashlib.sha256()
        self.views = hashlib.sha256()

    def add(self, state: State) -> None:
        self.states.update(json.dumps(state.to_dict(), sort_keys=True).encode())
        for seat in [None, *range(state.num_players)]:
            self.views.update(json.dumps(view_json(state, seat), sort_keys=True).encode())

    def result(self) -> dict[str, str]:
        return {"states": self.states.hexdigest(), "views": self.views.hexdigest()}


def play_random(game_id: str, config: dict[str, Any], seed: int, cap: int = 3000) -> dict[str, Any]:
    """One game of uniformly random legal actions (drawn from a seeded generator)."""
    game = get_game(game_id)
    state = game.new_state(config, seed)
    rng = Rng(mix_seed(seed, "golden"))
    fp = Fingerprint()
    fp.add(state)
    actions: list[str] = []
    while state.to_act() is not None and len(actions) < cap:
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        state.apply(action)
        actions.append(str(action))
        fp.add(state)
    rec = GameRecord(game_id, game.rules_version, dict(config), seed, game.content_hash(), actions)
    outcome = state.outcome()
    return {
        "record": rec.to_dict(),
        "fingerprint": fp.result(),
        "outcome": None if outcome is None else outcome.to_dict(),
    }


def play_bots(
    game_id: str, config: dict[str, Any], seed: int, levels: tuple[str, ...], cap: int
) -> dict[str, Any]:
    """Bots of the given levels play from ``seed``; their choices are the record."""
    from knockabout.bots.levels import make_bot

    try:
        from knockabout.core.bot import SeatView
    except ImportError:  # before the bot interface moved into core
        from knockabout.core.bot import SeatView  # type: ignore[no-redef]

    game = get_game(game_id)
    state = game.new_state(config, seed)
    bots = [make_bot(level, game_id) for level in levels]
    rngs = [Rng(mix_seed(seed, "golden-bot", p)) for p in range(len(levels))]
    actions: list[str] = []
    while (d := state.to_act()) is not None and len(actions) < cap:
        action = bots[d.player].choose(SeatView(state, d.player), state.legal_actions(), rngs[d.player])
        state.apply(action)
        actions.append(str(action))
    return {"game": game_id, "config": config, "seed": seed, "levels": list(levels), "cap": cap,
            "actions": actions}
