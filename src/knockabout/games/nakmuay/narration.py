"""Nak Muay events in plain words, for terminal logs and the web log."""

from __future__ import annotations

from collections.abc import Sequence

from knockabout.core.events import Event
from knockabout.games.nakmuay import cards as C

_TITLE = dict(zip(C.NAMES, C.TITLES, strict=True))


def card_title(name: str) -> str:
    return _TITLE.get(name, name)


def countdown_title(seconds: float) -> str:
    """The Countdown named by the table's window length (``10-Second Countdown`` by default)."""
    return f"{seconds:g}-Second Countdown"


def narrate(event: Event, names: Sequence[str]) -> str | None:
    """One sentence for an event (None for events not worth a line)."""
    d = event.data

    def who(key: str = "player") -> str:
        return names[int(d[key])]

    t = event.type
    if t == "turn":
        return f"— Turn {d['turn']}: {who()} to play."
    if t == "draw":
        return f"{who()} draws a card."
    if t == "drew":
        return f"{who()} drew {card_title(d['card'])}."
    if t == "draw_ko":
        return f"{who()} draws a KO!"
    if t == "draw_nothing":
        return f"{who()} has nothing to draw: both piles are empty."
    if t == "block_ko":
        return f"{who()} blocks the KO."
    if t == "hide_ko":
        return f"{who()} hides the KO back in the draw pile."
    if t == "hid_ko":
        depth = int(d["depth"])
        place = "on top" if depth == 0 else f"{depth} card{'' if depth == 1 else 's'} from the top"
        return f"{who()} hid the KO {place}."
    if t == "eliminated":
        why = {"ko": "knocked out by a KO", "countdown": "counted out"}.get(d["reason"], d["reason"])
        hand = ", ".join(card_title(c) for c in d["hand"]) or "no cards"
        return f"{who()} is {why}! Their hand is revealed: {hand}."
    if t == "attack":
        return f"{who()} plays Attack +{d['value']} on {who('target')}."
    if t == "take":
        return f"{who()} takes the hit and draws {d['count']}."
    if t == "dodge":
        return f"{who()} dodges the {d['against']}."
    if t == "dodge_turn":
        return f"{who()} plays Dodge and skips the draw."
    if t == "countdown":
        # the event carries the table's window length (the countdown_seconds option)
        return f"{who()} starts a {float(d['seconds']):g}-second Countdown on {who('target')}!"
    if t == "countdown_answered":
        return f"{who()} answers the Countdown with {card_title(d['card'])}."
    if t == "countdown_expired":
        return f"{who()} does not answer the Countdown in time."
    if t == "scout":
        seen = int(d["seen"])
        return f"{who()} scouts the top card." if seen == 1 else f"{who()} scouts the top {seen} cards."
    if t == "scouted":
        return f"{who()} sees: " + ", ".join(card_title(c) for c in d["cards"]) + " (top first)."
    if t == "scout_take":
        return f"{who()} takes one of the scouted cards."
    if t == "scout_took":
        return f"{who()} took {card_title(d['card'])}."
    if t == "scout_return":
        count = int(d["count"])
        return f"{who()} puts {'the card' if count == 1 else f'{count} cards'} back on top."
    if t == "scout_order":
        return f"{who()} put back (top first): " + ", ".join(card_title(c) for c in d["top_first"]) + "."
    if t == "sweep":
        return f"{who()} sweeps: the draw pile is shuffled."
    if t == "direction":
        way = "reverses" if d["reversed"] else "keeps"
        return f"{who()} {way} the direction (now {'clockwise' if d['direction'] == 1 else 'counterclockwise'})."
    if t == "clinch_pair":
        return f"{who()} plays a Clinch pair ({card_title(d['hold'])} x2)."
    if t == "clinch_triple":
        return f"{who()} plays a Clinch triple."
    if t == "steal_target":
        return f"{who()} clinches {who('target')}."
    if t == "steal":
        return f"{who()} steals a random card from {who('target')}."
    if t == "stolen_card":
        return f"The stolen card is {card_title(d['card'])}."
    if t == "steal_nothing":
        return f"{who('target')} has no cards to steal."
    if t == "name":
        ans = "hands it over" if d["answer"] else "says no"
        return f"{who()} names {card_title(d['card'])}: {who('target')} {ans}."
    if t == "reshuffle":
        return f"The discard pile is shuffled into a new draw pile ({d['pile']} cards)."
    if t == "game_over":
        if d["draw"]:
            return "The turn limit is reached: the game is a draw."
        return f"{names[d['winners'][0]]} is the last fighter standing and wins!"
    return None
