"""Knockdown events in plain words, for terminal logs and the web log."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import assert_never, cast

from knockabout.core.events import Event
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
    match kind:
        case "skill_kept":
            return f"{who()} keeps a Skill card."
        case "skill_face_chosen":
            return f"{who()} places their Skill cards."
        case "combo_end":
            return f"{who()} ends the Combo."
        case "ko_skip":
            return f"{who()} lets the Knockdown Test go."
        case "stunned":
            return f"{who()} is stunned and has only one action this turn."
        case "move_cancelled":
            return f"{who()}'s movement is cancelled!"
        case "mist":
            return f"Mist swallows a light wound aimed at {who()}."
        case "dangerous_edge":
            return f"{who()} stands on a Dangerous Edge: the attack gains a heavy wound."
        case "stop":
            return f"{who()} stops moving."
        case "skill_kept_card":
            return f"You keep {d['skill']}."
        case "skills_received":
            return f"You receive {', '.join(d['skills'])}."
        case "skill_revealed":
            return f"{who()} reveals the Skill card {d['skill']} (initiative {d['initiative']})."
        case "first_player":
            return f"{who()} has the higher initiative ({d['initiative']}) and goes first."
        case "opening_pick" | "row_take":
            return f"{who()} takes {d['card']} from the Attack Row."
        case "take":
            return f"{who()} adds {d['card']} to their hand."
        case "turn":
            return f"— Round {d['round']}, turn {d['turn']}: {who()} to play."
        case "moved":
            return f"{who()} {_MOVES.get(d['how'], 'moves')} to {d['at']}."
        case "attack":
            return f"{who()} {_plays(d['card'])}."
        case "out_of_range":
            return f"{d['card']} does not reach: {who()} just takes the card."
        case "special":
            paid = ", ".join(d["paid"])
            return f"{who()} performs {d['special']} (paying {paid})."
        case "reaction":
            return f"{who()} reacts with {d['special']}!"
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
        case "attack_ignored":
            return f"{who()} ignores {d['attack']} entirely."
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
        case "discard":
            return f"{who()} discards {d['card']}."
        case "reveal":
            return f"{who()} reveals {d['card']}."
        case "wound_moved":
            return f"{who()} passes a {d['kind']} wound to {who('to')}."
        case "trap_set":
            return f"{who()} sets a Trap on {d['at']}."
        case "trap_sprung":
            return f"{who()} springs a Trap and suffers a heavy wound!"
        case "ko_test":
            return f"{who()} goes for the K.O.: {who('target')} must pass a Knockdown Test!"
        case "tower_challenge":
            return f"{who()} has {d['seconds']} seconds to build a tower of {d['cubes']} cubes!"
        case "test_result":
            roll = f" (rolled {sum(d['roll'])} against {d['wounds']})" if d.get("roll") else ""
            return f"{who()} {'passes' if d['passed'] else 'fails'} the Knockdown Test{roll}."
        case "recover":
            return f"{who()} shakes off {counted(d['light'], 'light wound')}."
        case "candle":
            return (f"A Candle card burns: the Menhir's candles stand at columns {_column(d['left'])} "
                    f"and {_column(d['right'])}.")
        case "deck_empty":
            return f"The Attack deck is spent: {who('winner')} has the fewest wounds."
        case "round_won":
            return f"{who()} wins round {d['round']}!"
        case "new_round":
            return f"Round {d['round']} begins; {who('first')} goes first."
        case "game_over":
            if d["draw"]:
                return "The match ends in a draw."
            return f"{names[int(d['winners'][0])]} wins the match!"
        case "end_turn" | "skills_passed" | "row_card" | "action" | "candles_shuffled":
            return None  # not worth a line: the next event says it
        case _:
            assert_never(kind)
