"""Speed measurements of a game through the protocol (used by ``knockabout bench``).

* random play: ``legal_actions()`` + ``apply()`` steps per second, and whole games
  per second, dealing new seeded games back to back;
* ``clone()`` and ``determinize()`` in microseconds, averaged over positions taken
  along random games;
* ISMCTS iterations per second, searching positions with a real choice to make;
* the ``hard`` level's time per decision on those positions.

:func:`bench_game` spends a wall-clock budget (what ``knockabout bench`` shows);
:func:`fixed_work` does a fixed amount of seeded work and times it in CPU seconds of
this process, which is what to compare between builds on a machine shared with other
jobs (``benchmarks/compiled_vs_plain.py``). Both say which build they measured
(:mod:`knockabout.compiled`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from knockabout.bots.ismcts import ISMCTSBot
from knockabout.bots.levels import search_bot
from knockabout.compiled import build_summary, module_builds
from knockabout.core.bot import SeatView
from knockabout.core.protocol import Game, State
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng


@dataclass(frozen=True)
class BenchResult:
    game: str
    players: int
    steps_per_s: float
    games_per_s: float
    clone_us: float
    determinize_us: float
    ismcts_iters_per_s: float
    hard_ms_per_move: float
    build: str
    """Which build ran: ``compiled``, ``plain``, or the mix module by module."""
    modules: dict[str, str]
    """The build of each module the compiled build compiles (``compiled``/``plain``/``stale``)."""


def _builds() -> tuple[str, dict[str, str]]:
    builds = module_builds()
    return build_summary(builds), {b.module: b.build for b in builds}


def copy_costs(pos: list[State], reps: int, rng: Rng, clock: Callable[[], float]) -> tuple[float, float]:
    """Microseconds per ``clone()`` (``reps`` times each position) and per
    ``determinize()`` for the seat to act (a quarter as many times)."""
    t0 = clock()
    for s in pos:
        for _ in range(reps):
            s.clone()
    clone_us = (clock() - t0) / (reps * len(pos)) * 1e6
    t0 = clock()
    for s in pos:
        d = s.to_act()
        assert d is not None
        for _ in range(reps // 4):
            s.determinize(d.player, rng)
    return clone_us, (clock() - t0) / ((reps // 4) * len(pos)) * 1e6


def positions(game_id: str, players: int, count: int, seed: int = 7) -> list[State]:
    """Positions with more than one legal action, taken along seeded random games."""
    g = get_game(game_id)
    rng = Rng(seed)
    out: list[State] = []
    game_no = 0
    while len(out) < count and game_no < 10 * count:
        s = g.new_state({}, seed + game_no, players=players)
        game_no += 1
        while s.to_act() is not None:
            legal = s.legal_actions()
            if len(legal) > 1 and rng.below(4) == 0:
                out.append(s.clone())
                if len(out) >= count:
                    break
            s.apply(legal[rng.below(len(legal))])
    return out


def random_play(game: Game[Any], players: int, seconds: float, rng: Rng,
                clock: Callable[[], float]) -> tuple[int, int, float]:
    """Whole random-play games (seeds 0, 1, ...) through the checked protocol for about
    ``seconds`` of ``clock``: (steps, games, seconds taken)."""
    steps = games = 0
    start = clock()
    end = start + seconds
    while clock() < end:
        s = game.new_state({}, games, players=players)
        while s.to_act() is not None:
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
            steps += 1
        games += 1
    return steps, games, clock() - start


def bench_game(game_id: str, seconds: float = 2.0, players: int | None = None) -> BenchResult:
    """Measure one game; ``seconds`` is spent on random play and again on ISMCTS."""
    g = get_game(game_id)
    n = g.facts.default_players if players is None else players
    build, modules = _builds()
    clock = time.perf_counter
    # random play through the protocol
    rng = Rng(1)
    steps, games, elapsed = random_play(g, n, seconds, rng, clock)
    # clone and determinize
    pos = positions(game_id, n, 40)
    clone_us, det_us = copy_costs(pos, 200, rng, clock)
    # ISMCTS iterations per second, on a time budget spread over positions
    search = pos[:10]
    bot = ISMCTSBot(time_ms=1000.0 * seconds / len(search))
    iters = 0
    spent = 0.0
    for s in search:
        d = s.to_act()
        assert d is not None
        bot.choose(SeatView(s, d.player), s.legal_actions(), rng)
        iters += bot.last.iterations
        spent += bot.last.seconds
    # the hard level on a few of them
    hard = search_bot("hard", game_id)
    hard_pos = search[:3]
    t0 = clock()
    for s in hard_pos:
        d = s.to_act()
        assert d is not None
        hard.choose(SeatView(s, d.player), s.legal_actions(), rng)
    hard_ms = (clock() - t0) / len(hard_pos) * 1000
    return BenchResult(
        game=game_id,
        players=n,
        steps_per_s=steps / elapsed,
        games_per_s=games / elapsed,
        clone_us=clone_us,
        determinize_us=det_us,
        ismcts_iters_per_s=iters / spent if spent else 0.0,
        hard_ms_per_move=hard_ms,
        build=build,
        modules=modules,
    )


@dataclass(frozen=True)
class FixedWork:
    """CPU seconds of this process spent on fixed, seeded work (see :func:`fixed_work`)."""

    game: str
    players: int
    build: str
    steps: int
    steps_per_cpu_s: float
    clone_us: float
    determinize_us: float
    ismcts_iterations: int
    ismcts_iters_per_cpu_s: float
    hard_cpu_ms_per_move: float
    choices: tuple[str, ...]
    """The ISMCTS and ``hard`` choices made: the same in every build, or a build is wrong."""


def fixed_work(
    game_id: str, games: int = 100, iterations: int = 200, hard_moves: int = 3, players: int | None = None
) -> FixedWork:
    """``games`` seeded random games, clones and determinizations of 40 positions, an
    ``iterations``-iteration ISMCTS search of 10 positions, and the ``hard`` level on
    ``hard_moves`` of them, each timed in CPU seconds."""
    g = get_game(game_id)
    n = g.facts.default_players if players is None else players
    clock = time.process_time
    rng = Rng(1)
    steps = 0
    t0 = clock()
    for game_no in range(games):
        s = g.new_state({}, game_no, players=n)
        while s.to_act() is not None:
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
            steps += 1
    random_s = clock() - t0
    pos = positions(game_id, n, 40)
    clone_us, det_us = copy_costs(pos, 100, rng, clock)
    choices: list[str] = []
    bot = ISMCTSBot(iterations=iterations)
    done = 0
    t0 = clock()
    for i, s in enumerate(pos[:10]):
        d = s.to_act()
        assert d is not None
        choices.append(bot.choose(SeatView(s, d.player), s.legal_actions(), Rng(100 + i)).text)
        done += bot.last.iterations
    search_s = clock() - t0
    hard = search_bot("hard", game_id)
    t0 = clock()
    for i, s in enumerate(pos[:hard_moves]):
        d = s.to_act()
        assert d is not None
        choices.append(hard.choose(SeatView(s, d.player), s.legal_actions(), Rng(200 + i)).text)
    hard_ms = (clock() - t0) / max(1, hard_moves) * 1000
    return FixedWork(
        game=game_id,
        players=n,
        build=build_summary(),
        steps=steps,
        steps_per_cpu_s=steps / random_s if random_s else 0.0,
        clone_us=clone_us,
        determinize_us=det_us,
        ismcts_iterations=done,
        ismcts_iters_per_cpu_s=done / search_s if search_s else 0.0,
        hard_cpu_ms_per_move=hard_ms,
        choices=tuple(choices),
    )
