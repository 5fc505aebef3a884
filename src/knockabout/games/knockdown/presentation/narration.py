"""Knockdown events in plain words, for terminal logs and the web log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Final, Literal, assert_never, cast

from typing_extensions import TypeIs

from knockabout.core.events import Event
from knockabout.core.narration import EventLines
from knockabout.games.knockdown.content.loader import builtin_boxes
from knockabout.games.knockdown.content.text import counted, wounds_text
from knockabout.games.knockdown.rules.events import EVENT_NAMES, EventName

_MOVES = {"move": "moves", "dash": "dashes", "blink": "blinks", "corridor": "uses a Technical Corridor",
          "backward": "is pushed back", "forward": "lunges forward"}
_WOUND_SOURCES = {"effect": "", "menhir": " from the fading Menhir", "poison": " from Poison",
                  "flame": " from the Flame", "corridor": " in the Technical Corridor"}


def _wounds(heavy: int, light: int) -> str:
    return wounds_text(heavy, light, " and ")


def _column(x: object) -> str:
    """A column as the arena labels it (column 0 is ``a``)."""
    return chr(ord("a") + int(str(x)))


@cache
def _card_types() -> dict[str, str]:
    return {c.name: c.type for b in builtin_boxes().values() for c in b.cards}


def _plays(card: str) -> str:
    """``attacks with Jab``, but ``plays Healing Draught`` for a card that is not a strike."""
    return f"attacks with {card}" if _card_types().get(card, "strike") != "ability" else f"plays {card}"


Templated = Literal[
    "skill_kept",
    "skill_face_chosen",
    "combo_end",
    "ko_skip",
    "stunned",
    "move_cancelled",
    "mist",
    "dangerous_edge",
    "stop",
    "skill_kept_card",
    "skill_revealed",
    "first_player",
    "opening_pick",
    "row_take",
    "take",
    "turn",
    "out_of_range",
    "reaction",
    "skills_received",
    "moved",
    "candle",
    "attack",
    "dash",
    "sequence",
    "wounds",
    "heal",
    "tokens",
    "tokens_spent",
    "test_result",
    "special",
    "potion",
    "recover",
    "attack_ignored",
    "discard",
    "reveal",
    "wound_moved",
    "trap_set",
    "trap_sprung",
    "ko_test",
    "tower_challenge",
    "deck_empty",
    "round_won",
    "new_round",
]
"""The events whose line is a template filled from the event's data (:data:`LINES`)."""

_TEMPLATES: Final[dict[Templated, str]] = {
    "skill_kept": "{player} keeps a Skill card.",
    "skill_face_chosen": "{player} places their Skill cards.",
    "combo_end": "{player} ends the Combo.",
    "ko_skip": "{player} lets the Knockdown Test go.",
    "stunned": "{player} is stunned and has only one action this turn.",
    "move_cancelled": "{player}'s movement is cancelled!",
    "mist": "Mist swallows a light wound aimed at {player}.",
    "dangerous_edge": "{player} stands on a Dangerous Edge: the attack gains a heavy wound.",
    "stop": "{player} stops moving.",
    "skill_kept_card": "You keep {skill}.",
    "skill_revealed": "{player} reveals the Skill card {skill} (initiative {initiative}).",
    "first_player": "{player} has the higher initiative ({initiative}) and goes first.",
    "opening_pick": "{player} takes {card} from the Attack Row.",
    "row_take": "{player} takes {card} from the Attack Row.",
    "take": "{player} adds {card} to their hand.",
    "turn": "— Round {round}, turn {turn}: {player} to play.",
    "out_of_range": "{card} does not reach: {player} just takes the card.",
    "reaction": "{player} reacts with {special}!",
    "skills_received": "You receive {skills}.",
    "moved": "{player} {how} to {at}.",
    "candle": "A Candle card burns: the Menhir's candles stand at columns {left} and {right}.",
    "attack": "{player} {plays}.",
    "dash": "{player} discards {card} to Dash {times}.",
    "sequence": "{attack} hits {target} for {hurt}.",
    "wounds": "{player} suffers {hurt}{via}.",
    "heal": "{player} recovers {hurt}.",
    "tokens": "{player} {token_change}.",
    "tokens_spent": "{player} spends {spent}.",
    "test_result": "{player} {verdict} the Knockdown Test{rolled}.",
    "special": "{player} performs {special} (paying {paid}).",
    "potion": "{player} drinks a Potion and recovers {healed}.",
    "recover": "{player} shakes off {light}.",
    "attack_ignored": "{player} ignores {attack} entirely.",
    "discard": "{player} discards {card}.",
    "reveal": "{player} reveals {card}.",
    "wound_moved": "{player} passes a {kind} wound to {to}.",
    "trap_set": "{player} sets a Trap on {at}.",
    "trap_sprung": "{player} springs a Trap and suffers a heavy wound!",
    "ko_test": "{player} goes for the K.O.: {target} must pass a Knockdown Test!",
    "tower_challenge": "{player} has {seconds} seconds to build a tower of {cubes} cubes!",
    "deck_empty": "The Attack deck is spent: {winner} has the fewest wounds.",
    "round_won": "{player} wins round {round}!",
    "new_round": "Round {round} begins; {first} goes first.",
}



def _moves(how: str) -> str:
    return _MOVES.get(how, "moves")


def _dash_times(d: Mapping[str, Any]) -> str:
    moves = int(d["moves"])
    return "once" if moves == 1 else f"{moves} times"


def _token_change(d: Mapping[str, Any]) -> str:
    n = int(d["change"])
    return f"{'gains' if n > 0 else 'loses'} {counted(abs(n), str(d['token']) + ' token')}"


def _light_wounds(n: int) -> str:
    return counted(n, "light wound")


LINES: Final = EventLines(
    _TEMPLATES,
    seats=("player", "target", "to", "winner", "first"),
    show={
        "paid": ", ".join,
        "skills": ", ".join,
        "healed": _light_wounds,
        "light": _light_wounds,
        "how": _moves,
        "left": _column,
        "right": _column,
    },
    derive={
        "plays": lambda d: _plays(d["card"]),
        "times": _dash_times,
        "hurt": lambda d: _wounds(d["heavy"], d["light"]),
        "via": lambda d: _WOUND_SOURCES.get(d["source"], ""),
        "token_change": _token_change,
        "spent": lambda d: counted(d["count"], str(d["token"]) + " token"),
        "verdict": lambda d: "passes" if d["passed"] else "fails",
        "rolled": lambda d: f" (rolled {sum(d['roll'])} against {d['wounds']})" if d.get("roll") else "",
    },
)
"""Each template's seat fields are written as the seat's display name; lists of cards are
joined, a count of light wounds is written out (``2 light wounds``), a way of moving as its
verb and a column as the arena labels it; the derived phrases put several fields in words
(``hurt``: the heavy and light wounds together)."""


def _templated(kind: EventName) -> TypeIs[Templated]:
    return kind in _TEMPLATES


def narrate(event: Event, names: Sequence[str]) -> str | None:
    """One sentence for an event (None for events not worth a line)."""
    d = event.data
    t = event.type
    if t not in EVENT_NAMES:  # not one of ours (e.g. a newer log): say what it holds
        data = ", ".join(f"{k}={v}" for k, v in d.items())
        return f"{t}: {data}" if data else t

    def who(key: str = "player") -> str:
        return names[int(d[key])]

    kind = cast(EventName, t)
    if _templated(kind):
        return LINES.line(event, names)
    match kind:
        case "block":
            parts = []
            if d["heavy"] or d["light"]:
                parts.append(f"ignores {_wounds(d['heavy'], d['light'])}")
            if d["effect"]:
                parts.append("cancels the effect")
            return f"{who()} blocks ({', '.join(d['cards'])}) and " + " and ".join(parts) + "."
        case "game_over":
            if d["draw"]:
                return "The match ends in a draw."
            return f"{names[int(d['winners'][0])]} wins the match!"
        case "end_turn" | "skills_passed" | "row_card" | "action" | "candles_shuffled":
            return None  # not worth a line: the next event says it
        case _:
            assert_never(kind)
