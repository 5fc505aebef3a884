"""KNOCKBACK 'til they croak: a two-player grid battler with packs of three cards."""

from knockabout.core.registry import register
from knockabout.games.knockback.game import GAME, KnockbackGame
from knockabout.games.knockback.state import KnockbackState

register(GAME)

__all__ = ["GAME", "KnockbackGame", "KnockbackState"]
