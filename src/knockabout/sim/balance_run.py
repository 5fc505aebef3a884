"""A whole balance run on any backend, resumable, optionally sequential; its results file.

The run is cut into units of one pairing's matches ``[start, end)`` (:class:`PairBlock`),
every pairing of every group the same blocks; a *round* is one match number of every
pairing, so a sequential run (``--until-ci``) looks after whole rounds. Match ``i`` of
``a`` against ``b`` is dealt from ``mix_seed(seed, a, b, i)`` whatever unit holds it, so the
results are the same for any backend, worker count, block size or resume.

The results file (``balance --save FILE.json``, reopened by ``knockabout report``) holds
every match with the watcher's metrics: ``{"format": "knockabout-balance/1", "meta": {...},
"groups": [{"title", "entrants", "config", "pairs": [{"a", "b", "seconds", "matches": [...]}]}]}``.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from knockabout.bots.levels import check_level
from knockabout.core.errors import ConfigError
from knockabout.core.plugins import BalanceMatch, EntrantGroup, MatchMetrics
from knockabout.core.registry import get_game
from knockabout.sim import sequential
from knockabout.sim.balance import GroupRun, PairResult, pair_result, play_matches, plugin_for
from knockabout.sim.balance import groups as plan_groups
from knockabout.sim.checkpoint import Checkpoint
from knockabout.sim.executor import Executor
from knockabout.sim.results import ResultsError, write_results_file
from knockabout.sim.runner import ProgressFn, execute
from knockabout.sim.stats import Z95

FORMAT = "knockabout-balance/1"


@dataclass(frozen=True)
class BalanceSpec:
    """A balance run: the game, the plug-in's options, matches per ordered pairing (the
    cap with ``--until-ci``), the bot level on both sides and the base seed."""

    game: str
    options: Mapping[str, Any]
    games: int
    bot: str
    seed: int = 1


@dataclass(frozen=True)
class PairBlock:
    """A unit: matches ``[start, end)`` of ``a`` (seat 0) against ``b`` in group ``group``."""

    group: int
    a: str
    b: str
    start: int
    end: int

    @property
    def games(self) -> int:
        return self.end - self.start


@dataclass
class BalanceRun:
    """A finished balance run: each group with its pairings (in pairing order)."""

    meta: dict[str, Any]
    groups: list[EntrantGroup]
    pairs: list[list[PairResult]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "meta": self.meta,
            "groups": [
                {
                    "title": g.title,
                    "entrants": list(g.entrants),
                    "config": dict(g.config),
                    "pairs": [
                        {"a": p.a, "b": p.b, "seconds": p.seconds, "matches": [match_data(m) for m in p.matches]}
                        for p in pairs
                    ],
                }
                for g, pairs in zip(self.groups, self.pairs, strict=True)
            ],
        }

    @classmethod
    def from_dict(cls, data: Any, source: str = "results") -> BalanceRun:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ResultsError(f"{source}: not a knockabout balance results file (format {FORMAT!r} expected)")
        try:
            run = cls(dict(data["meta"]), [])
            for g in data["groups"]:
                run.groups.append(EntrantGroup(str(g["title"]), tuple(g["entrants"]), dict(g["config"])))
                run.pairs.append(
                    [
                        pair_result(p["a"], p["b"], [match_from(p["a"], p["b"], m) for m in p["matches"]],
                                    float(p["seconds"]))
                        for p in g["pairs"]
                    ]
                )
        except (KeyError, TypeError, ValueError) as exc:
            raise ResultsError(f"{source}: damaged balance results ({exc!r})") from None
        return run

    def save(self, path: Path) -> None:
        write_results_file(path, json.dumps(self.to_dict()))


def is_balance_file(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def match_data(m: BalanceMatch) -> dict[str, Any]:
    """One match as plain JSON data (entrants left to its pairing)."""
    x = m.metrics
    return {
        "i": m.index, "payoffs": list(m.payoffs), "draw": m.draw, "length": m.length,
        "first": x.first, "rounds": [list(r) for r in x.rounds], "extra": x.extra, "cards": x.cards,
    }


def match_from(a: str, b: str, d: Mapping[str, Any]) -> BalanceMatch:
    metrics = MatchMetrics(
        int(d["first"]),
        [(int(s), None if w is None else int(w)) for s, w in d["rounds"]],
        dict(d["extra"]),
        [{str(k): [int(v[0]), int(v[1])] for k, v in seat.items()} for seat in d["cards"]],
    )
    payoffs = tuple(float(p) for p in d["payoffs"])
    return BalanceMatch(a, b, payoffs, bool(d["draw"]), metrics, int(d["i"]), int(d["length"]))


def play_block(runs: tuple[GroupRun, ...], unit: PairBlock) -> dict[str, Any]:
    """A unit's matches as plain data (what the checkpoint keeps)."""
    t0 = time.perf_counter()
    matches = play_matches(unit.a, unit.b, runs[unit.group], unit.start, unit.end)
    return {"seconds": time.perf_counter() - t0, "matches": [match_data(m) for m in matches]}


def block_size(games: int) -> int:
    """Matches per unit: small enough for a live ETA and to lose little to a Ctrl+C even
    with ``hard`` bots (a minute or more a match), at most 5."""
    return max(1, min(5, math.ceil(games / 16)))


def units_for(groups: Sequence[EntrantGroup], games: int, size: int) -> list[PairBlock]:
    pairs = [(k, a, b) for k, g in enumerate(groups) for a in g.entrants for b in g.entrants if a != b]
    return [
        PairBlock(k, a, b, start, min(games, start + size))
        for start in range(0, games, size)
        for k, a, b in pairs
    ]


def content_digest(game_id: str, options: Mapping[str, Any]) -> str:
    """The digest of everything a run plays: the game's content and any extra the plug-in names."""
    g = get_game(game_id)
    extra = plugin_for(g).content_digest(options)
    return hashlib.sha256(f"{g.id}\0{g.content_hash()}\0{extra}".encode()).hexdigest()


def run_identity(spec: BalanceSpec, until: tuple[float, int] | None, size: int) -> dict[str, Any]:
    g = get_game(spec.game)
    return {
        "game": g.id, "rules_version": g.rules_version, "options": dict(spec.options), "bot": spec.bot,
        "seed": spec.seed, "games": spec.games if until is None else None,
        "until_ci": None if until is None else list(until), "block": size,
    }


def _rounds(groups: Sequence[EntrantGroup], units: Sequence[PairBlock], done: Mapping[int, Any]
            ) -> dict[str, dict[int, list[float]]]:
    """Per reported rate (each entrant against the field, each group's first player): its
    points and matches in each round."""
    table: dict[str, dict[int, list[float]]] = {}

    def add(label: str, i: int, points: float) -> None:
        cell = table.setdefault(label, {}).setdefault(i, [0.0, 0.0])
        cell[0] += points
        cell[1] += 1

    for pos, data in done.items():
        u = units[pos]
        title = groups[u.group].title
        where = f" ({title})" if title else ""
        for m in data["matches"]:
            add(f"{u.a}{where}", m["i"], m["payoffs"][0])
            add(f"{u.b}{where}", m["i"], m["payoffs"][1])
            add(f"first player{where}", m["i"], m["payoffs"][m["first"]])
    return table


def estimates(groups: Sequence[EntrantGroup], units: Sequence[PairBlock], done: Mapping[int, Any], look: int
              ) -> list[sequential.Estimate]:
    alpha = sequential.look_alpha(look)
    return [
        sequential.estimate(label, [(p, int(n)) for p, n in rounds.values()], alpha)
        for label, rounds in _rounds(groups, units, done).items()
    ]


def first_look(groups: Sequence[EntrantGroup], width: float) -> int:
    """Rounds before the first look: enough for an entrant's rate against the field to
    reach ±``width`` with a plain 95 % interval at an even rate."""
    least = min(2 * (len(g.entrants) - 1) for g in groups)
    return max(1, math.ceil((Z95 * 0.5 / width) ** 2 / max(1, least)))


def run_balance(
    spec: BalanceSpec,
    executor: Executor,
    checkpoint: Checkpoint | None = None,
    *,
    until: tuple[float, int] | None = None,
    progress: ProgressFn | None = None,
    groups: Sequence[EntrantGroup] | None = None,
) -> BalanceRun:
    """Play the run (``until``: ``(width, max matches a pairing)``, stop when every
    entrant's rate against the field and each first-player rate is within ±width)."""
    check_level(spec.bot, spec.game)
    g = get_game(spec.game)
    chosen = list(groups) if groups is not None else plan_groups(g.id, spec.options)
    if not all(len(gr.entrants) >= 2 for gr in chosen):
        raise ConfigError(f"{g.id}: a balance group needs at least two entrants")
    cap = spec.games if until is None else until[1]
    if cap < 1:
        raise ConfigError(f"the number of matches a pairing must be at least 1, not {cap}")
    size = block_size(cap)
    units = units_for(chosen, cap, size)
    ck = checkpoint or Checkpoint(None, "balance", run_identity(spec, until, size), "")
    runs = tuple(GroupRun(g.id, gr, cap, spec.bot, spec.seed) for gr in chosen)
    schedule = None
    stop = None
    if until is not None:
        width = until[0]
        schedule = sequential.looks(first_look(chosen, width), cap, size)

        def stop(rounds: int, look: int, done: Mapping[int, Any]) -> tuple[bool, str]:
            wide = sequential.widest(estimates(chosen, units, done, look))
            return wide <= width, f"look {look}: widest ±{100 * wide:.1f} pts"

    outcome = execute(units, partial(play_block, runs), executor, ck, schedule=schedule, stop=stop, progress=progress)
    by_pair: dict[tuple[int, str, str], list[BalanceMatch]] = {}
    secs: dict[tuple[int, str, str], float] = {}
    for pos in sorted(outcome.data, key=lambda p: (units[p].start, p)):
        u = units[pos]
        key = (u.group, u.a, u.b)
        by_pair.setdefault(key, []).extend(match_from(u.a, u.b, m) for m in outcome.data[pos]["matches"])
        secs[key] = secs.get(key, 0.0) + float(outcome.data[pos]["seconds"])
    run = BalanceRun(
        {
            "game": g.id, "name": g.name, "rules_version": g.rules_version, "options": dict(spec.options),
            "bot": spec.bot, "seed": spec.seed, "games": outcome.rounds, "backend": executor.name,
            "workers": executor.workers, "seconds": outcome.seconds, "content": ck.content,
            "entrant_kind": plugin_for(g).entrant_kind,
        },
        chosen,
    )
    for k, gr in enumerate(chosen):
        run.pairs.append([
            pair_result(a, b, by_pair.get((k, a, b), []), secs.get((k, a, b), 0.0))
            for a in gr.entrants for b in gr.entrants if a != b
        ])
    if until is not None:
        est = estimates(chosen, units, outcome.data, outcome.looks)
        run.meta["until_ci"] = {
            "width": until[0], "max_games": until[1], "look": outcome.looks,
            "alpha": sequential.look_alpha(outcome.looks), "rounds": outcome.rounds,
            "reached": sequential.widest(est) <= until[0],
            "intervals": [[e.label, e.rate, e.low, e.high] for e in est],
        }
    return run
