"""Named strength levels, usable anywhere a bot is chosen.

=========  ==================================================================
``random``  uniform over the legal actions
``easy``    the game's heuristic bot (its :class:`~knockabout.core.plugins.HeuristicPlugin`);
            a game without one gets a tiny ISMCTS instead, and its ``describe()`` says so
``medium``  ISMCTS, :data:`BUDGETS` ``["medium"]`` iterations a decision
``hard``    ISMCTS, :data:`BUDGETS` ``["hard"]`` iterations a decision (under one
            second a move on a development machine; ``knockabout bench`` shows it)
``learned`` a network trained by self-play, run with numpy (:mod:`knockabout.bots.learned`);
            only in games that ship one (``Game.learned_policy``): :func:`levels_for`
=========  ==================================================================

Everything that differs per game comes from the game object: the heuristic plug-in
(``game.heuristic()``: the ``easy`` bot, and the playout policy, playout cut-off and
search prior the ISMCTS levels borrow from it) and the budgets (``game.budgets``, a
:class:`~knockabout.core.plugins.BotBudgets` overriding :data:`BUDGETS` and
:data:`STEP_BUDGETS` for games whose iterations are much slower). ISMCTS levels play out
with the heuristic's ``rollout_policy`` when it has one, else with MAST. Budgets are
counted in iterations and in simulated actions (which bound the time of games with long
playouts), never in milliseconds, so a seeded game between bots plays out the same way
whatever the machine's load.
"""

from __future__ import annotations

from collections.abc import Callable

from knockabout.bots.ismcts import ISMCTSBot
from knockabout.bots.learned import LearnedBot, has_learned_policy
from knockabout.bots.random_bot import RandomBot
from knockabout.core.bot import Bot
from knockabout.core.errors import KnockaboutError
from knockabout.core.registry import get_game

BotFactory = Callable[[str], Bot]
"""Makes a bot for the given game id."""

BUDGETS: dict[str, int] = {"fallback": 60, "medium": 300, "hard": 2000}
"""ISMCTS iterations per decision for each level (``fallback``: ``easy`` without a heuristic)."""

STEP_BUDGETS: dict[str, int] = {"fallback": 4_000, "medium": 25_000, "hard": 100_000}
"""At most this many simulated actions per decision (about 1 s for ``hard`` at 100k actions/s)."""


def budget(level: str, game_id: str) -> int:
    """The ISMCTS iterations a level spends per decision in a game."""
    return get_game(game_id).budgets.iterations.get(level, BUDGETS[level])


def step_budget(level: str, game_id: str) -> int:
    """The simulated actions a level may spend per decision in a game."""
    return get_game(game_id).budgets.steps.get(level, STEP_BUDGETS[level])


def search_bot(level: str, game_id: str, label: str | None = None) -> ISMCTSBot:
    """The ISMCTS bot of a level for a game, borrowing what its heuristic plug-in offers."""
    h = get_game(game_id).heuristic()
    policy = None if h is None else h.rollout_policy
    prior_visits = 0 if h is None else h.search_prior_visits
    return ISMCTSBot(
        iterations=budget(level, game_id),
        max_steps=step_budget(level, game_id),
        rollout="mast" if policy is None else "policy",
        policy=policy,
        evaluator=None if h is None else h.rollout_value,
        rollout_depth=None if h is None or h.rollout_value is None else h.rollout_depth,
        prior=h.bot() if h is not None and prior_visits else None,
        prior_visits=prior_visits,
        think_on_forced=True,  # a timed window gets a full search even with one legal answer
        label=label or level,
    )


class _FallbackBot(ISMCTSBot):
    """``easy`` for a game that declares no heuristic."""

    def describe(self) -> str:
        return f"easy: no heuristic for this game yet, so a small ISMCTS ({self.iterations} iterations)"


def _easy(game_id: str) -> Bot:
    h = get_game(game_id).heuristic()
    if h is not None:
        return h.bot()
    return _FallbackBot(
        iterations=budget("fallback", game_id), max_steps=step_budget("fallback", game_id), label="easy"
    )


LEVELS: dict[str, BotFactory] = {
    "random": lambda game_id: RandomBot(),
    "easy": _easy,
    "medium": lambda game_id: search_bot("medium", game_id),
    "hard": lambda game_id: search_bot("hard", game_id),
    "learned": LearnedBot,
}

GAME_LEVELS: dict[str, tuple[Callable[[str], bool], str]] = {
    "learned": (has_learned_policy, "no trained network ships with it yet"),
}
"""Levels only some games offer: the test of whether a game does, and why one does not."""


def offers(level: str, game_id: str) -> bool:
    """Whether a game offers a (known) level."""
    only_some = GAME_LEVELS.get(level)
    return only_some is None or only_some[0](game_id)


def levels_for(game_id: str) -> list[str]:
    """The levels a game offers, in :data:`LEVELS` order (``learned`` only where a trained
    network ships with the game)."""
    return [level for level in LEVELS if offers(level, game_id)]


def check_level(level: str, game_id: str | None = None) -> str:
    """``level`` if it names a level (that ``game_id``'s game offers, when given), else a clear
    error listing the levels there are."""
    if level not in LEVELS:
        raise KnockaboutError(f"unknown bot level {level!r}; choose one of: {', '.join(LEVELS)}")
    if game_id is not None and not offers(level, game_id):
        g = get_game(game_id)
        raise KnockaboutError(
            f"the {level} level is not available for {g.name}: {GAME_LEVELS[level][1]}; "
            f"choose one of: {', '.join(levels_for(game_id))}"
        )
    return level


def make_bot(level: str, game_id: str) -> Bot:
    """A fresh bot of a named level for a game. Unknown levels, and levels the game does not
    offer, raise a clear error."""
    return LEVELS[check_level(level, game_id)](game_id)
