"""KNOCKBACK events in plain words, for terminal logs and the web log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, assert_never

from knockabout.core.events import Event
from knockabout.core.narration import EventLines
from knockabout.games.knockback.ops import Op

_DIR_WORD = {"N": "north", "E": "east", "S": "south", "W": "west"}
_FACING = {"N": "S", "S": "N", "E": "W", "W": "E"}
_ABILITY_EVENTS = {"shove": Op.SHOVE, "knockback_held": Op.STEADFAST, "stays_ready": Op.READY_ON_KNOCKOUT}
"""Events that only a card's ability causes, and the op behind each (``exhaust`` events
name theirs in ``ability``; older logs give ``reason`` ``punch`` or ``intimidate``)."""
_EXHAUST_REASON = {"punch": Op.EXHAUST_TARGET, "intimidate": Op.INTIMIDATE}


def _ability_line(op: Op, d: Mapping[str, Any]) -> str:
    """The line for an event an ability caused, by the op that caused it."""
    match op:
        case Op.SHOVE:
            return f"{d['card']} shoves {', '.join(d['cards'])} {_DIR_WORD[d['dir']]}."
        case Op.STEADFAST:
            return f"{d['name']} ({d['card']}) stands firm: no knockback."
        case Op.READY_ON_KNOCKOUT:
            return f"{d['name']} ({d['card']}) stays rested after its knockout."
        case Op.EXHAUST_TARGET:
            return f"{d['name']} ({d['card']}) is exhausted by {d['by']}'s punch."
        case Op.INTIMIDATE:
            return f"{d['name']} ({d['card']}) is exhausted: {d['by']} stepped next to it."
        case (
            Op.ATTACK_BONUS | Op.HEART_BONUS | Op.KNOCKBACK | Op.CHARGE | Op.AURA_ATTACK | Op.AURA_HEART
        ):  # these change numbers the punch line already shows
            return f"{d.get('name', d.get('card', 'A card'))} uses its ability."
        case _:  # pragma: no cover - every op is listed above
            assert_never(op)


LINES = EventLines(
    {
        "draft_keep": "{player} keeps {name}.",
        "draft_pick": "{player} picks a card to keep.",
        "draft_pass": "The hands are passed ({hand_size} cards each).",
        "round_start": "— Round {round}: {starter} places first.",
        "battle": "All cards are placed. {player} starts the battle.",
        "activate": "{player} activates {name} ({card}).",
        "move": "{card} moves {dir}.",
        "knockout": "{name} ({card}) leaves the grid.",
    },
    seats=("player", "starter"),
    show={"dir": _DIR_WORD.__getitem__},
)
"""The events whose sentence is the event's data filled into a template."""


def narrate(event: Event, names: Sequence[str]) -> str | None:
    """One sentence for an event (None for events not worth a line)."""
    line = LINES.line(event, names)
    if line is not None:
        return line
    d = event.data
    t = event.type

    def who(key: str = "player") -> str:
        return names[int(d[key])]

    if t in _ABILITY_EVENTS:
        return _ability_line(_ABILITY_EVENTS[t], d)
    if t == "exhaust":
        return _ability_line(Op(d["ability"]) if "ability" in d else _EXHAUST_REASON[d["reason"]], d)
    if t == "draft_done":
        a, b = d["lineups"]
        return f"Draft over. {names[0]}: {', '.join(a)}. {names[1]}: {', '.join(b)}."
    if t == "place":
        where = " in the middle" if (d["x"], d["y"]) == (0, 0) else ""
        return f"{who()} places {d['name']} ({d['card']}){where}."
    if t == "turn":
        return None
    if t == "skip":
        why = " (nothing it could do)" if d["forced"] else ""
        return f"{d['card']} skips its {d['symbol'].replace('_', '-')} symbol{why}."
    if t == "punch":
        result = "KNOCKED OUT!" if d["ko"] else "it holds."
        free = "" if d["side"] == _FACING[d["dir"]] else "free "
        return (
            f"{d['name']} ({d['card']}) punches {d['target_name']} ({d['target']}) {_DIR_WORD[d['dir']]}: "
            f"attack {d['attack']} against heart {d['heart']} on its {free}{_DIR_WORD[d['side']]} edge — {result}"
        )
    if t == "knockback":
        cells = d["cells"]
        plural = "s" if cells != 1 else ""
        return f"Knockback: {', '.join(d['cards'])} slide {cells} cell{plural} {_DIR_WORD[d['dir']]}."
    if t == "rest":
        cards = ", ".join(d["cards"])
        return f"{who()} rests" + (f": {cards} ready again." if cards else " (nothing to ready).")
    if t == "round_over":
        if d["winner"] is None:
            head = f"Round {d['round']} is drawn ({d['reason']})."
        else:
            head = f"{who('winner')} wins round {d['round']} ({d['reason']})."
        token = d["token"]
        where = "in the middle" if token is None else f"in front of {names[int(token)]}"
        return f"{head} Score token {where}; rounds won {d['wins'][0]}-{d['wins'][1]}."
    if t == "game_over":
        if d["draw"]:
            return f"The match is drawn ({d['reason']})."
        return f"{names[int(d['winners'][0])]} wins the match ({d['reason']})."
    data = ", ".join(f"{k}={v}" for k, v in d.items())
    return f"{t}: {data}" if data else t
