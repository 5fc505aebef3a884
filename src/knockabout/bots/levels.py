"""Named strength levels, usable anywhere a bot is chosen.

=========  ==================================================================
``random``  uniform over the legal actions
``easy``    the game's heuristic bot (:mod:`knockabout.bots.heuristic`); a game
            without one gets a tiny ISMCTS instead, and its ``describe()`` says so
``medium``  ISMCTS, :data:`BUDGETS` ``["medium"]`` iterations a decision
``hard``    ISMCTS, :data:`BUDGETS` ``["hard"]`` iterations a decision (under one
            second a move on a development machine; ``knockabout bench`` shows it)
=========  ==================================================================

ISMCTS levels play out with the game's ``rollout_policy`` when its heuristic module
has one, else with MAST. Budgets are counted in iterations and in simulated actions
(:data:`STEP_BUDGETS`, which bounds the time of games with long playouts), never in
milliseconds, so a seeded game between bots plays out the same way whatever the
machine's load.
"""

from __future__ import annotations

from collections.abc import Callable

from knockabout.bots.heuristic import (
    heuristic_for,
    make_heuristic,
    rollout_policy_for,
    rollout_value_for,
    search_prior_for,
)
from knockabout.bots.ismcts import ISMCTSBot
from knockabout.bots.random_bot import RandomBot
from knockabout.core.bot import Bot
from knockabout.core.errors import KnockaboutError

BotFactory = Callable[[str], Bot]
"""Makes a bot for the given game id."""

BUDGETS: dict[str, int] = {"fallback": 60, "medium": 300, "hard": 2000}
"""ISMCTS iterations per decision for each level (``fallback``: ``easy`` without a heuristic)."""

STEP_BUDGETS: dict[str, int] = {"fallback": 4_000, "medium": 25_000, "hard": 100_000}
"""At most this many simulated actions per decision (about 1 s for ``hard`` at 100k actions/s)."""

GAME_BUDGETS: dict[str, dict[str, int]] = {
    # KNOCKBACK searches without playouts (each leaf is scored by the board estimate,
    # see heuristic.knockback.ROLLOUT_DEPTH): 600 iterations is about 0.1 s a decision
    # and beats `easy`; a match asks several hundred decisions of each side
    "knockback": {"medium": 120, "hard": 600},
}
"""Per-game overrides of :data:`BUDGETS`, for games whose iterations are much slower."""

GAME_STEP_BUDGETS: dict[str, dict[str, int]] = {
    # Knockdown's actions cost about five times Nak Muay's (`knockabout bench`)
    "knockdown": {"fallback": 1_000, "medium": 6_000, "hard": 30_000},
}
"""Per-game overrides of :data:`STEP_BUDGETS`."""


def budget(level: str, game_id: str) -> int:
    """The ISMCTS iterations a level spends per decision in a game."""
    return GAME_BUDGETS.get(game_id, {}).get(level, BUDGETS[level])


def step_budget(level: str, game_id: str) -> int:
    """The simulated actions a level may spend per decision in a game."""
    return GAME_STEP_BUDGETS.get(game_id, {}).get(level, STEP_BUDGETS[level])


def search_bot(level: str, game_id: str, label: str | None = None) -> ISMCTSBot:
    """The ISMCTS bot of a level for a game."""
    policy = rollout_policy_for(game_id)
    cut = rollout_value_for(game_id)
    prior_visits = search_prior_for(game_id)
    return ISMCTSBot(
        iterations=budget(level, game_id),
        max_steps=step_budget(level, game_id),
        rollout="mast" if policy is None else "policy",
        policy=policy,
        evaluator=None if cut is None else cut[0],
        rollout_depth=None if cut is None else cut[1],
        prior=make_heuristic(game_id) if prior_visits else None,
        prior_visits=prior_visits,
        think_on_forced=True,  # a timed window gets a full search even with one legal answer
        label=label or level,
    )


class _FallbackBot(ISMCTSBot):
    """``easy`` for a game that has no heuristic module yet."""

    def describe(self) -> str:
        return f"easy: no heuristic for this game yet, so a small ISMCTS ({self.iterations} iterations)"


def _easy(game_id: str) -> Bot:
    cls = heuristic_for(game_id)
    if cls is not None:
        return cls()
    return _FallbackBot(
        iterations=budget("fallback", game_id), max_steps=step_budget("fallback", game_id), label="easy"
    )


LEVELS: dict[str, BotFactory] = {
    "random": lambda game_id: RandomBot(),
    "easy": _easy,
    "medium": lambda game_id: search_bot("medium", game_id),
    "hard": lambda game_id: search_bot("hard", game_id),
}


def check_level(level: str) -> str:
    """``level`` if it names a level, else a clear error listing the levels."""
    if level not in LEVELS:
        raise KnockaboutError(f"unknown bot level {level!r}; choose one of: {', '.join(LEVELS)}")
    return level


def make_bot(level: str, game_id: str) -> Bot:
    """A fresh bot of a named level for a game. Unknown levels raise a clear error."""
    return LEVELS[check_level(level)](game_id)
