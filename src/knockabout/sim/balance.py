"""Content balance runs: every entrant (a pack, a fighter) against every other, head to head.

What differs per game comes from the game's :class:`~knockabout.core.plugins.BalancePlugin`
(``game.balance()``): who the entrants are for the given options (in groups: one matrix
each), how a pairing's match is configured, what to watch in a match, and extra lines of
game metrics. Everything else is here and the same for every game:

* for each ordered pair ``(a, b)`` of different entrants of a group, ``games`` matches
  with ``a`` in seat 0 and ``b`` in seat 1 and the same bot level on both sides; match
  ``i`` is dealt from ``mix_seed(seed, a, b, i)`` and its bots share one RNG seeded from
  ``mix_seed(deal, "bots")``, so a run is reproducible for a given level and seed;
* the pairings run in blocks of matches on any backend (:mod:`knockabout.sim.balance_run`),
  each match through the one bot-play driver (:func:`~knockabout.sim.driver.play`) with
  the plug-in's watcher as its observer;
* the report: the win-rate matrix and each entrant's rate against the field
  (:func:`~knockabout.sim.matrix.matrix_lines`), the first-player edge of matches and,
  for games with rounds, of rounds, then the plug-in's rate tables (each rate with its interval).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from knockabout.bots.levels import make_bot
from knockabout.core.errors import ConfigError
from knockabout.core.plugins import BalanceMatch, BalancePlugin, EntrantGroup, MatchWatcher, RateTable
from knockabout.core.protocol import Game
from knockabout.core.registry import all_games, get_game
from knockabout.core.rng import Rng, mix_seed
from knockabout.sim.driver import Observer, play
from knockabout.sim.executor import make_executor
from knockabout.sim.matrix import matrix_lines, pct
from knockabout.sim.stats import wilson

SEATS = 2
"""A balance match is head to head: one entrant a seat."""


@dataclass
class PairResult:
    """The matches of entrant ``a`` (seat 0) against entrant ``b`` (seat 1)."""

    a: str
    b: str
    games: int = 0
    a_points: float = 0.0
    draws: int = 0
    seconds: float = 0.0
    matches: list[BalanceMatch] = field(default_factory=list)


@dataclass(frozen=True)
class GroupRun:
    """What every pairing of a group needs (plain data: it travels to worker processes)."""

    game: str
    group: EntrantGroup
    games: int
    bot: str
    seed: int


def plugin_for(game: Game[Any]) -> BalancePlugin:
    """The game's balance plug-in; a clear error naming the games that have one if it has none."""
    plugin = game.balance()
    if plugin is None:
        having = [g.id for g in all_games() if g.balance() is not None]
        raise ConfigError(
            f"{game.id} has no balance plug-in; balance runs for: {', '.join(having) or 'no installed game'}"
        )
    if not game.min_players <= SEATS <= game.max_players:
        raise ConfigError(f"{game.id} is not played head to head, so it has no balance run")
    return plugin


def groups(game_id: str, options: Mapping[str, Any]) -> list[EntrantGroup]:
    """The groups of a run with these options, each checked by the game's plug-in."""
    plugin = plugin_for(get_game(game_id))
    unknown = [name for name in options if name not in plugin.options]
    if unknown:
        takes = ", ".join(plugin.options) or "none"
        raise ConfigError(f"{game_id}: balance has no option {unknown[0]!r} (its options: {takes})")
    return plugin.groups(options)


def _feed(watcher: MatchWatcher) -> Observer:
    """The driver's observer that shows a watcher every step."""
    return lambda step: watcher.see(step.state, step.events)


def play_matches(a: str, b: str, run: GroupRun, start: int, end: int) -> list[BalanceMatch]:
    """Matches ``start`` to ``end - 1`` of entrant ``a`` (seat 0) against ``b`` (seat 1)."""
    g = get_game(run.game)
    plugin = plugin_for(g)
    config: BaseModel | None = None
    out = []
    for i in range(start, end):
        deal = mix_seed(run.seed, a, b, i)
        state = plugin.start(run.group, a, b, deal)
        if state is None:
            if config is None:
                config = g.make_config(plugin.pairing_config(run.group, a, b))
            state = g.new_state(config, deal, players=SEATS)
        bots = [make_bot(run.bot, g.id) for _ in range(SEATS)]
        rng = Rng(mix_seed(deal, "bots"))
        watcher = plugin.watch(state)
        played = play(state, bots, [rng] * SEATS, observer=_feed(watcher), name=f"{a} v {b} match {i}")
        out.append(
            BalanceMatch(a, b, played.outcome.payoffs, played.outcome.draw, watcher.metrics(), i, played.decisions)
        )
    return out


def pair_result(a: str, b: str, matches: Sequence[BalanceMatch], seconds: float = 0.0) -> PairResult:
    """The tally of a pairing's matches."""
    return PairResult(
        a, b, len(matches), sum(m.payoffs[0] for m in matches), sum(int(m.draw) for m in matches), seconds,
        list(matches),
    )


def play_pair(a: str, b: str, run: GroupRun) -> PairResult:
    """``run.games`` matches with entrant ``a`` in seat 0 and ``b`` in seat 1."""
    t0 = time.perf_counter()
    matches = play_matches(a, b, run, 0, run.games)
    return pair_result(a, b, matches, time.perf_counter() - t0)


def run_group(
    game_id: str,
    group: EntrantGroup,
    games: int,
    bot: str,
    seed: int,
    workers: int = 1,
    on_done: Callable[[PairResult], None] | None = None,
) -> list[PairResult]:
    """Every ordered pair of different entrants of ``group``, ``games`` matches each, in
    this process or a pool of ``workers`` (``on_done`` hears of each finished pairing)."""
    from knockabout.sim.balance_run import BalanceSpec, run_balance

    spec = BalanceSpec(get_game(game_id).id, {}, games, bot, seed)
    with make_executor("auto", workers) as ex:
        (pairs,) = run_balance(spec, ex, groups=[group]).pairs
    if on_done is not None:
        for r in pairs:
            on_done(r)
    return pairs


def report(game_id: str, group: EntrantGroup, results: Sequence[PairResult]) -> str:
    """The group's matrix, each entrant against the field, the first-player edge and the
    game's rate tables, as Markdown."""
    plugin = plugin_for(get_game(game_id))
    lines = [f"### {group.title}", ""] if group.title else []
    lines += matrix_lines(group.entrants, results, plugin.entrant_kind, plugin.label)
    matches = [m for r in results for m in r.matches]
    games = len(matches)
    seat0 = sum(r.a_points for r in results)
    first = sum(m.payoffs[m.metrics.first] for m in matches)
    rounds = [rnd for m in matches for rnd in m.metrics.rounds]
    decisive = [(starter, winner) for starter, winner in rounds if winner is not None]
    first_rounds = sum(winner == starter for starter, winner in decisive)
    draws = sum(r.draws for r in results)
    secs = sum(r.seconds for r in results)
    played = f"{games} matches, "
    if rounds:
        played += f"{len(rounds)} rounds ({len(decisive)} decisive), "
    lines += [
        "",
        played + f"{draws} drawn matches, {secs:.0f} s of play.",
        f"First-player edge: the match's first player scores {100 * first / games:.1f}% of matches "
        f"(95 % interval {pct(wilson(first, games))}; edge {100 * (first / games - 0.5):+.1f} points over "
        f"an even share); seat A scores {100 * seat0 / games:.1f}%.",
    ]
    if rounds:
        lines.append(
            f"Inside a round: the round's first player wins {100 * first_rounds / max(1, len(decisive)):.1f}% "
            f"of decisive rounds ({pct(wilson(first_rounds, len(decisive)))})."
        )
    for table in plugin.rate_tables(group, matches):
        lines += ["", *rate_table_lines(table)]
    return "\n".join(lines)


def rate_table_lines(table: RateTable) -> list[str]:
    """A plug-in's rate table as Markdown: its cells, the count, the rate and its interval."""
    heads = [*table.columns, table.count, table.rate, "95 % interval"]
    lines = ["| " + " | ".join(heads) + " |", "|---" * len(heads) + "|"]
    for cells, points, n in table.rows:
        lines.append(
            "| " + " | ".join(cells) + f" | {n} | {100 * points / n:.1f}% | {pct(wilson(points, n))} |"
        )
    return lines
