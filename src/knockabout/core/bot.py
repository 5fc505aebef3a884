"""The bot interface.

A bot sees its seat only: a :class:`SeatView` gives the seat's observation, the
legal actions, and full states *sampled* consistently with what the seat knows
(``State.determinize``). It never hands out the true state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from knockabout.core.actions import Action
from knockabout.core.rng import Rng

if TYPE_CHECKING:
    from knockabout.core.protocol import Decision, Game, State
    from knockabout.core.view import View


class SeatView:
    """What one seat may use to decide."""

    __slots__ = ("_state", "player")

    def __init__(self, state: State, player: int) -> None:
        self._state = state
        self.player = player

    @property
    def game(self) -> Game[Any]:
        return self._state.game

    def observation(self) -> View:
        """The seat's typed view (hidden information removed)."""
        return self._state.observe(self.player)

    def decision(self) -> Decision | None:
        return self._state.to_act()

    def sample(self, rng: Rng) -> State:
        """A full state consistent with everything this seat knows (a determinization)."""
        return self._state.determinize(self.player, rng)


class Bot(ABC):
    """A player. ``choose`` must return one of ``legal``."""

    name: str = "bot"
    searches: bool = False
    """Whether choosing means a search (a server may send such bots to other processes)."""

    @abstractmethod
    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        """Pick an action for the seat ``view.player``."""

    def choose_within(self, view: SeatView, legal: Sequence[Action], rng: Rng, seconds: float) -> Action:
        """Like :meth:`choose`, but the bot should be done in about ``seconds`` of wall time.

        A live table asks this so a search never runs past the time its move is released
        at. Bots whose thinking is bounded anyway (random, heuristics) keep this default;
        a search bot overrides it to stop its search early."""
        return self.choose(view, legal, rng)

    def describe(self) -> str:
        return self.name
