"""How the lobby presents KNOCKBACK: a line, its length, its rules page and the built-in packs
with their three cards' text."""

from __future__ import annotations

from knockabout.core.plugins import Choice, LobbyInfo
from knockabout.games.knockback.cards import actions_text, card_text
from knockabout.games.knockback.content import builtin_packs

SUMMARY = ("Each player brings a pack of three cards to one shared grid. Move, punch and knock "
           "your rival's cards back until they croak; win the tug of the score token.")


def lobby_info() -> LobbyInfo:
    packs = tuple(
        Choice(p.id, p.name, p.description or p.style,
               tuple(f"{c.name} ({actions_text(c)}): {card_text(c)}" for c in p.cards))
        for p in builtin_packs())
    each = (Choice("random", "Random", "a random pack, not the other player's"), *packs)
    return LobbyInfo(summary=SUMMARY, minutes=(5, 15), rules="rules.md",
                     choices={"packs": each, "draft_packs": each, "lineup": LINEUP, "knockback": KNOCKBACK,
                              "scoring": SCORING})


LINEUP = (
    Choice("packs", "Bring your pack", "each player fights with the three cards of their pack"),
    Choice("draft2", "Draft two packs", "both packs are shuffled together and drafted, three cards each"),
    Choice("draft4", "Draft four packs", "four packs are drafted; three cards of each hand are left over"),
)
KNOCKBACK = (
    Choice("push", "Push", "the punched card and the cards lined up behind it move one cell"),
    Choice("whole_line", "Whole line", "the whole row or column moves one cell, the attacker too"),
)
SCORING = (
    Choice("tug", "Score token", "a token moves toward each round's winner; win a round with it on your side"),
    Choice("speed", "One round", "a single round is the match"),
    Choice("best_of", "Best of", "the first to win most of the rounds (set Best of)"),
)
