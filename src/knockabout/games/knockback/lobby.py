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
                     choices={"packs": each, "draft_packs": each})
