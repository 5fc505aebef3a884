"""Seeded batches of bot games, on any backend, identical for any backend and worker count.

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
backend and ``workers``; only the measured thinking times differ. The work is cut into
blocks of whole deals (:class:`DealBlock`), the units of :mod:`knockabout.sim.runner`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from itertools import combinations, permutations
from typing import Any

from pydantic import BaseModel

from knockabout.bots.levels import check_level, make_bot
from knockabout.core.errors import ConfigError, KnockaboutError
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng, mix_seed
from knockabout.sim import sequential
from knockabout.sim.checkpoint import Checkpoint
from knockabout.sim.driver import play
from knockabout.sim.executor import Executor, make_executor
from knockabout.sim.results import GameResult, SimResults, game_from_row
from knockabout.sim.runner import ProgressFn, execute
from knockabout.sim.stats import Z95


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
        check_level(level, g.id)
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
    per_deal = _per_deal(spec)
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


@dataclass(frozen=True)
class DealBlock:
    """A unit of a sim run: every game of deals ``[start, end)``."""

    start: int
    end: int
    games: int


@dataclass(frozen=True)
class Until:
    """``--until-ci``: stop when every reported rate's interval is at most ±``width``
    (a fraction), or after ``max_games`` games."""

    width: float
    max_games: int


def _per_deal(spec: SimSpec) -> list[tuple[str, ...]]:
    return [order for lu in lineups(spec.bots, spec.players) for order in seat_orders(lu)]


def deal_blocks(spec: SimSpec, deals: int, size: int) -> list[DealBlock]:
    """The run's units: blocks of ``size`` whole deals (the last may be shorter)."""
    per = len(_per_deal(spec))
    return [DealBlock(d, min(deals, d + size), per * (min(deals, d + size) - d)) for d in range(0, deals, size)]


def play_block(spec: SimSpec, block: DealBlock) -> list[dict[str, Any]]:
    """Every game of the block's deals, as plain data (a unit's result)."""
    config = get_game(spec.game).make_config(spec.full_config())  # validate once, not per game
    per = _per_deal(spec)
    out = []
    for d in range(block.start, block.end):
        for j, order in enumerate(per):
            out.append(asdict(play_game(spec, Task(d * len(per) + j, d, order), config)))
    return out


def _what_is_played(spec: SimSpec) -> dict[str, Any]:
    """The game, rules version, players, checked config, seed and bots of a run."""
    g = get_game(spec.game)
    return {
        "game": g.id,
        "rules_version": g.rules_version,
        "players": spec.players,
        "config": g.make_config(spec.full_config()).model_dump(mode="json"),
        "seed": spec.seed,
        "bots": list(spec.bots),
    }


def run_identity(spec: SimSpec, until: Until | None, size: int) -> dict[str, Any]:
    """What decides a sim run's results (a checkpoint's ``run``)."""
    return {
        **_what_is_played(spec),
        "games": spec.games if until is None else None,
        "until_ci": None if until is None else [until.width, until.max_games],
        "block": size,
    }


def _labelled_rounds(spec: SimSpec, games: Sequence[dict[str, Any]]) -> dict[str, list[tuple[float, int]]]:
    """Per reported rate (bots when several play, seats, order of play): its points and
    games in each deal."""
    n = spec.players
    several = len(set(spec.bots)) > 1
    by_deal: dict[int, dict[str, list[float]]] = {}
    for g in games:
        cells = by_deal.setdefault(int(g["deal"]), {})
        for s in range(n):
            keys = [f"seat {s + 1}"]  # people count seats from 1
            if several:
                keys.append(str(g["bots"][s]))
            if g["first"] >= 0:
                keys.append(f"position {(s - g['first']) % n + 1} in play order")
            for k in keys:
                cell = cells.setdefault(k, [0.0, 0])
                cell[0] += g["payoffs"][s]
                cell[1] += 1
    labels = sorted({k for cells in by_deal.values() for k in cells})
    return {k: [(c.get(k, [0.0, 0])[0], int(c.get(k, [0.0, 0])[1])) for c in by_deal.values()] for k in labels}


def sequential_estimates(
    spec: SimSpec, games: Sequence[dict[str, Any]], look: int
) -> list[sequential.Estimate]:
    """Every reported rate with its interval at look ``look``'s level."""
    alpha = sequential.look_alpha(look)
    return [sequential.estimate(k, rounds, alpha) for k, rounds in _labelled_rounds(spec, games).items()]


def first_look(spec: SimSpec, width: float) -> int:
    """Deals before the first look: enough for the least-played rate to reach ±``width``
    with a plain 95 % interval at an even rate (no look before could stop)."""
    per = _per_deal(spec)
    least = min(sum(order.count(b) for order in per) for b in set(spec.bots))
    if len(set(spec.bots)) == 1:
        least = len(per)
    need = (Z95 * 0.5 / width) ** 2
    return max(1, math.ceil(need / least))


def block_for(spec: SimSpec, until: Until | None) -> int:
    """Deals a unit: about 64 units a run, at most 50 deals each."""
    deals = math.ceil((spec.games if until is None else until.max_games) / len(_per_deal(spec)))
    return max(1, min(50, math.ceil(deals / 64)))


def run(
    spec: SimSpec,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    chunk: int | None = None,
    *,
    executor: Executor | None = None,
    checkpoint: Checkpoint | None = None,
    until: Until | None = None,
    on_progress: ProgressFn | None = None,
    content: str = "",
) -> SimResults:
    """Play every game of ``spec`` (with ``until``: paired deals until the intervals are
    narrow enough); ``progress(done, total)`` is called as units finish.

    The games run through ``executor`` (default: in this process for one worker, else a
    process pool of ``workers``), in blocks of whole deals (``chunk``: games a block, at
    least one deal). The results come back in plan order, identical for every backend
    and worker count. ``checkpoint`` (default: none kept) records finished blocks and
    skips those it already holds."""
    validate(spec)
    if workers < 1:
        raise KnockaboutError(f"--workers must be at least 1, not {workers}")
    per = len(_per_deal(spec))
    deals = math.ceil((spec.games if until is None else until.max_games) / per)
    size = max(1, math.ceil(chunk / per)) if chunk else block_for(spec, until)
    units = deal_blocks(spec, deals, size)
    ck = checkpoint or Checkpoint(None, "sim", run_identity(spec, until, size), content)
    schedule = None
    stop = None
    if until is not None:
        schedule = sequential.looks(first_look(spec, until.width), deals, size)

        def stop(rounds: int, look: int, done: Mapping[int, Any]) -> tuple[bool, str]:
            est = sequential_estimates(spec, [g for i in sorted(done) for g in done[i]], look)
            wide = sequential.widest(est)
            return wide <= until.width, f"look {look}: widest ±{100 * wide:.1f} pts"

    def tick(done: int, total: int, note: str) -> None:
        if progress:
            progress(done, total)
        if on_progress:
            on_progress(done, total, note)

    own = executor is None
    ex = executor or make_executor("auto", workers)
    try:
        outcome = execute(units, partial(play_block, spec), ex, ck, schedule=schedule, stop=stop, progress=tick)
    finally:
        if own:
            ex.close()
    rows = [g for i in sorted(outcome.data) for g in outcome.data[i]]
    results = [game_from_row(g) for g in rows]
    g = get_game(spec.game)
    meta = {
        **_what_is_played(spec),
        "requested_games": spec.games if until is None else until.max_games,
        "lineups": [list(lu) for lu in lineups(spec.bots, spec.players)],
        "length_unit": g.facts.length_unit,
        "workers": ex.workers,
        "backend": ex.name,
        "seconds": outcome.seconds,
    }
    if until is not None:
        est = sequential_estimates(spec, rows, outcome.looks)
        meta["until_ci"] = {
            "width": until.width,
            "max_games": until.max_games,
            "look": outcome.looks,
            "alpha": sequential.look_alpha(outcome.looks),
            "deals": outcome.rounds,
            "reached": sequential.widest(est) <= until.width,
            "intervals": [[e.label, e.rate, e.low, e.high] for e in est],
        }
    return SimResults(meta=meta, games=results)
