"""What every long-running command shares: the backend options, the checkpoint and
``--resume``, a progress bar with a real ETA, and Ctrl+C.

``sim`` and ``balance`` take the same options (``--backend``, ``--workers``, ``--address``,
``--resume``, ``--checkpoint``, ``--until-ci``, ``--max-games``), declared here once.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from knockabout.core.errors import ConfigError
from knockabout.sim.checkpoint import Checkpoint
from knockabout.sim.executor import BACKENDS
from knockabout.sim.runner import ProgressFn, RunInterrupted

BACKEND = typer.Option(
    "auto", "--backend", help=f"where games run: {', '.join(BACKENDS)} (auto: in-process for 1 worker, else processes)"
)
WORKERS = typer.Option(
    None, "--workers", "-w", help="workers (default 1; --backend process/ray: every CPU); results never depend on it"
)
ADDRESS = typer.Option(
    None, "--address", help="with --backend ray: an existing cluster's HOST:PORT (default: start Ray here)"
)
RESUME = typer.Option(None, "--resume", help="continue the run whose checkpoint is FILE (give the same options)")
CHECKPOINT = typer.Option(
    None, "--checkpoint", help="keep the checkpoint in FILE (default: a file in the user cache, removed when done)"
)
UNTIL_CI = typer.Option(
    None, "--until-ci", help="play paired deals until every reported win rate's 95% interval is within ±W points"
)


def checkpoint_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "knockabout" / "runs"


def until_ci(width: float | None) -> float | None:
    """``--until-ci`` in points as a fraction (a clear error outside (0, 50))."""
    if width is None:
        return None
    if not 0 < width < 50:
        raise ConfigError(f"--until-ci is a half-width in points, between 0 and 50 (e.g. 5), not {width:g}")
    return width / 100.0


def open_checkpoint(
    kind: str, game: str, run: dict[str, Any], content: str, resume: Path | None, path: Path | None
) -> tuple[Checkpoint, bool]:
    """The run's checkpoint (resumed from ``resume``) and whether to keep it when done."""
    if resume is not None:
        ck = Checkpoint.resume(resume, kind, run, content)
        ck.start(fresh=False)
        return ck, True
    keep = path is not None
    if path is None:
        digest = hashlib.sha256(json.dumps([run, content], sort_keys=True).encode()).hexdigest()[:12]
        path = checkpoint_dir() / f"{kind}-{game}-{digest}-{os.getpid()}.jsonl"
    ck = Checkpoint(path, kind, run, content)
    ck.start(fresh=True)
    return ck, keep


def resume_command(path: Path) -> str:
    """The command line that was run, with ``--resume PATH`` instead of any earlier one."""
    args = list(sys.argv[1:])
    if "--resume" in args:
        i = args.index("--resume")
        del args[i : i + 2]
    args = [a for a in args if not a.startswith("--resume=")]
    return "knockabout " + " ".join(shlex.quote(a) for a in [*args, "--resume", str(path)])


def interrupted(exc: RunInterrupted, console: Console) -> typer.Exit:
    """The lines a Ctrl+C ends with: what was kept and how to go on."""
    console.print(
        f"[bold]interrupted[/]: {exc.units_done} of {exc.units} units finished and kept in {exc.checkpoint}.",
        highlight=False,
    )
    if exc.checkpoint is not None:
        console.print(f"Resume with: {resume_command(exc.checkpoint)}", highlight=False, soft_wrap=True, markup=False)
    return typer.Exit(130)


def _eta(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


@contextmanager
def progress_bar(console: Console, description: str, unit: str, sequential: bool) -> Iterator[ProgressFn]:
    """A bar of games (or matches) with an ETA from the units finished so far in this
    session; with ``--until-ci`` the total is the cap and the note says the widest interval."""
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[count]} " + unit),
        TimeElapsedColumn(),
        TextColumn("{task.fields[eta]}"),
        TextColumn("{task.fields[note]}"),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=None, eta="ETA after the first unit", note="", count="0/?")
        first: list[float] = []

        def tick(done: int, total: int, note: str) -> None:
            now = time.perf_counter()
            if not first:
                first.extend((now, float(done)))
            t0, d0 = first
            eta = "ETA after the first unit"
            if done > d0 and done < total:
                eta = ("at most " if sequential else "ETA ") + _eta((now - t0) / (done - d0) * (total - done))
            elif done >= total:
                eta = ""
            bar.update(task, completed=done, total=total, eta=eta, note=note, count=f"{done}/{total}")

        yield tick


@contextmanager
def run_errors(console: Console, ck: Checkpoint, keep: bool) -> Iterator[None]:
    """Close the checkpoint (removed after a finished run unless kept) and turn a Ctrl+C
    into the resume lines."""
    try:
        yield
    except RunInterrupted as exc:
        raise interrupted(exc, console) from None
    except BaseException:
        ck.close()
        raise
    ck.close(remove=not keep)
