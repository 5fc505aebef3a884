"""Knockdown's events: their names, and making public ones (everybody sees them) and
private ones (one seat).

:data:`EventName` is every event the rules emit; ``public``/``private`` accept only those
names, and the narration matches on them exhaustively, so an event the narration does not
know fails ``mypy --strict``.
"""

from __future__ import annotations

from typing import Any, Final, Literal, get_args

from knockabout.core.events import Event

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


def public(type_: EventName, **data: Any) -> Event:
    return Event(type_, data)


def private(seat: int, type_: EventName, **data: Any) -> Event:
    return Event(type_, data, frozenset((seat,)))
