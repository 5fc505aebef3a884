"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

The bot works for every game through the protocol alone:

1. **Determinize.** Each iteration starts from ``view.sample(rng)``: a full state
   consistent with what the seat knows (hidden cards re-dealt, the state's own RNG
   reseeded), so the search never sees the true hidden cards or the true future.
2. **Select** down one shared tree (nodes are reached by action sequences, not by
   states), choosing among the actions legal *in this determinization* by UCB1 with
   availability counts: an action's exploration term uses how often it was available,
   not how often its parent was visited.
3. **Expand** one untried legal action, then **roll out** to the end of the game with a
   cheap policy: uniform random, or MAST (move-average sampling: actions that did
   well for the player who took them, anywhere in earlier iterations, are preferred
   with probability ``1 - epsilon``).
   With an ``evaluator`` and a ``rollout_depth``, a playout stops after that many
   actions and the evaluator's estimate of each player's payoff stands in for the
   result: far cheaper for games whose matches run to hundreds of actions.
4. **Back up** per-player payoffs (:class:`~knockabout.core.protocol.Outcome.payoffs`):
   each node scores the payoff of the player who chose the action leading to it, so
   multi-player games need nothing special.

A game's heuristic plug-in may offer a cheaper-than-thought, better-than-random
playout policy (``rollout_policy``, see :class:`~knockabout.core.plugins.HeuristicPlugin`);
it runs on the sampled state, so it can never see the true hidden cards either.

The budget is a number of iterations, a number of simulated actions
(``max_steps``: a deterministic stand-in for time, for games with long playouts),
a number of milliseconds, or several (whichever ends first). Iterations and steps
are reproducible: a fixed seed gives a fixed choice. The final choice is the
most-visited root action.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from mypy_extensions import mypyc_attr

from knockabout.core.actions import Action
from knockabout.core.bot import Bot, SeatView
from knockabout.core.protocol import State
from knockabout.core.rng import Rng

ROLLOUT_CAP: Final = 5_000
"""Rollouts longer than this many actions are scored as a draw among all players."""

Policy = Callable[[State, Sequence[Action], Rng], Action]
"""A playout policy: picks one of ``legal`` in a sampled state (see the heuristic plug-ins)."""

Evaluator = Callable[[State], tuple[float, ...]]
"""Estimated payoffs (one per player, in [0, 1]) of an unfinished sampled state: ends a
playout early (see ``rollout_depth``)."""


class _Node:
    """One node of the search tree: reached by the action ``code`` chosen by ``mover``."""

    __slots__ = ("avail", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.children: dict[int, _Node] = {}


@dataclass
class SearchStats:
    """What the last search did (for reports, benchmarks and tests)."""

    iterations: int = 0
    seconds: float = 0.0
    visits: dict[str, int] = field(default_factory=dict)
    values: dict[str, float] = field(default_factory=dict)


@mypyc_attr(allow_interpreted_subclasses=True)  # bots/levels.py subclasses it uncompiled
class ISMCTSBot(Bot):
    """SO-ISMCTS for any game of the protocol.

    ``iterations``, ``max_steps`` (actions applied, in the tree and in playouts) and
    ``time_ms`` bound the search (at least one of iterations and time must be given;
    the first limit reached ends it). Only iteration and step budgets are reproducible.
    ``exploration`` is the UCB constant (payoffs are in [0, 1]). ``rollout`` is
    ``"random"``, ``"mast"``, or ``"policy"`` (needs ``policy``). ``prior`` (a bot,
    e.g. the game's heuristic) and ``prior_visits``: the prior's pick starts the search
    with that many virtual wins (a prior bot with a ``hint(view, legal, rng)`` method
    is asked that instead, and may return None for no nudge). ``evaluator`` with ``rollout_depth``: playouts stop
    after that many actions and score the evaluator's estimate. ``think_on_forced``
    makes the bot search even when only one action is legal in a timed decision, so
    its thinking time does not reveal that it held no answer.
    """

    searches = True

    name = "ismcts"

    def __init__(
        self,
        iterations: int | None = 1000,
        time_ms: float | None = None,
        exploration: float = 0.7,
        rollout: str = "mast",
        epsilon: float = 0.3,
        think_on_forced: bool = False,
        label: str | None = None,
        max_steps: int | None = None,
        policy: Policy | None = None,
        prior: Bot | None = None,
        prior_visits: int = 0,
        evaluator: Evaluator | None = None,
        rollout_depth: int | None = None,
    ) -> None:
        if iterations is None and time_ms is None:
            raise ValueError("ISMCTSBot needs a budget: iterations, time_ms or both")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        if time_ms is not None and time_ms <= 0:
            raise ValueError(f"time_ms must be positive, got {time_ms}")
        if rollout not in ("random", "mast", "policy"):
            raise ValueError(f"rollout must be 'random', 'mast' or 'policy', got {rollout!r}")
        if rollout == "policy" and policy is None:
            raise ValueError("rollout='policy' needs a policy")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}")
        if (evaluator is None) != (rollout_depth is None):
            raise ValueError("evaluator and rollout_depth go together: give both or neither")
        if rollout_depth is not None and rollout_depth < 0:
            raise ValueError(f"rollout_depth must be at least 0, got {rollout_depth}")
        self.evaluator = evaluator
        self.rollout_depth = rollout_depth
        self.max_steps = max_steps
        self.policy = policy
        self.prior = prior
        self.prior_visits = prior_visits
        self.iterations = iterations
        self.time_ms = time_ms
        self.exploration = exploration
        self.rollout = rollout
        self.epsilon = epsilon
        self.think_on_forced = think_on_forced
        if label is not None:
            self.name = label
        self.last = SearchStats()

    def describe(self) -> str:
        budget = []
        if self.iterations is not None:
            budget.append(f"{self.iterations} iterations")
        if self.max_steps is not None:
            budget.append(f"{self.max_steps} simulated actions")
        if self.time_ms is not None:
            budget.append(f"{self.time_ms:g} ms")
        playout = f"{self.rollout} rollouts"
        if self.rollout_depth is not None:
            playout += f" cut at {self.rollout_depth} actions and evaluated"
        return f"{self.name}: ISMCTS ({' or '.join(budget)}, {playout})"

    # ------------------------------------------------------------------ search
    def choose(self, view: SeatView, legal: Sequence[Action], rng: Rng) -> Action:
        return self._choose(view, legal, rng, self.time_ms)

    def choose_within(self, view: SeatView, legal: Sequence[Action], rng: Rng, seconds: float) -> Action:
        """:meth:`choose` with the search also ended after ``seconds`` (at least one
        iteration runs), whichever of that and the bot's own budget comes first."""
        cap = max(seconds, 0.0) * 1000.0
        return self._choose(view, legal, rng, cap if self.time_ms is None else min(cap, self.time_ms))

    def _choose(self, view: SeatView, legal: Sequence[Action], rng: Rng, time_ms: float | None) -> Action:
        if len(legal) == 1:
            decision = view.decision()
            if not (self.think_on_forced and decision is not None and decision.time_limit is not None):
                self.last = SearchStats()
                return legal[0]
        search_rng = Rng(rng.next64())
        root = _Node(view.player)
        if self.prior is not None and self.prior_visits > 0:
            # the prior's pick starts with virtual wins: a strong nudge where the search
            # spreads thin (many options), a small one where it can tell options apart
            # (a prior with a ``hint`` method may also decline to give one: None)
            prior_rng = Rng(search_rng.next64())
            hint_of = getattr(self.prior, "hint", None)
            hint = hint_of(view, legal, prior_rng) if callable(hint_of) else self.prior.choose(view, legal, prior_rng)
            if hint is not None:
                seed = _Node(view.player)
                seed.visits = seed.avail = self.prior_visits
                seed.reward = float(self.prior_visits)
                root.children[hint.code] = seed
        # A search makes a great many short-lived lists, dicts and states and no reference
        # cycles, so the cyclic collector only costs time while it runs (docs/speed.md): it is
        # paused, and resumed however the search ends.
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        try:
            self._search(view, search_rng, root, time_ms)
        finally:
            if collecting:
                gc.enable()
        # most visits wins; ties go to the better mean, then to the order of ``legal``
        best = legal[0]
        best_key = (-1, -1.0)
        for a in legal:
            child = root.children.get(a.code)
            if child is None:
                continue
            key = (child.visits, child.reward / child.visits if child.visits else 0.0)
            if key > best_key:
                best, best_key = a, key
        return best

    def _search(self, view: SeatView, rng: Rng, root: _Node, time_ms: float | None) -> None:
        c = self.exploration
        eps = self.epsilon
        mast = self.rollout == "mast"
        policy = self.policy if self.rollout == "policy" else None
        step_limit = self.max_steps if self.max_steps is not None else 1 << 62
        evaluator = self.evaluator
        cap = ROLLOUT_CAP if self.rollout_depth is None else self.rollout_depth
        steps_used = 0
        # MAST table, flat and indexed by player * width + action code: the payoff total and
        # count of each (player, action), and their mean (1.0 until the action is first seen)
        width = len(view.game.actions)
        slots = width * view.game.facts.max_players if mast else 0
        sums = [0.0] * slots
        counts = [0.0] * slots
        means = [1.0] * slots
        limit = self.iterations if self.iterations is not None else 1 << 62
        deadline = None if time_ms is None else time.perf_counter() + time_ms / 1000.0
        start = time.perf_counter()
        log = math.log
        sqrt = math.sqrt
        done = 0
        while done < limit and steps_used < step_limit:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            state: State = view.sample(rng)
            node = root
            path: list[_Node] = []
            moves: list[int] = []  # player * width + action code, for MAST
            # selection and expansion
            while True:
                decision = state.to_act()
                if decision is None:
                    break
                legal = state.legal_actions()
                player = decision.player
                children = node.children
                untried = [a for a in legal if a.code not in children]
                if untried:
                    for a in legal:
                        ch = children.get(a.code)
                        if ch is not None:
                            ch.avail += 1
                    a = untried[rng.below(len(untried))] if len(untried) > 1 else untried[0]
                    child = _Node(player)
                    children[a.code] = child
                    state.apply(a)
                    path.append(child)
                    moves.append(player * width + a.code)
                    break
                best_a = legal[0]
                best_child: _Node | None = None
                best_score = -1.0
                for a in legal:
                    ch = children[a.code]
                    ch.avail += 1
                    score = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if score > best_score:
                        best_score, best_a, best_child = score, a, ch
                assert best_child is not None
                state.apply(best_a)
                node = best_child
                path.append(node)
                moves.append(player * width + best_a.code)
            # rollout
            steps = 0
            while steps < cap:
                decision = state.to_act()
                if decision is None:
                    break
                legal = state.legal_actions()
                n = len(legal)
                player = decision.player
                if n == 1:
                    a = legal[0]
                elif policy is not None:
                    a = policy(state, legal, rng)
                elif mast and rng.random() >= eps:
                    a = legal[0]
                    best_v = -1.0
                    base = player * width
                    for cand in legal:
                        v = means[base + cand.code]
                        if v > best_v:
                            best_v, a = v, cand
                else:
                    a = legal[rng.below(n)]
                if mast and n > 1:
                    moves.append(player * width + a.code)
                state.apply(a)
                steps += 1
            steps_used += steps + len(path)
            outcome = state.outcome()
            payoffs: tuple[float, ...]
            if outcome is None and evaluator is not None:
                payoffs = evaluator(state)
            elif outcome is None:
                k = state.num_players
                payoffs = tuple(1.0 / k for _ in range(k))
            else:
                payoffs = outcome.payoffs
            for nd in path:
                nd.visits += 1
                nd.reward += payoffs[nd.mover]
            if mast:
                for key in moves:
                    total = sums[key] + payoffs[key // width]
                    count = counts[key] + 1.0
                    sums[key] = total
                    counts[key] = count
                    means[key] = total / count
            done += 1
        space = view.game.actions
        self.last = SearchStats(
            iterations=done,
            seconds=time.perf_counter() - start,
            visits={space[code].text: ch.visits for code, ch in root.children.items()},
            values={
                space[code].text: ch.reward / ch.visits for code, ch in root.children.items() if ch.visits
            },
        )
