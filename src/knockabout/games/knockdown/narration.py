"""Knockdown events in plain words, for terminal logs and the web log."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final, Literal, assert_never, cast

from typing_extensions import TypeIs

from knockabout.core.events import Event
from knockabout.core.narration import EventLines
from knockabout.games.knockdown.content import builtin_boxes
from knockabout.games.knockdown.events import EVENT_NAMES, EventName
from knockabout.games.knockdown.text import counted, wounds_text

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

LINES: Final = EventLines(_TEMPLATES, seats=("player", "target", "to", "winner", "first"))
"""Each template's seat fields are written as the seat's display name."""


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
        case "skills_received":
            return f"You receive {', '.join(d['skills'])}."
        case "moved":
            return f"{who()} {_MOVES.get(d['how'], 'moves')} to {d['at']}."
        case "attack":
            return f"{who()} {_plays(d['card'])}."
        case "special":
            paid = ", ".join(d["paid"])
            return f"{who()} performs {d['special']} (paying {paid})."
        case "dash":
            moves = int(d["moves"])
            return f"{who()} discards {d['card']} to Dash {'once' if moves == 1 else f'{moves} times'}."
        case "sequence":
            return f"{d['attack']} hits {who('target')} for {_wounds(d['heavy'], d['light'])}."
        case "block":
            parts = []
            if d["heavy"] or d["light"]:
                parts.append(f"ignores {_wounds(d['heavy'], d['light'])}")
            if d["effect"]:
                parts.append("cancels the effect")
            return f"{who()} blocks ({', '.join(d['cards'])}) and " + " and ".join(parts) + "."
        case "wounds":
            via = _WOUND_SOURCES.get(d["source"], "")
            return f"{who()} suffers {_wounds(d['heavy'], d['light'])}{via}."
        case "heal":
            return f"{who()} recovers {_wounds(d['heavy'], d['light'])}."
        case "potion":
            return f"{who()} drinks a Potion and recovers {counted(d['healed'], 'light wound')}."
        case "tokens":
            n = int(d["change"])
            return f"{who()} {'gains' if n > 0 else 'loses'} {counted(abs(n), str(d['token']) + ' token')}."
        case "tokens_spent":
            return f"{who()} spends {counted(d['count'], str(d['token']) + ' token')}."
        case "test_result":
            roll = f" (rolled {sum(d['roll'])} against {d['wounds']})" if d.get("roll") else ""
            return f"{who()} {'passes' if d['passed'] else 'fails'} the Knockdown Test{roll}."
        case "recover":
            return f"{who()} shakes off {counted(d['light'], 'light wound')}."
        case "candle":
            return (f"A Candle card burns: the Menhir's candles stand at columns {_column(d['left'])} "
                    f"and {_column(d['right'])}.")
        case "game_over":
            if d["draw"]:
                return "The match ends in a draw."
            return f"{names[int(d['winners'][0])]} wins the match!"
        case "end_turn" | "skills_passed" | "row_card" | "action" | "candles_shuffled":
            return None  # not worth a line: the next event says it
        case _:
            assert_never(kind)
