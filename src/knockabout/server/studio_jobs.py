"""The studio's "Test it" and "Measure each card": quick runs of a document being edited, as
background jobs.

A test is a balance run (:func:`knockabout.sim.balance_run.run_balance`, the engine of
``knockabout balance``) of the content version the document makes — written to a folder of
its own, loaded by the game's balance plug-in as ``balance compare`` loads one — against the
rest of the game's shipped content, bot against bot. Its numbers are those of ``knockabout
balance GAME -o version=FOLDER --bot B --games N --seed S`` (``--until-ci W`` when the job
stops early), match for match: tested. A measure (``kind="ablate"``) is a paired ablation of
the document's own cards (:mod:`knockabout.sim.ablation`, the engine of ``knockabout balance
ablate -o version=FOLDER``): each card's effect on its owners' win rate, beside the usage
statistics of the same base matches, filling in as blocks finish.

Jobs of both kinds wait in one first-come-first-served queue and :attr:`StudioJobs.running`
of them run at once, each on a thread of its own that feeds its units to a process pool of
``studio_workers`` processes (in the thread itself for one). With ``serve --workers N`` each
server process keeps its own queue, and a test's id routes its requests to the process
that runs it, as a table's does. Each requester (the route names it: a logged-in
person's account, else a guest's address) may have :attr:`StudioJobs.per_requester` jobs queued or running
at a time; the queue holds at most :attr:`StudioJobs.max_queued`. A job's page reads its
progress and the matrix so far (each finished block of matches at once), and it can be
stopped early: by the requester, or by itself once every rate's interval is within the width
asked for (the sequential rule of ``--until-ci``).
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
import threading
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeVar

from knockabout.bots.levels import check_level
from knockabout.core.content_versions import version_id
from knockabout.core.errors import ConfigError
from knockabout.core.plugins import EntrantGroup
from knockabout.core.registry import get_game
from knockabout.server.shards import shard_id
from knockabout.sim.ablation import AblationPlan, AblationSpec, effects_of, plan_ablation, played
from knockabout.sim.balance import groups as plan_groups
from knockabout.sim.balance import plugin_for
from knockabout.sim.balance_run import BalanceSpec, block_size, match_from, play_block, run_balance, units_for
from knockabout.sim.balance_tables import CardEffect, CardLine, GroupTables, tables
from knockabout.sim.checkpoint import Checkpoint
from knockabout.sim.executor import Executor, make_executor
from knockabout.sim.runner import RunInterrupted, execute

T = TypeVar("T")
R = TypeVar("R")

BOTS = ("random", "easy")
"""The levels a quick test may use (the others think for seconds a move)."""
MAX_GAMES = 200
"""The most matches per ordered pairing a job may ask for."""

State = Literal["queued", "running", "done", "stopped", "failed"]
Kind = Literal["test", "ablate"]


class JobRefused(Exception):
    """A job the queue will not take (HTTP ``status``)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Stopped(Exception):
    """Raised in a job's thread between two units when it was asked to stop."""


class _Stoppable(Executor):
    """An executor that stops between two units when its job is asked to."""

    def __init__(self, inner: Executor, job: Job) -> None:
        self.inner = inner
        self.job = job
        self.name = inner.name
        self.workers = inner.workers

    def run(self, fn: Any, items: Sequence[T]) -> Iterator[tuple[int, Any]]:
        for out in self.inner.run(fn, items):
            yield out
            if self.job.stop_asked:
                raise _Stopped

    def close(self) -> None:
        self.inner.close()


@dataclass
class Job:
    """One quick test: what it plays and how far it is."""

    id: str
    token: str
    requester: str
    game: str
    spec: BalanceSpec
    width: float | None
    folder: Path
    kind: Kind = "test"
    plan: AblationPlan | None = None
    """A measure's plan (the base version and one per card of the document)."""
    own: frozenset[tuple[str, str]] = frozenset()
    """The document's own cards, as (entrant, card name): the per-card lines the page shows."""
    version: str = ""
    """The content version the document's files make (:func:`~knockabout.core.content_versions.version_id`):
    the numbers are that version's, whether or not it was saved, and saved it keeps that id."""
    state: State = "queued"
    done: int = 0
    planned: int = 0
    note: str = ""
    error: str = ""
    started: float = 0.0
    finished: float = 0.0
    stop_asked: bool = False
    groups: list[EntrantGroup] = field(default_factory=list)
    blocks: dict[int, Any] = field(default_factory=dict)
    """The finished units' data by unit position (what the checkpoint keeps)."""

    def summary(self) -> dict[str, Any]:
        """The job as its page shows it: state, progress and the tables so far."""
        out: dict[str, Any] = {
            "id": self.id, "kind": self.kind, "game": self.game, "version": self.version, "state": self.state,
            "done": self.done,
            "planned": self.planned, "note": self.note, "error": self.error, "bot": self.spec.bot,
            "games": self.spec.games, "seed": self.spec.seed, "width": self.width,
            "seconds": round((self.finished or time.monotonic()) - self.started, 1) if self.started else 0.0,
        }
        shown = self.tables()
        out["groups"] = [_group_json(t) for t in shown]
        out["cards"] = [_card_json(t, c) for t in shown for c in t.cards if (c.entrant, c.card) in self.own]
        if self.kind == "ablate":  # a card its owner never played still has an effect (zero, or not)
            listed = {(c["group"], c["entrant"], c["card"]) for c in out["cards"]}
            out["cards"] += [_effect_only(t, e) for t in shown for e in t.effects
                             if (t.title, e.entrant, e.card) not in listed]
        return out

    def tables(self) -> list[GroupTables]:
        """The tables of the matches finished so far (a measure's: of its base version,
        with each card's effect as far as its twin matches are played)."""
        if not self.groups:
            return []
        plugin = plugin_for(get_game(self.game))
        blocks = dict(self.blocks)
        if self.plan is not None:
            points, by_pair, _ = played(self.plan, blocks)
            effects = effects_of(self.plan, points)
            return [tables(g, [m for (j, _, _), ms in by_pair.items() if j == k for m in ms], plugin.entrant_kind,
                           plugin.label, effects) for k, g in enumerate(self.groups)]
        cap = self.spec.games
        units = units_for(self.groups, cap, block_size(cap))
        by_group: dict[int, list[Any]] = {}
        for pos, data in sorted(blocks.items()):
            u = units[pos]
            by_group.setdefault(u.group, []).extend(match_from(u.a, u.b, m) for m in data["matches"])
        return [tables(g, by_group.get(k, []), plugin.entrant_kind, plugin.label) for k, g in enumerate(self.groups)]


def _rate(r: Any) -> dict[str, Any]:
    return {"rate": r.rate, "low": r.low, "high": r.high, "n": r.n}


def _group_json(t: GroupTables) -> dict[str, Any]:
    return {
        "title": t.title, "kind": t.kind, "entrants": t.entrants, "labels": t.labels,
        "matrix": [{"row": c.row, "col": c.col, **_rate(c.rate)} for c in t.matrix],
        "field": [{"entrant": e, **_rate(r)} for e, r in t.fieldrates.items()],
        "first": _rate(t.first),
    }


def _card_json(t: GroupTables, c: CardLine) -> dict[str, Any]:
    """A card's usage statistics (the side's rate where it played the card, less its
    average) and, after a measure, its effect by ablation."""
    e = t.effect_of(c.entrant, c.card)
    return {"group": t.title, "entrant": c.entrant, "card": c.card, "drawn": c.drawn, "played": c.played,
            "usage": {"diff": c.diff, "low": c.diff_low, "high": c.diff_high, "n": c.side.n},
            "effect": None if e is None else _effect(e)}


def _effect(e: CardEffect) -> dict[str, Any]:
    return {"effect": e.effect, "low": e.low, "high": e.high, "matches": e.matches, "rate": e.rate,
            "without": e.without}


def _effect_only(t: GroupTables, e: CardEffect) -> dict[str, Any]:
    return {"group": t.title, "entrant": e.entrant, "card": e.card, "drawn": 0, "played": 0, "usage": None,
            "effect": _effect(e)}


def own_cards(game: str, options: Mapping[str, Any], files: Sequence[str]) -> frozenset[tuple[str, str]]:
    """The cards of the content files ``files`` in a run with ``options``, as (owner, card
    name) pairs (none when the game's plug-in does not describe its content files)."""
    try:
        content = plugin_for(get_game(game)).content(options)
    except ConfigError:
        return frozenset()
    return frozenset((o, p.name) for p in content.parts if p.card and p.file in files for o in p.owners)


def _workdir(folder: Path) -> Path:
    """Where a measure writes its versions (beside the document's folder, never in it)."""
    return folder.with_name(folder.name + "-ablation")


class _Keeper(Checkpoint):
    """A checkpoint in memory that shows every finished unit to its job at once."""

    def __init__(self, job: Job) -> None:
        super().__init__(None, "studio", {}, "")
        self.job = job

    def add(self, unit: int, data: Any) -> None:
        super().add(unit, data)
        self.job.blocks[unit] = data


class StudioJobs:
    """The queue of quick tests and the threads that run them."""

    def __init__(self, workers: int = 1, running: int = 1, per_requester: int = 1, max_queued: int = 20,
                 keep: int = 200, shard: int = 0, shards: int = 1) -> None:
        self.workers = max(1, workers)
        self.running = max(1, running)
        self.per_requester = per_requester
        self.max_queued = max_queued
        self.keep = keep
        self.jobs: dict[str, Job] = {}
        self.queue: deque[Job] = deque()
        self.lock = threading.Lock()
        self.root = Path(tempfile.mkdtemp(prefix="knockabout-studio-"))
        self.closed = False
        self.shard, self.shards = shard, shards

    def submit(self, requester: str, game: str, files: Mapping[str, str], *, bot: str = "easy", games: int = 4,
               seed: int = 1, width: float | None = None, kind: Kind = "test") -> Job:
        """Queue a test (or, ``kind="ablate"``, a measure of each card) of the content
        version ``files`` (a document's TOML files)."""
        if kind == "ablate" and width is not None:
            raise JobRefused(400, "a measure of each card plays every match it plans (no early stop)")
        if bot not in BOTS:
            raise JobRefused(400, f"a quick test plays {' or '.join(BOTS)} bots, not {bot!r}")
        check_level(bot)
        if not 1 <= games <= MAX_GAMES:
            raise JobRefused(400, f"games must be 1-{MAX_GAMES} matches per ordered pairing, not {games}")
        if width is not None and not 0 < width < 0.5:
            raise JobRefused(400, "the interval width is a half-width between 0 and 50 points")
        with self.lock:
            if self.closed:
                raise JobRefused(503, "the server is stopping")
            mine = [j for j in self.jobs.values() if j.requester == requester and j.state in ("queued", "running")]
            if len(mine) >= self.per_requester:
                raise JobRefused(429, f"you already have {len(mine)} test(s) queued or running; stop one or wait")
            if len(self.queue) >= self.max_queued:
                raise JobRefused(429, "the queue of tests is full; try again in a minute")
        ident = shard_id(9, self.shard, self.shards)  # its requests reach this worker (serve --workers)
        folder = self.root / ident
        g = get_game(game)
        for name, text in files.items():
            dest = folder / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(text, encoding="utf-8")
        plugin = plugin_for(g)
        plan = None
        try:
            options = plugin.version_options(str(folder))
            groups = plan_groups(g.id, options)
            if kind == "ablate":
                plan = plan_ablation(AblationSpec(g.id, options, games, bot, seed, files=tuple(files)),
                                     _workdir(folder))
                groups = plan.groups[0]
        except Exception:
            shutil.rmtree(folder, ignore_errors=True)
            shutil.rmtree(_workdir(folder), ignore_errors=True)
            raise
        spec = BalanceSpec(g.id, options, games, bot, seed)
        job = Job(ident, secrets.token_urlsafe(16), requester, g.id, spec, width, folder, kind=kind, plan=plan,
                  own=own_cards(g.id, options, list(files)), groups=groups, version=version_id(g.id, files))
        if plan is not None:
            job.planned = sum(u.games for u in plan.units)
        else:
            job.planned = sum(len(gr.entrants) * (len(gr.entrants) - 1) for gr in groups) * games
        with self.lock:
            self.jobs[ident] = job
            self.queue.append(job)
            self._forget_old()
        self._start_next()
        return job

    def position(self, job: Job) -> int:
        """How many jobs wait before ``job`` (0: it runs or is next)."""
        with self.lock:
            return next((i for i, j in enumerate(self.queue) if j is job), 0)

    def stop(self, job: Job) -> None:
        with self.lock:
            job.stop_asked = True
            if job.state == "queued":
                self.queue.remove(job)
                job.state = "stopped"
                job.note = "stopped before it started"

    def _forget_old(self) -> None:
        ended = [j for j in self.jobs.values() if j.state in ("done", "stopped", "failed")]
        for j in sorted(ended, key=lambda j: j.finished)[: max(0, len(ended) - self.keep)]:
            del self.jobs[j.id]
            shutil.rmtree(j.folder, ignore_errors=True)
            shutil.rmtree(_workdir(j.folder), ignore_errors=True)

    def _start_next(self) -> None:
        with self.lock:
            busy = sum(1 for j in self.jobs.values() if j.state == "running")
            while busy < self.running and self.queue:
                job = self.queue.popleft()
                job.state = "running"
                job.started = time.monotonic()
                threading.Thread(target=self._run, args=(job,), name=f"studio-job-{job.id}", daemon=True).start()
                busy += 1

    def _run(self, job: Job) -> None:
        until = None if job.width is None else (job.width, job.spec.games)

        def progress(done: int, planned: int, note: str) -> None:
            job.done, job.planned, job.note = done, planned, note

        try:
            with make_executor("auto", self.workers) as inner:
                ex = _Stoppable(inner, job)
                if job.plan is not None:
                    execute(job.plan.units, partial(play_block, job.plan.runs), ex, _Keeper(job), progress=progress)
                else:
                    run_balance(job.spec, ex, _Keeper(job), until=until, progress=progress, groups=job.groups)
            job.state = "done"
        except (_Stopped, RunInterrupted):
            job.state = "stopped"
            job.note = "stopped"
        except Exception as exc:  # a job never takes the server down; its page says what went wrong
            job.state = "failed"
            job.error = str(exc) or type(exc).__name__
        finally:
            job.finished = time.monotonic()
            self._start_next()

    def close(self) -> None:
        with self.lock:
            self.closed = True
            for j in self.jobs.values():
                j.stop_asked = True
            self.queue.clear()
        shutil.rmtree(self.root, ignore_errors=True)
