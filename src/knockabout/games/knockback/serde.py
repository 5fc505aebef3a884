"""KNOCKBACK states to plain data and back (saved games, replays, golden records)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from knockabout.core.protocol import Outcome
from knockabout.core.rng import Rng
from knockabout.games.knockback.cards import compile_card
from knockabout.games.knockback.grid import cell, coords
from knockabout.games.knockback.phases import SCORING_NAMES, SYMBOL

if TYPE_CHECKING:
    from knockabout.games.knockback.state import KnockbackState


def to_dict(s: KnockbackState) -> dict[str, Any]:
    """The whole state as JSON-able data (card data included: a saved game needs no files)."""
    out: dict[str, Any] = {
        "whole_line": s.whole_line,
        "scoring": SCORING_NAMES[s.scoring],
        "best_of": s.best_of,
        "max_turns": s.max_turns,
        "max_rounds": s.max_rounds,
        "cards": [c.data for c in s.cards],
        "hands": [list(h) for h in s.hands],
        "kept": [list(k) for k in s.kept],
        "pick": s.pick,
        "lineup": [list(x) for x in s.lineup],
        "pos": [list(coords(k)) for k in s.pos],
        "placed": s.placed,
        "onboard": s.onboard,
        "exhausted": s.exhausted,
        "phase": s.phase,
        "current": s.current,
        "turn": s.turn,
        "round": s.round,
        "starter": s.starter,
        "token": s.token,
        "wins": list(s.wins),
        "active": s.active,
        "sym": s.sym,
        "moved": s.moved,
        "stay_ready": s.stay_ready,
        "p_target": s.p_target,
        "p_dir": s.p_dir,
        "p_attack": s.p_attack,
        "result": None if s.result is None else s.result.to_dict(),
        "rng": s.rng.state,
    }
    if s.knockout_on_tie:  # the house rule, saved only when on: a printed game saves as before it existed
        out["knockout_on_tie"] = True
    if s.alternate_starts:  # the same for this house rule
        out["alternate_starts"] = True
    return out


def from_dict(cls: type[KnockbackState], d: Mapping[str, Any]) -> KnockbackState:
    """The state ``to_dict`` gave (KeyError, TypeError, ValueError, IndexError: not one)."""
    s = cls()
    s.whole_line = bool(d["whole_line"])
    s.knockout_on_tie = bool(d.get("knockout_on_tie", False))  # saved only when on (older saves lack it)
    s.alternate_starts = bool(d.get("alternate_starts", False))  # the same
    s.scoring = SCORING_NAMES.index(d["scoring"])
    s.best_of = int(d["best_of"])
    s.need = (s.best_of + 1) // 2
    s.max_turns = int(d["max_turns"])
    s.max_rounds = int(d["max_rounds"])
    s.cards = tuple(compile_card(c) for c in d["cards"])
    s.hands = [[int(x) for x in h] for h in d["hands"]]
    s.kept = [[int(x) for x in k] for k in d["kept"]]
    s.lineup = [[int(x) for x in seat] for seat in d["lineup"]]
    s.set_lineup()
    s.pos = [cell(int(x), int(y)) for x, y in d["pos"]]
    for name in (
        "pick", "placed", "onboard", "exhausted", "phase", "current", "turn", "round", "starter",
        "token", "active", "sym", "moved", "p_target", "p_dir", "p_attack",
    ):
        setattr(s, name, int(d[name]))
    s.grid = {s.pos[i]: i for i in range(6) if s.onboard >> i & 1}
    s.wins = [int(x) for x in d["wins"]]
    s.stay_ready = bool(d["stay_ready"])
    r = d["result"]
    s.result = None if r is None else Outcome.from_dict(r)
    s.rng = Rng(int(d["rng"]))
    if s.phase == SYMBOL:
        s._legal = None
    return s
