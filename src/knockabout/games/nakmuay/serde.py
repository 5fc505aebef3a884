"""A Nak Muay state as JSON-able data and back (saved games, replays, the golden records).

The dict holds everything, hidden cards included, with the state's own field names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from knockabout.core.protocol import Outcome
from knockabout.core.rng import Rng

if TYPE_CHECKING:
    from knockabout.games.nakmuay.state import NakMuayState

_INTS = (
    "n_active", "current", "direction", "turn", "phase", "decider", "target",
    "attack_value", "draw_player", "draws_left", "then", "steal_kind",
    "steal_target", "named",
)


def to_dict(s: NakMuayState) -> dict[str, Any]:
    """The full state (see :meth:`NakMuayState.to_dict`)."""
    return {
        "players": s.n,
        "strict": s.strict,
        "seconds": s.seconds,
        "max_turns": s.max_turns,
        "in_play": list(s.in_play),
        "hands": [list(h) for h in s.hands],
        "sizes": list(s.sizes),
        "pile": list(s.pile),
        "discard": list(s.discard),
        "active": list(s.active),
        "n_active": s.n_active,
        "current": s.current,
        "direction": s.direction,
        "turn": s.turn,
        "phase": s.phase,
        "decider": s.decider,
        "target": s.target,
        "attack_value": s.attack_value,
        "draw_player": s.draw_player,
        "draws_left": s.draws_left,
        "then": s.then,
        "limbo_ko": s.limbo_ko,
        "countdown_live": s.countdown_live,
        "scout_cards": list(s.scout_cards),
        "steal_kind": s.steal_kind,
        "steal_target": s.steal_target,
        "named": s.named,
        "absent": list(s.absent),
        "result": None if s.result is None else s.result.to_dict(),
        "rng": s.rng.state,
    }


def from_dict(cls: type[NakMuayState], d: Mapping[str, Any]) -> NakMuayState:
    """Rebuild a state of class ``cls`` from :func:`to_dict` output."""
    s = cls()
    s.n = int(d["players"])
    s.strict = bool(d["strict"])
    s.seconds = None if d["seconds"] is None else float(d["seconds"])
    s.max_turns = int(d["max_turns"])
    s.in_play = [int(x) for x in d["in_play"]]
    s.hands = [[int(x) for x in h] for h in d["hands"]]
    s.sizes = [int(x) for x in d["sizes"]]
    s.pile = [int(x) for x in d["pile"]]
    s.discard = [int(x) for x in d["discard"]]
    s.active = [bool(x) for x in d["active"]]
    for name in _INTS:
        setattr(s, name, int(d[name]))
    s.limbo_ko = bool(d["limbo_ko"])
    s.countdown_live = bool(d["countdown_live"])
    s.scout_cards = [int(x) for x in d["scout_cards"]]
    s.absent = [int(x) for x in d["absent"]]
    r = d["result"]
    s.result = None if r is None else Outcome.from_dict(r)
    s.rng = Rng(int(d["rng"]))
    return s
