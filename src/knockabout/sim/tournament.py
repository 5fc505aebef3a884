"""Seeded batches of bot games, in parallel processes, identical for any worker count.

A :class:`SimSpec` names the game, its options, the player count, the bot levels,
how many games and the base seed. :func:`plan` turns it into games:

* one level: every seat plays that level; game ``i`` is deal ``i``;
* exactly ``players`` levels (repeats allowed): that line-up, in every distinct
  seat order;
* more levels than players: every combination of ``players`` different levels (a
  round robin), each in every distinct seat order;
* fewer (but several): the levels are repeated in turn to fill the seats, and that
  line-up plays in every distinct seat order.

Every line-up and seat order of a deal plays the *same* deal (paired seeds), so seat
luck and card luck cancel out between bots. The number of deals is
``ceil(games / games_per_deal)``. The deal of deal number ``d`` is dealt from
``mix_seed(seed, d)``; the bots of game ``i`` draw from ``mix_seed(seed, "bots", i)``.
Nothing depends on which process plays a game, so the results are the same for any
``workers``; only the measured thinking times differ.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from itertools import combinations, permutations
from multiprocessing import get_context
from typing import Any

from pydantic import BaseModel

from knockabout.bots.levels import check_level, make_bot
from knockabout.core.errors import ConfigError, KnockaboutError
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng, mix_seed
from knockabout.sim.driver import play
from knockabout.sim.results import GameResult, SimResults


@dataclass(frozen=True)
class SimSpec:
    game: str
    players: int
    games: int
    seed: int = 1
    bots: tuple[str, ...] = ("random",)
    config: Mapping[str, Any] = field(default_factory=dict)

    def full_config(self) -> dict[str, Any]:
        """The game options with the player count filled in (when the game has that option)."""
        cfg = dict(self.config)
        if "players" in get_game(self.game).config_model.model_fields:
            cfg["players"] = self.players
        return cfg


@dataclass(frozen=True)
class Task:
    index: int
    deal: int
    seats: tuple[str, ...]


def validate(spec: SimSpec) -> None:
    """Raise one clear :class:`KnockaboutError` for the first thing wrong with ``spec``."""
    g = get_game(spec.game)
    if not g.min_players <= spec.players <= g.max_players:
        span = str(g.min_players) if g.min_players == g.max_players else f"{g.min_players}-{g.max_players}"
        raise ConfigError(f"{g.id} is played by {span} players, not {spec.players}")
    if spec.games < 1:
        raise KnockaboutError(f"the number of games must be at least 1, not {spec.games}")
    if not spec.bots:
        raise KnockaboutError("name at least one bot level")
    for level in spec.bots:
        check_level(level)
    given = spec.config.get("players")
    if given is not None and given != spec.players:
        raise ConfigError(f"--players {spec.players} disagrees with the option players={given}")
    g.make_config(spec.full_config())


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The line-ups to play (before seat orders); see the module text."""
    names = list(bots)
    distinct = list(dict.fromkeys(names))
    if len(distinct) == 1:
        return [(distinct[0],) * players]
    if len(names) == players:
        return [tuple(names)]
    if len(distinct) > players:
        return [tuple(c) for c in combinations(distinct, players)]
    return [tuple(distinct[i % len(distinct)] for i in range(players))]


def seat_orders(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every distinct arrangement of a line-up over the seats, in a fixed order."""
    return list(dict.fromkeys(permutations(lineup)))


def plan(spec: SimSpec) -> list[Task]:
    per_deal = [order for lu in lineups(spec.bots, spec.players) for order in seat_orders(lu)]
    deals = math.ceil(spec.games / len(per_deal))
    tasks: list[Task] = []
    for d in range(deals):
        for order in per_deal:
            tasks.append(Task(len(tasks), d, order))
    return tasks


def play_game(spec: SimSpec, task: Task, config: BaseModel | None = None) -> GameResult:
    """Play one game of the plan (``config``: the spec's options, already validated)."""
    g = get_game(spec.game)
    seed = mix_seed(spec.seed, task.deal)
    state = g.new_state(config if config is not None else spec.full_config(), seed, players=spec.players)
    bots = [make_bot(level, g.id) for level in task.seats]
    base = mix_seed(spec.seed, "bots", task.index)
    rngs = [Rng(mix_seed(base, seat)) for seat in range(spec.players)]
    played = play(state, bots, rngs, name=f"game {task.index}")
    outcome = played.outcome
    turns = state.turns() if g.facts.length_unit == "turns" else None
    return GameResult(
        index=task.index,
        deal=task.deal,
        seed=seed,
        bots=list(task.seats),
        winners=list(outcome.winners),
        payoffs=list(outcome.payoffs),
        draw=outcome.draw,
        length=played.decisions if turns is None else turns,
        decisions=played.decisions,
        first=played.first,
        think=played.think,
        moves=played.moves,
        reason=outcome.reason,
    )


def _run_chunk(spec: SimSpec, tasks: list[Task]) -> list[GameResult]:
    config = get_game(spec.game).make_config(spec.full_config())  # validate once, not per game
    return [play_game(spec, t, config) for t in tasks]


def run(
    spec: SimSpec,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    chunk: int | None = None,
) -> SimResults:
    """Play every game of ``spec``; ``progress(done, total)`` is called as games finish.

    With ``workers`` > 1 the games run in that many processes, in chunks; the results
    come back in plan order whatever the number of workers.
    """
    validate(spec)
    if workers < 1:
        raise KnockaboutError(f"--workers must be at least 1, not {workers}")
    tasks = plan(spec)
    total = len(tasks)
    size = chunk or max(1, min(50, math.ceil(total / (workers * 8))))
    chunks = [tasks[i : i + size] for i in range(0, total, size)]
    results: list[GameResult] = []
    start = time.perf_counter()
    done = 0
    if workers == 1:
        for c in chunks:
            results += _run_chunk(spec, c)
            done += len(c)
            if progress:
                progress(done, total)
    else:
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
            futures = [pool.submit(_run_chunk, spec, c) for c in chunks]
            for fut in as_completed(futures):
                part = fut.result()
                results += part
                done += len(part)
                if progress:
                    progress(done, total)
    results.sort(key=lambda r: r.index)
    elapsed = time.perf_counter() - start
    g = get_game(spec.game)
    meta = {
        "game": g.id,
        "rules_version": g.rules_version,
        "players": spec.players,
        "config": g.make_config(spec.full_config()).model_dump(mode="json"),
        "seed": spec.seed,
        "bots": list(spec.bots),
        "requested_games": spec.games,
        "lineups": [list(lu) for lu in lineups(spec.bots, spec.players)],
        "length_unit": g.facts.length_unit,
        "workers": workers,
        "seconds": elapsed,
    }
    return SimResults(meta=meta, games=results)
