"""Card, fighter sheet, skill and arena text, generated from the content data.

Nothing here is parsed back: the rules run the data, and people read these words,
so what a card says and what it does cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from knockabout.games.knockdown.content import models as M
from knockabout.games.knockdown.content import ops as O

_TOKEN_TITLE = {
    "curse": "Curse", "stun": "Stun", "poison": "Poison", "mist": "Mist", "potion": "Potion", "ammo": "Ammo",
    "flame": "Flame", "trap": "Trap", "contamination": "Contamination",
}
TOKEN_RULES = {
    "curse": "no effect of its own; cards and sheets refer to it.",
    "stun": "at the start of their turn the fighter discards it and takes only one action that turn.",
    "poison": "at the end of their turn the fighter suffers 1 light wound per Poison token, then discards one.",
    "mist": "when an attack with light wounds reaches the fighter, they discard a Mist token and ignore 1 light "
            "wound of it.",
    "potion": "during their turn, outside an action, the fighter may discard a Potion to discard 2 light wounds.",
    "ammo": "spent by the cards and sheets that name it.",
    "flame": "at the end of their turn the burning fighter suffers 1 heavy wound and the Flame goes out.",
    "trap": "lies on a space; the opponent of its owner entering that space suffers 1 heavy wound and removes it.",
    "contamination": "a card with no symbol that clogs the hand (it counts for the hand limit and for blocking).",
}


def counted(count: int, word: str) -> str:
    """``1 space``, ``2 spaces``: a count with its word in the right number."""
    return f"{count} {word}" + ("" if count == 1 else "s")


def wounds_text(heavy: int, light: int, joiner: str = " + ") -> str:
    """``1 heavy + 2 light wounds`` (a card's pool; the narration joins with `` and ``)."""
    parts = []
    if heavy:
        parts.append(f"{heavy} heavy")
    if light:
        parts.append(f"{light} light")
    if not parts:
        return "no wounds"
    return joiner.join(parts) + (" wound" if heavy + light == 1 else " wounds")


def _whom(who: str) -> str:
    """The fighter an op names, as the card's reader hears it."""
    return "yourself" if who == "self" else "your opponent"


def _cond_text(c: O.Cond | None) -> str:
    if c is None:
        return ""
    whose = "you have" if c.on == "self" else "your opponent has"
    if not c.present:
        whose = "you have no" if c.on == "self" else "your opponent has no"
        return f"If {whose} {_TOKEN_TITLE[c.has]} token: "
    return f"If {whose} the {_TOKEN_TITLE[c.has]} token: "


def op_text(op: O.Op) -> str:
    """One sentence for one effect primitive."""
    match op:
        case O.WoundOp():
            if op.target == "self":
                t = f"You suffer {wounds_text(op.heavy, op.light)}."
            else:
                t = f"Inflict {wounds_text(op.heavy, op.light)}."
        case O.WoundPerSymbolOp():
            sym = "symbol" if op.symbol == "any" else f"{op.symbol} symbol"
            every = f"every {sym}" if op.per == 1 else f"every {op.per} {sym}s"
            t = f"Inflict 1 {op.kind} wound for {every} on the cards in your hand."
        case O.BackwardOp():
            t = f"Backward {op.steps}: push your opponent {counted(op.steps, 'space')} straight away from you."
        case O.ForwardOp():
            t = f"Forward {op.steps}: move {counted(op.steps, 'space')} straight towards your opponent."
        case O.StepOp():
            may = "You may move" if op.optional else "Move"
            t = (f"{may} {_whom(op.who)} up to {counted(op.steps, 'space')}." if op.optional
                 else f"{may} {_whom(op.who)} {counted(op.steps, 'space')}.")
        case O.BlinkOp():
            span = counted(op.max, "space") if op.min == op.max else f"{op.min}-{op.max} spaces"
            frm = "from you" if op.anchor == "actor" or op.who == "self" else "from where they stand"
            t = f"Blink {_whom(op.who)} to a free space {span} {frm}."
        case O.PlaceTokenOp():
            n = ("an" if op.token[0] in "aeiou" else "a") if op.count == 1 else str(op.count)
            tok = _TOKEN_TITLE[op.token] + (" token" if op.count == 1 else " tokens")
            t = f"Gain {n} {tok}." if op.on == "self" else f"Place {n} {tok} on your opponent."
        case O.RemoveTokenOp():
            tok = _TOKEN_TITLE[op.token]
            t = f"Remove the {tok} token from {_whom(op.source)}."
        case O.DiscardOp():
            whose = "You discard" if op.who == "self" else "Your opponent discards"
            pick = "of their choice" if op.chooser == "owner" else "of your choice"
            t = f"{whose} {counted(op.count, 'card')} {pick} from hand."
        case O.RevealDiscardOp():
            t = f"Your opponent reveals {counted(op.reveal, 'card')} from hand; you discard 1 of them."
        case O.TakeFromRowOp():
            t = f"Take {counted(op.count, 'card')} from the Attack Row into your hand."
        case O.HealOp():
            t = f"Discard {wounds_text(op.heavy, op.light)} from your sheet."
        case O.SpendForStepsOp():
            tok = _TOKEN_TITLE[op.token]
            t = f"Discard any number of {tok} tokens; move 1 space for each."
        case O.DiscardForTokensOp():
            tok = _TOKEN_TITLE[op.token]
            t = f"You may discard any number of cards with the {op.symbol} symbol; gain 1 {tok} token for each."
        case O.TransferWoundOp():
            t = f"Move {counted(op.count, 'wound')} from your sheet to your opponent's."
        case O.PlaceTrapOp():
            t = "Place a Trap token on your space."
        case O.ContaminateOp():
            t = "Put a Contamination card into your opponent's hand."
        case O.CancelMoveOp():
            t = "Cancel that movement."
        case O.IgnoreAttackOp():
            t = "Ignore that entire Attack Sequence (wounds and effect)."
        case _:
            assert_never(op)
    return _cond_text(op.when) + t


def ops_text(ops: Iterable[O.Op]) -> str:
    return " ".join(op_text(o) for o in ops)


def cost_text(cost: Iterable[str]) -> str:
    return " + ".join("either " + " or ".join(s.split("|")) if "|" in s else s for s in cost)


def card_text(c: M.AttackCard) -> str:
    """An Attack card in words: symbols, name, wound pool, K.O., range, type, effect."""
    head = f"[{' '.join(c.symbols)}] {c.name} - {c.type.title()}, {c.range.text()}, {wounds_text(c.heavy, c.light)}"
    if c.ko:
        head += ", K.O."
    lines = [head]
    if c.effect:
        lines.append("  Effect: " + ops_text(c.effect))
    if c.on_take:
        lines.append("  After taking this card: " + ops_text(c.on_take))
    return "\n".join(lines)


def effect_text(c: M.AttackCard) -> str:
    """What an Attack card does besides its wound pool, in words (its effect, then what taking it
    costs), as the card face prints it; empty for a card with neither."""
    lines = []
    if c.effect:
        lines.append(ops_text(c.effect))
    if c.on_take:
        lines.append("After taking this card: " + ops_text(c.on_take))
    return "\n".join(lines)


def special_text(s: M.Special) -> str:
    cost = cost_text(s.cost)
    if s.token_cost:
        cost += " and " + ", ".join(f"{n} {_TOKEN_TITLE[t]}" for t, n in s.token_cost.items())
    head = f"{s.name} - {s.type.title()}, {s.range.text()}, cost {cost}"
    if s.heavy or s.light:
        head += f", {wounds_text(s.heavy, s.light)}"
    if s.ko:
        head += ", K.O."
    trig = {"opponent_moves": "When your opponent moves (as an action or a Dash): ",
            "attacked": "After your opponent attacks you: "}.get(s.trigger, "")
    return head + (f"\n  {trig}{ops_text(s.effect)}" if s.effect else "")


def fighter_sheet(f: M.Fighter) -> str:
    lines = [f"{f.name} ({f.fighter_class})"]
    if f.ko_effect:
        lines.append("K.O. effect (before a Knockdown Test you start): " + ops_text(f.ko_effect))
    if f.start_tokens:
        lines.append("Starts each round with " + ", ".join(f"{n} {_TOKEN_TITLE[t]}" for t, n in
                                                           f.start_tokens.items()))
    lines += [special_text(s) for s in f.special]
    return "\n".join(lines)


def skill_effect_text(e: M.SkillEffect) -> str:
    match e:
        case M.ExtraSymbol():
            return f"Your {' and '.join(e.cards)} also show a {e.symbol} symbol."
        case M.PoolBonus():
            what = "attacks"
            if e.attack_type:
                what = {"strike": "Strikes", "ability": "Abilities", "reaction": "Reactions"}[e.attack_type]
            if e.source == "card":
                what = f"Attack card {what}"
            elif e.source == "special":
                what = f"Special Attack {what}" if e.attack_type else "Special Attacks"
            where = " from an adjacent space" if e.adjacent else " from a distance" if e.adjacent is False else ""
            return f"Your {what}{where} add {wounds_text(e.heavy, e.light)} to their Wound Pool."
        case M.PoolReduction():
            what = {"strike": "Strikes", "ability": "Abilities", "reaction": "Reactions"}.get(e.attack_type or "",
                                                                                            "Attacks")
            return f"{what} against you lose {wounds_text(e.heavy, e.light)} from their Wound Pool."
        case M.BlockBonus():
            return f"When you Block wounds, ignore {counted(e.light, 'more light wound')}."
        case M.HandLimit():
            return f"Your hand limit is {6 + e.delta}."
        case M.RangeBonus():
            return f"Your attacks with a range span reach {counted(e.max, 'space')} further."
        case M.RoundStart():
            return "At the start of each round: " + ops_text(e.ops)
        case M.TurnStart():
            return "At the start of your turn: " + ops_text(e.ops)
        case _:
            assert_never(e)


def skill_text(s: M.Skill) -> str:
    return f"{s.name} (initiative {s.initiative}): " + " ".join(skill_effect_text(e) for e in s.effects)


ARENA_RULE_TEXT = {
    "none": "No special rule.",
    "fading_menhir": (
        "Fading Menhir: Candle cards are shuffled into the Attack deck. The first one drawn places the candles "
        "at both outer columns; each further one moves both a column towards the centre. A fighter ending their "
        "turn on or beyond a candle's column suffers 1 heavy wound."
    ),
    "technical_corridors": (
        "Technical Corridors: from a corridor entrance you may move to any other free entrance during your turn, "
        "before your first action or between your actions (not an action). Arriving costs 1 light wound at the "
        "centre entrance, 1 heavy wound at an outer one."
    ),
    "dangerous_edges": (
        "Dangerous Edges: a fighter attacked on a Dangerous Edge space from an adjacent space adds 1 heavy wound "
        "to that attack's Wound Pool."
    ),
}


def arena_text(a: M.ArenaModel) -> str:
    return "\n".join([a.name, *a.layout, ARENA_RULE_TEXT[a.rule]])
