"""Knockdown events in plain words, for terminal logs and the web log."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from knockabout.core.events import Event
from knockabout.games.knockdown.content import builtin_boxes


def _wounds(heavy: int, light: int) -> str:
    parts = []
    if heavy:
        parts.append(f"{heavy} heavy")
    if light:
        parts.append(f"{light} light")
    return " and ".join(parts) + (" wound" if heavy + light == 1 else " wounds") if parts else "no wounds"


def _n(count: object, word: str, many: str | None = None) -> str:
    """``1 light wound``, ``2 light wounds``: a count with its word in the right number."""
    return f"{count} {word if count == 1 else many or word + 's'}"


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

    def who(key: str = "player") -> str:
        return names[int(d[key])]

    simple: dict[str, str] = {
        "skill_kept": "{p} keeps a Skill card.",
        "skill_face_chosen": "{p} places their Skill cards.",
        "combo_end": "{p} ends the Combo.",
        "ko_skip": "{p} lets the Knockdown Test go.",
        "stunned": "{p} is stunned and has only one action this turn.",
        "move_cancelled": "{p}'s movement is cancelled!",
        "mist": "Mist swallows a light wound aimed at {p}.",
        "dangerous_edge": "{p} stands on a Dangerous Edge: the attack gains a heavy wound.",
        "stop": "{p} stops moving.",
        "end_turn": None,  # type: ignore[dict-item]
    }
    if t in simple:
        tmpl = simple[t]
        return None if tmpl is None else tmpl.format(p=who())
    if t == "skill_kept_card":
        return f"You keep {d['skill']}."
    if t == "skills_received":
        return f"You receive {', '.join(d['skills'])}."
    if t == "skills_passed":
        return None
    if t == "skill_revealed":
        return f"{who()} reveals the Skill card {d['skill']} (initiative {d['initiative']})."
    if t == "first_player":
        return f"{who()} has the higher initiative ({d['initiative']}) and goes first."
    if t in ("opening_pick", "row_take"):
        return f"{who()} takes {d['card']} from the Attack Row."
    if t == "take":
        return f"{who()} adds {d['card']} to their hand."
    if t == "row_card":
        return None
    if t == "turn":
        return f"— Round {d['round']}, turn {d['turn']}: {who()} to play."
    if t == "action":
        return None
    if t == "moved":
        how = {"move": "moves", "dash": "dashes", "blink": "blinks", "corridor": "uses a Technical Corridor",
               "backward": "is pushed back", "forward": "lunges forward"}.get(d["how"], "moves")
        return f"{who()} {how} to {d['at']}."
    if t == "attack":
        return f"{who()} {_plays(d['card'])}."
    if t == "out_of_range":
        return f"{d['card']} does not reach: {who()} just takes the card."
    if t == "special":
        paid = ", ".join(d["paid"])
        return f"{who()} performs {d['special']} (paying {paid})."
    if t == "reaction":
        return f"{who()} reacts with {d['special']}!"
    if t == "dash":
        moves = int(d["moves"])
        return f"{who()} discards {d['card']} to Dash {'once' if moves == 1 else f'{moves} times'}."
    if t == "sequence":
        return f"{d['attack']} hits {who('target')} for {_wounds(d['heavy'], d['light'])}."
    if t == "block":
        parts = []
        if d["heavy"] or d["light"]:
            parts.append(f"ignores {_wounds(d['heavy'], d['light'])}")
        if d["effect"]:
            parts.append("cancels the effect")
        return f"{who()} blocks ({', '.join(d['cards'])}) and " + " and ".join(parts) + "."
    if t == "attack_ignored":
        return f"{who()} ignores {d['attack']} entirely."
    if t == "wounds":
        src = d["source"]
        via = {"effect": "", "menhir": " from the fading Menhir", "poison": " from Poison",
               "flame": " from the Flame", "corridor": " in the Technical Corridor"}.get(src, "")
        return f"{who()} suffers {_wounds(d['heavy'], d['light'])}{via}."
    if t == "heal":
        return f"{who()} recovers {_wounds(d['heavy'], d['light'])}."
    if t == "potion":
        return f"{who()} drinks a Potion and recovers {_n(d['healed'], 'light wound')}."
    if t == "tokens":
        n = int(d["change"])
        return f"{who()} {'gains' if n > 0 else 'loses'} {_n(abs(n), str(d['token']) + ' token')}."
    if t == "tokens_spent":
        return f"{who()} spends {_n(d['count'], str(d['token']) + ' token')}."
    if t == "discard":
        return f"{who()} discards {d['card']}."
    if t == "reveal":
        return f"{who()} reveals {d['card']}."
    if t == "wound_moved":
        return f"{who()} passes a {d['kind']} wound to {who('to')}."
    if t == "trap_set":
        return f"{who()} sets a Trap on {d['at']}."
    if t == "trap_sprung":
        return f"{who()} springs a Trap and suffers a heavy wound!"
    if t == "ko_test":
        return f"{who()} goes for the K.O.: {who('target')} must pass a Knockdown Test!"
    if t == "tower_challenge":
        return f"{who()} has {d['seconds']} seconds to build a tower of {d['cubes']} cubes!"
    if t == "test_result":
        roll = f" (rolled {sum(d['roll'])} against {d['wounds']})" if d.get("roll") else ""
        return f"{who()} {'passes' if d['passed'] else 'fails'} the Knockdown Test{roll}."
    if t == "recover":
        return f"{who()} shakes off {_n(d['light'], 'light wound')}."
    if t == "candle":
        return (f"A Candle card burns: the Menhir's candles stand at columns {_column(d['left'])} "
                f"and {_column(d['right'])}.")
    if t == "candles_shuffled":
        return None
    if t == "deck_empty":
        return f"The Attack deck is spent: {who('winner')} has the fewest wounds."
    if t == "round_won":
        return f"{who()} wins round {d['round']}!"
    if t == "new_round":
        return f"Round {d['round']} begins; {who('first')} goes first."
    if t == "game_over":
        if d["draw"]:
            return "The match ends in a draw."
        return f"{names[int(d['winners'][0])]} wins the match!"
    data = ", ".join(f"{k}={v}" for k, v in d.items())
    return f"{t}: {data}" if data else t
