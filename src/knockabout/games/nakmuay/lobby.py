"""How the lobby presents Nak Muay Knockout: a line, its length and its rules page."""

from __future__ import annotations

from knockabout.core.plugins import Choice, LobbyInfo

SUMMARY = ("Be the last fighter standing. The deck hides KO cards: draw one without a Block and "
           "you are out. Attack, Dodge, Scout and Clinch to make the others draw them first.")


END_TURN = (
    Choice("draw_after", "Play, then draw", "after playing a card you still draw, unless it was a Dodge (the usual "
           "reading)"),
    Choice("strict_end_turn", "Playing ends your turn", "any card you play ends your turn with no draw"),
)


def lobby_info() -> LobbyInfo:
    return LobbyInfo(summary=SUMMARY, minutes=(5, 15), rules="rules.md", choices={"end_turn": END_TURN})
