"""Knockdown: a two-player arena fighter with Attack cards, Combos and Knockdown Tests.

Ships the project's own content set (three boxes) as data files.
"""

from knockabout.core.registry import register
from knockabout.games.knockdown.game import GAME, KnockdownGame
from knockabout.games.knockdown.state import KnockdownState

register(GAME)

__all__ = ["GAME", "KnockdownGame", "KnockdownState"]
