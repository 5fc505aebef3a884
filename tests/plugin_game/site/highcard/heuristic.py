"""High Card's rules of thumb: lead high; answer with the lowest card that wins, else the lowest."""

from __future__ import annotations

from collections.abc import Sequence

from highcard.actions import card_of
from highcard.state import HighCardState
from highcard.view import HighCardView
from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.protocol import State
from knockabout.core.rng import Rng


def pick(led: int | None, legal: Sequence[Action]) -> Action:
    by_card = sorted(legal, key=card_of)
    if led is None:
        return by_card[-1]
    winning = [a for a in by_card if card_of(a) > led]
    return winning[0] if winning else by_card[0]


class HighCardBot(Bot):
    """Decides from its seat's typed view only."""

    name = "high-card heuristic"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        seen = view.observation()
        assert isinstance(seen, HighCardView)
        return pick(seen.led, legal)


def rollout_policy(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """The same rule on a sampled state (it reads only the card on the table)."""
    return pick(state.led if isinstance(state, HighCardState) else None, legal)
