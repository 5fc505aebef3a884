"""Bots: players that choose actions from what their seat may know."""

from knockabout.bots.levels import LEVELS, make_bot
from knockabout.bots.random_bot import RandomBot
from knockabout.core.bot import Bot, SeatView

__all__ = ["LEVELS", "Bot", "RandomBot", "SeatView", "make_bot"]
