"""Nak Muay Knockout: 2-5 players, a deck with KO cards, reactions and a countdown."""

from knockabout.core.registry import register
from knockabout.games.nakmuay.game import GAME, NakMuayGame
from knockabout.games.nakmuay.state import NakMuayState

register(GAME)

__all__ = ["GAME", "NakMuayGame", "NakMuayState"]
