"""Heuristic bots: one module of readable rules per game, found by game id.

The contract for a game's heuristic (other games plug in the same way):

* the module is ``knockabout.bots.heuristic.<module>`` where ``<module>`` is the game
  id with every ``-`` removed (``nak-muay`` -> ``nakmuay``, ``knockback`` ->
  ``knockback``, ``knockdown`` -> ``knockdown``);
* it defines ``HeuristicBot``, a subclass of :class:`~knockabout.core.bot.Bot` that
  can be built with no arguments;
* the bot decides from the :class:`~knockabout.core.bot.SeatView` only (its
  observation, and samples from ``view.sample(rng)`` if it wants them), never the
  true state, and it returns one of the legal actions it is given;
* ``describe()`` says in one line what kind of player it is;
* optionally, ``rollout_policy(state, legal, rng) -> Action``: a cheap playout policy
  for ISMCTS. It is handed *sampled* states (determinizations), so it may read their
  fields, but it should decide as the deciding player could (their own hand and public
  facts), not from the sampled pile order.
* optionally, ``rollout_value(state) -> tuple[float, ...]`` with ``ROLLOUT_DEPTH``: an
  estimate of every player's payoff in an unfinished sampled state. ISMCTS then stops
  each playout after ``ROLLOUT_DEPTH`` actions and scores it with the estimate, for
  games whose matches are too long to play out thousands of times a move.
* optionally, ``SEARCH_PRIOR_VISITS`` (an int): the ISMCTS levels then start every
  search with the heuristic's pick holding that many virtual wins, so the search departs
  from the rules of thumb only where it finds a clearly better move. A ``HeuristicBot``
  with a ``hint(view, legal, rng)`` method is asked that instead and may return None
  (no nudge on that decision).

:func:`heuristic_for` returns the class (or None when the game has no module yet);
:func:`make_heuristic` builds one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from types import ModuleType

from knockabout.core.actions import Action
from knockabout.core.bot import Bot
from knockabout.core.protocol import State
from knockabout.core.rng import Rng

PACKAGE = "knockabout.bots.heuristic"


def module_name(game_id: str) -> str:
    """The heuristic module of a game: its id without dashes."""
    return game_id.replace("-", "")


def _module(game_id: str) -> ModuleType | None:
    # TRANSITIONAL (issue 13): a game that moved its heuristic into its own package
    # (knockabout.games.<module>.heuristic) is found there first.
    for full in (f"knockabout.games.{module_name(game_id)}.heuristic", f"{PACKAGE}.{module_name(game_id)}"):
        try:
            return importlib.import_module(full)
        except ModuleNotFoundError as exc:
            if exc.name not in (full, full.rsplit(".", 1)[0]):
                raise
    return None


def heuristic_for(game_id: str) -> type[Bot] | None:
    """The ``HeuristicBot`` class of a game, or None when it has no heuristic module.

    A module that exists but fails to import, or lacks a proper ``HeuristicBot``,
    raises: a broken plug-in should not be mistaken for a missing one.
    """
    module = _module(game_id)
    if module is None:
        return None
    full = module.__name__
    cls = getattr(module, "HeuristicBot", None)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise TypeError(f"{full} must define HeuristicBot, a subclass of knockabout.bots.Bot")
    return cls


def make_heuristic(game_id: str) -> Bot | None:
    """A fresh heuristic bot for a game, or None when it has none."""
    cls = heuristic_for(game_id)
    return None if cls is None else cls()


RolloutPolicy = Callable[[State, Sequence[Action], Rng], Action]


def rollout_policy_for(game_id: str) -> RolloutPolicy | None:
    """The game's playout policy for search, or None when its module offers none."""
    module = _module(game_id)
    policy = None if module is None else getattr(module, "rollout_policy", None)
    return policy if callable(policy) else None


RolloutValue = Callable[[State], tuple[float, ...]]


def rollout_value_for(game_id: str) -> tuple[RolloutValue, int] | None:
    """The game's playout evaluator and the depth at which playouts stop, or None."""
    module = _module(game_id)
    if module is None:
        return None
    value = getattr(module, "rollout_value", None)
    if not callable(value):
        return None
    depth = getattr(module, "ROLLOUT_DEPTH", None)
    if not isinstance(depth, int) or depth < 0:
        raise TypeError(f"{module.__name__} has rollout_value, so it must define ROLLOUT_DEPTH (an int >= 0)")
    return value, depth


def search_prior_for(game_id: str) -> int:
    """How many virtual wins the heuristic's pick gets at the root of a search (0: none)."""
    module = _module(game_id)
    visits = 0 if module is None else getattr(module, "SEARCH_PRIOR_VISITS", 0)
    if not isinstance(visits, int) or visits < 0:
        raise TypeError(f"{PACKAGE}.{module_name(game_id)}.SEARCH_PRIOR_VISITS must be an int >= 0")
    return visits
