"""The effect interpreter: runs the ability data of KNOCKBACK cards at the rules' hook points.

Each ability is a list of :class:`~.ops.Effect` records (see :mod:`.cards` for their
text). :func:`compile_behaviour` turns a card's effects, once, into the
:class:`Behaviour` the hooks read; the rules call the hooks below when a card punches,
is punched, moves, shoves or is pushed. No card behaviour lives anywhere else: the
rules never look at a card's ops.

Hooks:
  attack_value(s, a, t, d)     attack of card ``a`` punching ``t`` on its side ``d``
  heart_value(s, t, side)      heart of card ``t`` on its side ``side`` (absolute)
  knockback_cells(s, a)        how far a punch of card ``a`` pushes (0: not at all)
  stopper(s, group)            the card of a pushed group that holds it in place (-1: none)
  may_shove(s, a)              whether card ``a`` may move into an occupied cell
  after_punch(s, a, t, ko)     punching effects once the punch is resolved
  after_move(s, a)             moving effects once card ``a`` has taken a step
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Final, assert_never

from knockabout.core.events import Event
from knockabout.games.knockback.actions import LABELS
from knockabout.games.knockback.grid import DELTA
from knockabout.games.knockback.ops import AttackWhen, Effect, HeartWhen, Op

if TYPE_CHECKING:
    from knockabout.games.knockback.state import KnockbackState

DEFAULT_KNOCKBACK: Final = 1
"""Cells a punch pushes when no ability says otherwise."""


@dataclass(frozen=True, slots=True)
class Behaviour:
    """A card's effects as the hooks read them (compiled once per card)."""

    attack_bonus: tuple[tuple[AttackWhen, int], ...] = ()
    heart_bonus: tuple[tuple[HeartWhen, int], ...] = ()
    knockback: int = DEFAULT_KNOCKBACK
    exhaust_target: bool = False
    ready_on_knockout: bool = False
    shove: bool = False
    charge: int = 0
    intimidate: bool = False
    steadfast: bool = False
    aura_attack: int = 0
    aura_heart: int = 0

    def __reduce__(self) -> tuple[Any, ...]:  # frozen: the compiled build cannot set fields on unpickling
        return (type(self), tuple(getattr(self, f.name) for f in fields(self)))


def compile_behaviour(effects: Sequence[Effect]) -> Behaviour:
    """What ``effects`` make a card do, for the hooks. Each op fills the :class:`Behaviour`
    field of its own name: a flag is set, a knockback or charge distance replaced, an aura
    added up; the bonuses are listed in card order."""
    attack: list[tuple[AttackWhen, int]] = []
    heart: list[tuple[HeartWhen, int]] = []
    values: dict[str, Any] = {}
    for e in effects:
        match e.op:
            case Op.ATTACK_BONUS:
                attack.append((e.attack_when(), e.amount))
            case Op.HEART_BONUS:
                heart.append((e.heart_when(), e.amount))
            case Op.KNOCKBACK | Op.CHARGE:
                values[e.op.value] = e.amount
            case Op.EXHAUST_TARGET | Op.READY_ON_KNOCKOUT | Op.SHOVE | Op.INTIMIDATE | Op.STEADFAST:
                values[e.op.value] = True
            case Op.AURA_ATTACK | Op.AURA_HEART:
                values[e.op.value] = values.get(e.op.value, 0) + e.amount
            case _:  # pragma: no cover - every op is listed above
                assert_never(e.op)
    return Behaviour(attack_bonus=tuple(attack), heart_bonus=tuple(heart), **values)


def _aura(s: KnockbackState, label: int, heart: bool) -> int:
    """Sum of attack (or heart) auras from friendly cards orthogonally next to ``label``."""
    owner = label >= 3
    grid = s.grid
    here = s.pos[label]
    lab = s.lab
    total = 0
    for dd in DELTA:
        n = grid.get(here + dd)
        if n is not None and (n >= 3) == owner:
            b = lab[n].behaviour
            total += b.aura_heart if heart else b.aura_attack
    return total


def _holds(when: AttackWhen | HeartWhen, s: KnockbackState, a: int, t: int) -> bool:
    """Whether a bonus of card ``a`` counts against (or, for a heart bonus, on) card ``t``."""
    match when:
        case AttackWhen.ALWAYS | HeartWhen.ALWAYS:
            return True
        case AttackWhen.MOVED:
            return s.moved > 0
        case AttackWhen.TARGET_EXHAUSTED | HeartWhen.EXHAUSTED:
            return bool(s.exhausted >> t & 1)
        case AttackWhen.TARGET_RESTED | HeartWhen.RESTED:
            return not s.exhausted >> t & 1
        case AttackWhen.TARGET_ENEMY:
            return (t >= 3) != (a >= 3)
        case _:  # pragma: no cover - every condition is listed above
            assert_never(when)


def _with_bonuses(
    s: KnockbackState, value: int, bonuses: tuple[tuple[AttackWhen, int], ...] | tuple[tuple[HeartWhen, int], ...],
    a: int, t: int, aura: bool, heart: bool,
) -> int:
    """``value`` plus card ``a``'s bonuses that hold against ``t``, plus the auras on ``a``
    (of heart, or of attack) when any card on the board has one."""
    for when, amount in bonuses:
        if _holds(when, s, a, t):
            value += amount
    if aura:
        value += _aura(s, a, heart)
    return value


def attack_value(s: KnockbackState, a: int, t: int, d: int) -> int:
    b = s.lab[a].behaviour
    return _with_bonuses(s, s.atk[a][d] + s.moved * b.charge, b.attack_bonus, a, t, s.has_aura_attack, False)


def heart_value(s: KnockbackState, t: int, side: int) -> int:
    b = s.lab[t].behaviour
    return _with_bonuses(s, s.hrt[t][side], b.heart_bonus, t, t, s.has_aura_heart, True)


def knockback_cells(s: KnockbackState, a: int) -> int:
    return s.lab[a].behaviour.knockback


def stopper(s: KnockbackState, group: Sequence[int]) -> int:
    lab = s.lab
    return next((i for i in group if lab[i].behaviour.steadfast), -1)


def may_shove(s: KnockbackState, a: int) -> bool:
    return s.lab[a].behaviour.shove


def after_punch(s: KnockbackState, a: int, t: int, ko: bool, ev: list[Event]) -> None:
    b = s.lab[a].behaviour
    if ko:
        if b.ready_on_knockout:
            s.stay_ready = True
    elif b.exhaust_target and s.onboard >> t & 1 and not s.exhausted >> t & 1:
        s.exhausted |= 1 << t
        ev.append(Event("exhaust", {"card": LABELS[t], "name": s.lab[t].name, "by": LABELS[a], "reason": "punch",
                                    "ability": Op.EXHAUST_TARGET.value}))


def after_move(s: KnockbackState, a: int, ev: list[Event]) -> None:
    if not s.lab[a].behaviour.intimidate:
        return
    grid = s.grid
    here = s.pos[a]
    mine = a >= 3
    for dd in DELTA:
        n = grid.get(here + dd)
        if n is not None and (n >= 3) != mine and not s.exhausted >> n & 1:
            s.exhausted |= 1 << n
            ev.append(Event("exhaust", {"card": LABELS[n], "name": s.lab[n].name, "by": LABELS[a],
                                        "reason": "intimidate", "ability": Op.INTIMIDATE.value}))
