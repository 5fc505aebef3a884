"""A seat's observation as numpy arrays: the game's encoded view and the action mask.

Both come from what the seat may know: the vector from ``state.observe(seat)`` through
the game's :class:`~knockabout.core.plugins.ObservationEncoder`, the mask from the legal
actions of a decision that seat is asked (all zeros while another seat decides).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from knockabout.core.actions import Action
from knockabout.core.errors import ActionParseError, KnockaboutError
from knockabout.core.plugins import ObservationEncoder
from knockabout.core.protocol import Game, State

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


def encoder_of(game: Game[Any]) -> ObservationEncoder:
    """The game's observation encoder, or a clear error when it declares none."""
    enc = game.encoder()
    if enc is None:
        raise KnockaboutError(
            f"{game.id}: the game declares no observation encoder (Game.encoder()), so it has no research environment"
        )
    return enc


class SeatObserver:
    """Encodes seats' observations and masks for one game."""

    __slots__ = ("actions", "encoder", "game", "size")

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.encoder = encoder_of(game)
        self.size = self.encoder.size
        self.actions = len(game.actions)

    def vector(self, state: State, seat: int) -> FloatArray:
        """The seat's encoded view (a fresh float32 array)."""
        return np.frombuffer(self.encoder.encode(state.observe(seat)), dtype=np.float32).copy()

    def mask(self, state: State, seat: int) -> MaskArray:
        """1 for each action the seat may take now (all zeros when it does not decide)."""
        m = np.zeros(self.actions, dtype=np.int8)
        d = state.to_act()
        if d is not None and d.player == seat:
            m[[a.code for a in state.legal_actions()]] = 1
        return m

    def potential(self, state: State, seat: int) -> float:
        return float(self.encoder.potential(state.observe(seat)))


def action_for(game: Game[Any], by_code: tuple[Action, ...], code: object) -> Action:
    """The action with this code, or :class:`ActionParseError` naming the bad code."""
    if isinstance(code, int | np.integer) and not isinstance(code, bool) and 0 <= code < len(by_code):
        return by_code[int(code)]
    raise ActionParseError(f"{game.id}: {code!r} is not an action code (codes are 0..{len(by_code) - 1})")


def seat_rewards(payoffs: tuple[float, ...]) -> list[float]:
    """Outcome rewards: ``(n * payoff - 1) / (n - 1)`` — a sole winner gets 1, the others
    ``-1 / (n - 1)``; the rewards of a game sum to 0, and an even draw gives everyone 0."""
    n = len(payoffs)
    return [(n * p - 1.0) / (n - 1) for p in payoffs]
