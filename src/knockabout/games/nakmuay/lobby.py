"""How the lobby presents Nak Muay Knockout: a line, its length and its rules page."""

from __future__ import annotations

from knockabout.core.plugins import LobbyInfo

SUMMARY = ("Be the last fighter standing. The deck hides KO cards: draw one without a Block and "
           "you are out. Attack, Dodge, Scout and Clinch to make the others draw them first.")


def lobby_info() -> LobbyInfo:
    return LobbyInfo(summary=SUMMARY, minutes=(5, 15), rules="rules.md")
