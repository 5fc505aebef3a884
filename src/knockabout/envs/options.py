"""What every environment takes alike: the table (game, configuration, seats), the
options the PettingZoo and Gymnasium environments share, and the seed sequence.

Each is checked once, when the environment is made, so a bad option is one clear
:class:`~knockabout.core.errors.ConfigError` (the game's own message for a bad
configuration) and nothing is built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from knockabout.core.errors import ConfigError
from knockabout.core.protocol import Game, State
from knockabout.core.registry import get_game


@dataclass(frozen=True, slots=True)
class Table:
    """A game with a checked configuration and number of seats."""

    game: Game[Any]
    config: dict[str, Any]
    players: int

    @classmethod
    def check(cls, game: str | Game[Any], config: Mapping[str, Any] | None, players: int | None) -> Table:
        """The table, or :class:`ConfigError` naming what is wrong (``players`` None: the
        game's default)."""
        g = get_game(game) if isinstance(game, str) else game
        cfg = dict(config or {})
        g.make_config(cfg)  # refuse a bad configuration now, with the game's message
        n = g.check_players(players) or g.new_state(cfg, 0).num_players
        return cls(g, cfg, n)

    def deal(self, seed: int) -> State:
        """The game dealt with this seed."""
        return self.game.new_state(self.config, seed, players=self.players)


@dataclass(frozen=True, slots=True)
class EnvOptions:
    """The options the PettingZoo and Gymnasium environments share (docs/envs.md)."""

    render_mode: str | None = None
    shaped_rewards: bool = False
    shaping_scale: float = 1.0
    max_steps: int | None = None

    def check(self, render_modes: Sequence[str]) -> EnvOptions:
        """These options, or :class:`ConfigError` naming the bad one."""
        if self.render_mode is not None and self.render_mode not in render_modes:
            raise ConfigError(f"render_mode must be one of {list(render_modes)} or None, not {self.render_mode!r}")
        if self.max_steps is not None and self.max_steps < 1:
            raise ConfigError(f"max_steps must be at least 1 (got {self.max_steps})")
        return self


class Seeds:
    """The deals an environment plays: ``reset(seed=s)`` deals ``s``, every later reset
    without a seed the next one (``s + 1``, ``s + 2``, ...), so a seeded run replays."""

    __slots__ = ("_next",)

    def __init__(self) -> None:
        self._next = 0

    def take(self, seed: int | None = None) -> int:
        """The seed to deal now (``seed`` when given, which also restarts the sequence)."""
        if seed is not None:
            self._next = int(seed)
        taken = self._next
        self._next += 1
        return taken
