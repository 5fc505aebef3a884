"""Research environments: every registered game as PettingZoo, Gymnasium and OpenSpiel.

Generic: nothing here names a game. What differs per game is its
:class:`~knockabout.core.plugins.ObservationEncoder` (``Game.encoder()``), its terminal
renderer and its heuristic/bot levels; the action space is the game's fixed
:class:`~knockabout.core.actions.ActionSpace` (an action's code is its index).

* :mod:`knockabout.envs.pettingzoo` — ``env(game, **options)``: an AEC environment, one
  agent per seat (needs the ``rl`` extra);
* :mod:`knockabout.envs.gymnasium` — ``knockabout/<Game>-v0``: one learning seat, the
  others knockabout bots (``rl`` extra);
* :mod:`knockabout.envs.openspiel` — each game as an OpenSpiel Python game
  (``openspiel`` extra).

Importing this package pulls in none of those libraries.
"""
