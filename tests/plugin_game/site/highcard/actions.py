"""High Card's actions: ``play:N`` plays the card of value N (1-9)."""

from __future__ import annotations

from knockabout.core.actions import Action, ActionSpace

VALUES = range(1, 10)
SPACE = ActionSpace("high-card", [f"play:{n}" for n in VALUES])
PLAY: dict[int, Action] = {n: SPACE.get(f"play:{n}") for n in VALUES}


def card_of(action: Action) -> int:
    return int(action.text.partition(":")[2])
