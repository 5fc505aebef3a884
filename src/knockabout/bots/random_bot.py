"""The random bot: uniform over the legal actions, from the RNG it is given."""

from __future__ import annotations

from collections.abc import Sequence

from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.rng import Rng


class RandomBot(Bot):
    name = "random"

    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        return legal[rng.below(len(legal))]
