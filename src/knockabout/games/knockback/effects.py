"""The effect interpreter: runs the ability data of KNOCKBACK cards at the rules' hook points.

Each ability is a list of ``(op, amount, when)`` effects (see :mod:`.cards` for their
text). The rules call these functions when a card punches, is punched or moves; no
card behaviour lives anywhere else.

Hooks:
  attack_value(s, a, t, d)     attack of card ``a`` punching ``t`` on its side ``d``
  heart_value(s, t, side)      heart of card ``t`` on its side ``side`` (absolute)
  after_punch(s, a, t, ko)     punching effects once the punch is resolved
  after_move(s, a)             moving effects once card ``a`` has taken a step
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from knockabout.core.events import Event
from knockabout.games.knockback.actions import LABELS

if TYPE_CHECKING:
    from knockabout.games.knockback.state import KnockbackState

STRIDE = 1 << 32
DELTA = (1, STRIDE, -1, -STRIDE)


def _aura(s: KnockbackState, label: int, op: str) -> int:
    """Sum of ``op`` auras from friendly cards orthogonally next to ``label``."""
    owner = label >= 3
    grid = s.grid
    here = s.pos[label]
    total = 0
    for dd in DELTA:
        n = grid.get(here + dd)
        if n is not None and (n >= 3) == owner:
            for eop, amount, _ in s.lab[n].effects:
                if eop == op:
                    total += amount
    return total


def attack_value(s: KnockbackState, a: int, t: int, d: int) -> int:
    card = s.lab[a]
    value = s.atk[a][d] + s.moved * card.charge
    for op, amount, when in card.effects:
        if op == "attack_bonus":
            if when == "always":
                ok = True
            elif when == "moved":
                ok = s.moved > 0
            elif when == "target_exhausted":
                ok = bool(s.exhausted >> t & 1)
            elif when == "target_rested":
                ok = not s.exhausted >> t & 1
            else:  # target_enemy
                ok = (t >= 3) != (a >= 3)
            if ok:
                value += amount
    if s.has_aura_attack:
        value += _aura(s, a, "aura_attack")
    return value


def heart_value(s: KnockbackState, t: int, side: int) -> int:
    card = s.lab[t]
    value = s.hrt[t][side]
    for op, amount, when in card.effects:
        if op == "heart_bonus" and (
            when == "always" or (when == "rested") == (not s.exhausted >> t & 1)
        ):
            value += amount
    if s.has_aura_heart:
        value += _aura(s, t, "aura_heart")
    return value


def after_punch(s: KnockbackState, a: int, t: int, ko: bool, ev: list[Event]) -> None:
    for op, _, _ in s.lab[a].effects:
        if op == "exhaust_target" and not ko and s.onboard >> t & 1 and not s.exhausted >> t & 1:
            s.exhausted |= 1 << t
            ev.append(Event("exhaust", {"card": LABELS[t], "name": s.lab[t].name, "by": LABELS[a], "reason": "punch"}))
        elif op == "ready_on_knockout" and ko:
            s.stay_ready = True


def after_move(s: KnockbackState, a: int, ev: list[Event]) -> None:
    for op, _, _ in s.lab[a].effects:
        if op == "intimidate":
            grid = s.grid
            here = s.pos[a]
            mine = a >= 3
            for dd in DELTA:
                n = grid.get(here + dd)
                if n is not None and (n >= 3) != mine and not s.exhausted >> n & 1:
                    s.exhausted |= 1 << n
                    data = {"card": LABELS[n], "name": s.lab[n].name, "by": LABELS[a], "reason": "intimidate"}
                    ev.append(Event("exhaust", data))
