"""Game-agnostic engine: protocol, actions, events, RNG, replay, registry."""

from knockabout.core.actions import Action, ActionSpace
from knockabout.core.errors import (
    ActionParseError,
    ConfigError,
    ContentError,
    IllegalActionError,
    KnockaboutError,
    ReplayError,
    UnknownGameError,
)
from knockabout.core.events import Event, events_for
from knockabout.core.protocol import Decision, Game, Outcome, State
from knockabout.core.registry import all_games, game_ids, get_game, register
from knockabout.core.replay import GameRecord, Match, replay
from knockabout.core.rng import Rng, mix_seed

__all__ = [
    "Action",
    "ActionParseError",
    "ActionSpace",
    "ConfigError",
    "ContentError",
    "Decision",
    "Event",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "KnockaboutError",
    "Match",
    "Outcome",
    "ReplayError",
    "Rng",
    "State",
    "UnknownGameError",
    "all_games",
    "events_for",
    "game_ids",
    "get_game",
    "mix_seed",
    "register",
    "replay",
]
