"""Nak Muay events in plain words, for terminal logs and the web log."""

from __future__ import annotations

from collections.abc import Sequence

from knockabout.core.events import Event
from knockabout.core.narration import EventLines
from knockabout.games.nakmuay import cards as C

_TITLE = dict(zip(C.NAMES, C.TITLES, strict=True))


def card_title(name: str) -> str:
    return _TITLE.get(name, name)


def countdown_title(seconds: float | None) -> str:
    """The Countdown named by the table's window length (``10-Second Countdown`` by default;
    just ``Countdown`` when its target has the table's time per move)."""
    return "Countdown" if seconds is None else f"{seconds:g}-Second Countdown"


LINES = EventLines(
    {
        "turn": "— Turn {turn}: {player} to play.",
        "draw": "{player} draws a card.",
        "drew": "{player} drew {card}.",
        "draw_ko": "{player} draws a KO!",
        "draw_nothing": "{player} has nothing to draw: both piles are empty.",
        "block_ko": "{player} blocks the KO.",
        "hide_ko": "{player} hides the KO back in the draw pile.",
        "attack": "{player} plays Attack +{value} on {target}.",
        "take": "{player} takes the hit and draws {count}.",
        "dodge": "{player} dodges the {against}.",
        "dodge_turn": "{player} plays Dodge and skips the draw.",
        "countdown_answered": "{player} answers the Countdown with {card}.",
        "countdown_expired": "{player} does not answer the Countdown in time.",
        "scout_take": "{player} takes one of the scouted cards.",
        "scout_took": "{player} took {card}.",
        "sweep": "{player} sweeps: the draw pile is shuffled.",
        "clinch_pair": "{player} plays a Clinch pair ({hold} x2).",
        "clinch_triple": "{player} plays a Clinch triple.",
        "steal_target": "{player} clinches {target}.",
        "steal": "{player} steals a random card from {target}.",
        "stolen_card": "The stolen card is {card}.",
        "steal_nothing": "{target} has no cards to steal.",
        "reshuffle": "The discard pile is shuffled into a new draw pile ({pile} cards).",
    },
    seats=("player", "target"),
    show={"card": card_title, "hold": card_title},
)
"""The events whose sentence is the event's data filled into a template."""


def narrate(event: Event, names: Sequence[str]) -> str | None:
    """One sentence for an event (None for events not worth a line)."""
    line = LINES.line(event, names)
    if line is not None:
        return line
    d = event.data

    def who(key: str = "player") -> str:
        return names[int(d[key])]

    t = event.type
    if t == "hid_ko":
        depth = int(d["depth"])
        place = "on top" if depth == 0 else f"{depth} card{'' if depth == 1 else 's'} from the top"
        return f"{who()} hid the KO {place}."
    if t == "eliminated":
        why = {"ko": "knocked out by a KO", "countdown": "counted out"}.get(d["reason"], d["reason"])
        hand = ", ".join(card_title(c) for c in d["hand"]) or "no cards"
        return f"{who()} is {why}! Their hand is revealed: {hand}."
    if t == "countdown":
        # the event carries the table's window length (the countdown_seconds option; None: move time)
        if d["seconds"] is None:
            return f"{who()} starts a Countdown on {who('target')}: answer it on your move!"
        return f"{who()} starts a {float(d['seconds']):g}-second Countdown on {who('target')}!"
    if t == "scout":
        seen = int(d["seen"])
        return f"{who()} scouts the top card." if seen == 1 else f"{who()} scouts the top {seen} cards."
    if t == "scouted":
        return f"{who()} sees: " + ", ".join(card_title(c) for c in d["cards"]) + " (top first)."
    if t == "scout_return":
        count = int(d["count"])
        return f"{who()} puts {'the card' if count == 1 else f'{count} cards'} back on top."
    if t == "scout_order":
        return f"{who()} put back (top first): " + ", ".join(card_title(c) for c in d["top_first"]) + "."
    if t == "direction":
        way = "reverses" if d["reversed"] else "keeps"
        return f"{who()} {way} the direction (now {'clockwise' if d['direction'] == 1 else 'counterclockwise'})."
    if t == "name":
        ans = "hands it over" if d["answer"] else "says no"
        return f"{who()} names {card_title(d['card'])}: {who('target')} {ans}."
    if t == "game_over":
        if d["draw"]:
            return "The turn limit is reached: the game is a draw."
        return f"{names[d['winners'][0]]} is the last fighter standing and wins!"
    return None
