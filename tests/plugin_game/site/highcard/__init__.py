"""High Card: a tiny two-player card game that plugs into knockabout from outside.

It is installed like any third-party game: this folder's ``highcard-1.0.dist-info``
declares ``high-card = highcard:GAME`` in the ``knockabout.games`` entry-point group, so
with the folder on ``sys.path`` knockabout finds the game, its bots, its renderers and
its facts through the :class:`~knockabout.core.protocol.Game` object alone.
"""

from highcard.game import GAME, HighCardGame

__all__ = ["GAME", "HighCardGame"]
