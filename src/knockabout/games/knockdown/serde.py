"""A Knockdown state as JSON-able data and back (saved games, replays, the golden records).

The dict holds everything, hidden cards included, with the state's own field names; the
content is stored as the match's picks and rebuilt from them.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from knockabout.core.protocol import Outcome
from knockabout.core.rng import Rng
from knockabout.games.knockdown.content.match import NTOK, Picks, build_setup
from knockabout.games.knockdown.rules.phases import Phase, pending_from_data
from knockabout.games.knockdown.rules.tasks import task_data, task_from_data

if TYPE_CHECKING:
    from knockabout.games.knockdown.state import KnockdownState


def to_dict(self: KnockdownState) -> dict[str, Any]:
    return {
        "picks": self.setup.picks.to_dict(),
        "cfg": _saved_cfg(self.cfg),
        "rng": self.rng.state,
        "phase": int(self.phase),
        "decider": self.decider,
        "pend": _jsonable(self.pend),
        "tasks": [task_data(t) for t in self.tasks],
        "dealt": [list(x) for x in self.dealt],
        "keep1": list(self.keep1),
        "recv": [list(x) for x in self.recv],
        "keep2": list(self.keep2),
        "up": list(self.up),
        "revealed": list(self.revealed),
        "reveal_done": self.reveal_done,
        "victories": list(self.victories),
        "round_no": self.round_no,
        "first": self.first,
        "current": self.current,
        "turn": self.turn,
        "actions_done": self.actions_done,
        "actions_allowed": self.actions_allowed,
        "heavy": list(self.heavy),
        "light": list(self.light),
        "pos": list(self.pos),
        "hands": [list(h) for h in self.hands],
        "tokens": [list(t) for t in self.tokens],
        "traps": list(self.traps),
        "contam_left": self.contam_left,
        "row": list(self.row),
        "deck": list(self.deck),
        "discard": list(self.discard),
        "candle": self.candle,
        "combo_used": self.combo_used,
        "reacted": list(self.reacted),
        "move_cancel": self.move_cancel,
        "atk": [self.atk_by, self.atk_src, self.atk_type, self.atk_h, self.atk_l, self.atk_fx, self.atk_ko,
                self.atk_hits, self.atk_blockfx, self.atk_void],
        "result": None if self.result is None else self.result.to_dict(),
    }


def from_dict(cls: type[KnockdownState], d: Mapping[str, Any]) -> KnockdownState:
    s = cls()
    s.setup = build_setup(Picks.from_dict(d["picks"]))
    c = d["cfg"]
    s.cfg = (str(c[0]), float(c[1]), float(c[2]), int(c[3]), str(c[4]) if len(c) > 4 else "at_test",
             int(c[5]) if len(c) > 5 else 2, int(c[6]) if len(c) > 6 else 6)
    s.rng = Rng(int(d["rng"]))
    s.phase = Phase(int(d["phase"]))
    s.decider = int(d["decider"])
    s.pend = pending_from_data(s.phase, _tupled(d["pend"]))
    s.tasks = [task_from_data(t) for t in d["tasks"]]
    s.dealt = [[int(x) for x in y] for y in d["dealt"]]
    s.keep1 = [int(x) for x in d["keep1"]]
    s.recv = [[int(x) for x in y] for y in d["recv"]]
    s.keep2 = [int(x) for x in d["keep2"]]
    s.up = [int(x) for x in d["up"]]
    s.revealed = [bool(x) for x in d["revealed"]]
    s.reveal_done = bool(d["reveal_done"])
    s.symtab = [(), ()]
    s.sums = [(0, 0, 0), (0, 0, 0)]
    s.refresh_symbols(0)
    s.refresh_symbols(1)
    s.victories = [int(x) for x in d["victories"]]
    for name in ("round_no", "first", "current", "turn", "actions_done", "actions_allowed", "contam_left",
                 "candle", "combo_used"):
        setattr(s, name, int(d[name]))
    s.heavy = [int(x) for x in d["heavy"]]
    s.light = [int(x) for x in d["light"]]
    s.pos = [int(x) for x in d["pos"]]
    s.hands = [[int(x) for x in h] for h in d["hands"]]
    s.tokens = [[int(x) for x in t] for t in d["tokens"]]
    if any(len(t) != NTOK for t in s.tokens):
        raise ValueError("token lists have the wrong length")
    s.traps = [int(x) for x in d["traps"]]
    s.row = [int(x) for x in d["row"]]
    s.deck = [int(x) for x in d["deck"]]
    s.discard = [int(x) for x in d["discard"]]
    s.reacted = [int(x) for x in d["reacted"]]
    s.move_cancel = bool(d["move_cancel"])
    a = d["atk"]
    s.atk_by, s.atk_src, s.atk_type, s.atk_h, s.atk_l, s.atk_fx = (int(x) for x in a[:6])
    s.atk_ko, s.atk_hits, s.atk_blockfx, s.atk_void = (bool(x) for x in a[6:])
    r = d["result"]
    s.result = None if r is None else Outcome.from_dict(r)
    return s


def _saved_cfg(cfg: tuple[str, float, float, int, str, int, int]) -> list[Any]:
    """The options as saved: the fields at their printed values are left off the end, as saved
    before ``tower_timer``, ``rounds_to_win`` and ``hand_limit`` were options (so such a game
    saves as it did)."""
    out: list[Any] = list(cfg)
    printed = ("at_test", 2, 6)  # cfg[4:], at their printed values
    while len(out) > 4 and out[-1] == printed[len(out) - 5]:
        out.pop()
    return out


def _jsonable(x: Any) -> Any:
    if isinstance(x, IntEnum):
        return int(x)
    if isinstance(x, tuple | list):
        return [_jsonable(v) for v in x]
    return x


def _tupled(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_tupled(v) for v in x)
    return x
