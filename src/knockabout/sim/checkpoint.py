"""Checkpoints of long runs: what finished, written as it finishes, so a run can resume.

A checkpoint is a JSON-lines file. The first line says what run it belongs to::

    {"format": "knockabout-checkpoint/1", "kind": "balance", "run": {...}, "content": "<sha256>"}

``run`` is everything that decides the run's results (game, options, bots, seed, sizes,
the stopping rule); ``content`` is the digest of the game content it played. Every
further line is one finished unit: ``{"unit": 7, "data": ...}``. A line cut short by a
kill is ignored (that unit is played again). Resuming checks the first line against the
run being started, so a file of another run, or of other content, is one clear error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from knockabout.core.errors import KnockaboutError

FORMAT = "knockabout-checkpoint/1"


class CheckpointError(KnockaboutError):
    """A checkpoint cannot be used for this run."""


def _first_difference(mine: dict[str, Any], theirs: dict[str, Any]) -> str:
    for key in sorted(set(mine) | set(theirs)):
        if mine.get(key) != theirs.get(key):
            return f"{key} is {json.dumps(theirs.get(key))} there, {json.dumps(mine.get(key))} here"
    return "no difference"  # pragma: no cover - only called when they differ


class Checkpoint:
    """The checkpoint of one run: units already finished, and appending the next ones."""

    def __init__(self, path: Path | None, kind: str, run: dict[str, Any], content: str) -> None:
        """``path`` None: kept in memory only (a run nobody will resume)."""
        self.path = path
        self.kind = kind
        self.run = json.loads(json.dumps(run))  # as it reads back
        self.content = content
        self.done: dict[int, Any] = {}
        self._out: IO[str] | None = None

    @classmethod
    def resume(cls, path: Path, kind: str, run: dict[str, Any], content: str) -> Checkpoint:
        """Open ``path`` to continue ``run``; a clear error if it belongs to something else."""
        ck = cls(path, kind, run, content)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise CheckpointError(f"cannot read checkpoint {path}: {exc.strerror}") from None
        try:
            head = json.loads(lines[0]) if lines else None
        except json.JSONDecodeError:
            head = None
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise CheckpointError(f"{path} is not a knockabout checkpoint (its first line is not {FORMAT!r})")
        if head.get("kind") != kind:
            raise CheckpointError(f"{path} is the checkpoint of a {head.get('kind')} run, not of a {kind} run")
        if head.get("run") != ck.run:
            raise CheckpointError(
                f"{path} is the checkpoint of another run ({_first_difference(ck.run, dict(head.get('run') or {}))}); "
                "give the same options as the run that wrote it"
            )
        if head.get("content") != content:
            raise CheckpointError(
                f"{path} was written with other game content (digest {str(head.get('content'))[:12]}…, "
                f"now {content[:12]}…); its results cannot be mixed with these: start a new run"
            )
        for line in lines[1:]:
            try:
                row = json.loads(line)
                ck.done[int(row["unit"])] = row["data"]
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                continue  # a line cut short when the run was killed: that unit is played again
        return ck

    def start(self, fresh: bool) -> None:
        """Open for appending (``fresh``: write a new file with its first line)."""
        if self.path is None:
            return
        try:
            if fresh:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._out = self.path.open("w", encoding="utf-8")
                head = {"format": FORMAT, "kind": self.kind, "run": self.run, "content": self.content}
                self._out.write(json.dumps(head) + "\n")
            else:
                self._out = self.path.open("a", encoding="utf-8")
            self._out.flush()
        except OSError as exc:
            raise CheckpointError(f"cannot write checkpoint {self.path}: {exc.strerror}") from None

    def add(self, unit: int, data: Any) -> None:
        """Record a finished unit (flushed at once: a Ctrl+C or a kill keeps it)."""
        self.done[unit] = data
        if self._out is not None:
            self._out.write(json.dumps({"unit": unit, "data": data}) + "\n")
            self._out.flush()

    def close(self, remove: bool = False) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None
        if remove and self.path is not None:
            self.path.unlink(missing_ok=True)
