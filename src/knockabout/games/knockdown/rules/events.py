"""The name of every event Knockdown's rules emit.

The rules make their events with the core's ``public`` and ``private``
(:mod:`knockabout.core.events`), as every engine does. :data:`EventName` lists the names:
the narration matches on it exhaustively, so a name it does not narrate fails
``mypy --strict``, and ``tests/games/knockdown/test_engine_parts.py`` reads every
``public``/``private`` call in the rules and fails on a name missing here.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

EventName = Literal[
    "action",
    "attack",
    "attack_ignored",
    "block",
    "candle",
    "candles_shuffled",
    "combo_end",
    "dangerous_edge",
    "dash",
    "deck_empty",
    "discard",
    "end_turn",
    "first_player",
    "game_over",
    "heal",
    "ko_skip",
    "ko_test",
    "mist",
    "move_cancelled",
    "moved",
    "new_round",
    "opening_pick",
    "out_of_range",
    "potion",
    "reaction",
    "recover",
    "reveal",
    "round_won",
    "row_card",
    "row_take",
    "sequence",
    "skill_face_chosen",
    "skill_kept",
    "skill_kept_card",
    "skill_revealed",
    "skills_passed",
    "skills_received",
    "special",
    "stop",
    "stunned",
    "take",
    "test_result",
    "tokens",
    "tokens_spent",
    "tower_challenge",
    "trap_set",
    "trap_sprung",
    "turn",
    "wound_moved",
    "wounds",
]
EVENT_NAMES: Final[frozenset[str]] = frozenset(get_args(EventName))

