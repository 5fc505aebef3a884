"""The effect vocabulary of KNOCKBACK abilities, as enums compiled once at content load.

A card's ability is a list of effects, each an :class:`Op` with an amount and, for the
two bonus ops, a condition (:class:`AttackWhen`, :class:`HeartWhen`). Pack files spell
them as strings; :mod:`.content` validates those against these enums (an unknown op or
condition is refused with the file, card and field named) and :func:`compile_effect`
turns card data into :class:`Effect` records. Everything that gives ops meaning — the
interpreter (:mod:`.effects`), the card text (:mod:`.cards`) and the log
(:mod:`.narration`) — switches on these enums with ``match`` and ``assert_never``, so
an op added here and not handled everywhere fails type checking.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Final, NamedTuple, assert_never


class Op(StrEnum):
    """What an effect does (see :func:`knockabout.games.knockback.cards.effect_text`)."""

    ATTACK_BONUS = "attack_bonus"
    KNOCKBACK = "knockback"
    EXHAUST_TARGET = "exhaust_target"
    READY_ON_KNOCKOUT = "ready_on_knockout"
    SHOVE = "shove"
    CHARGE = "charge"
    INTIMIDATE = "intimidate"
    HEART_BONUS = "heart_bonus"
    STEADFAST = "steadfast"
    AURA_ATTACK = "aura_attack"
    AURA_HEART = "aura_heart"


class AttackWhen(StrEnum):
    """When an ``attack_bonus`` counts."""

    ALWAYS = "always"
    MOVED = "moved"
    TARGET_EXHAUSTED = "target_exhausted"
    TARGET_ENEMY = "target_enemy"
    TARGET_RESTED = "target_rested"


class HeartWhen(StrEnum):
    """When a ``heart_bonus`` counts."""

    ALWAYS = "always"
    RESTED = "rested"
    EXHAUSTED = "exhausted"


class Kind(StrEnum):
    """When an ability acts: as its card punches, as it moves, or all the time."""

    PUNCHING = "punching"
    MOVING = "moving"
    PASSIVE = "passive"


OPS_BY_KIND: Final[dict[Kind, frozenset[Op]]] = {
    Kind.PUNCHING: frozenset({Op.ATTACK_BONUS, Op.KNOCKBACK, Op.EXHAUST_TARGET, Op.READY_ON_KNOCKOUT}),
    Kind.MOVING: frozenset({Op.SHOVE, Op.CHARGE, Op.INTIMIDATE}),
    Kind.PASSIVE: frozenset({Op.HEART_BONUS, Op.STEADFAST, Op.AURA_ATTACK, Op.AURA_HEART}),
}
"""The ops each kind of ability may use."""

REPEATABLE: Final[frozenset[Op]] = frozenset({Op.ATTACK_BONUS, Op.HEART_BONUS})
"""Ops an ability may list more than once (with different conditions)."""


class Effect(NamedTuple):
    """One compiled effect: its op, its amount (cells for ``knockback``; 0 when the op
    has none) and its condition (None for ops without one)."""

    op: Op
    amount: int = 0
    when: AttackWhen | HeartWhen | None = None

    def attack_when(self) -> AttackWhen:
        """The condition of an ``attack_bonus``."""
        if isinstance(self.when, AttackWhen):
            return self.when
        raise ValueError(f"effect {self.op.value!r} has no attack condition")

    def heart_when(self) -> HeartWhen:
        """The condition of a ``heart_bonus``."""
        if isinstance(self.when, HeartWhen):
            return self.when
        raise ValueError(f"effect {self.op.value!r} has no heart condition")


def _choice(enum: type[StrEnum], value: Any, what: str) -> Any:
    try:
        return enum(value)
    except ValueError:
        known = ", ".join(repr(m.value) for m in enum)
        raise ValueError(f"unknown {what} {value!r}; expected one of {known}") from None


def compile_effect(data: Mapping[str, Any]) -> Effect:
    """An :class:`Effect` from one effect's data (``{"op": ..., "amount"/"cells": ...,
    "when": ...}``); a ValueError names an unknown op or condition."""
    op: Op = _choice(Op, data.get("op"), "effect op")
    amount = int(data.get("amount", data.get("cells", 0)))
    raw_when = data.get("when")
    match op:
        case Op.ATTACK_BONUS:
            return Effect(op, amount, _choice(AttackWhen, raw_when or "always", "attack_bonus condition (when)"))
        case Op.HEART_BONUS:
            return Effect(op, amount, _choice(HeartWhen, raw_when or "always", "heart_bonus condition (when)"))
        case (
            Op.KNOCKBACK | Op.EXHAUST_TARGET | Op.READY_ON_KNOCKOUT | Op.SHOVE | Op.CHARGE | Op.INTIMIDATE
            | Op.STEADFAST | Op.AURA_ATTACK | Op.AURA_HEART
        ):
            if raw_when is not None:
                raise ValueError(f"effect op {op.value!r} takes no condition (when), got {raw_when!r}")
            return Effect(op, amount)
        case _:  # pragma: no cover - every op is listed above
            assert_never(op)
