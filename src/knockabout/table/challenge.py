"""Judged decisions: a decision a person answers by solving a puzzle the table sets.

Some decisions must not be a button a person presses: a dexterity test (a game may
declare one) is passed by *doing* something within a time limit, and a client must not
be able to claim a pass it did not earn. For such a decision kind the table
holds a :data:`Maker`. When the decision opens for a person (not a bot, not a person
who is away), the table builds a puzzle from its **own secret generator** (never the
game's: the game stays ``(game, rules version, config, seed, actions)``; the puzzle only
decides which action gets recorded), sends it to that seat only, and judges the
answer against the puzzle and against its own clock (deadline = the time the decision
opened + its ``time_limit``) and a human-speed floor (the puzzle's
``min_seconds_per_piece``: an answer sooner than that is a script's, and fails). A right
answer in time becomes the maker's pass action, anything else its fail action; the
person cannot choose either directly. Bots still choose the action directly (by the
game's own model of how likely a pass is).

A maker is ``maker(view, decision, rng) -> Puzzle`` (:data:`knockabout.core.plugins.Maker`)
where ``view`` is the deciding seat's typed view. A game declares its makers, one per
decision kind, in :meth:`Game.challenges <knockabout.core.protocol.Game.challenges>`
(each game's puzzles live in its own package); a table may be handed others with
``challenges=``. The puzzles themselves are the game's; the table keeps only what is
the same for every puzzle: issuing, the answer's shape, the clock and the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from knockabout.core.errors import KnockaboutError
from knockabout.core.plugins import Maker, Puzzle

__all__ = ["Challenge", "ChallengeError", "Maker", "Puzzle", "check_shape"]


class ChallengeError(KnockaboutError):
    """An answer that is not an answer to the challenge (unknown ids, repeats, wrong shape)."""


def check_shape(puzzle: Puzzle, answer: object) -> list[str]:
    """The answer as a list of piece ids, or :class:`ChallengeError` naming what is wrong
    with it (not a list of texts, a piece the puzzle does not have, a piece named twice).
    Only the shape is checked here; whether it is right is :meth:`Challenge.judge`'s call."""
    if not isinstance(answer, (list, tuple)) or not all(isinstance(a, str) for a in answer):
        raise ChallengeError("an answer is a list of piece ids (texts); nothing changed")
    known = set(puzzle.solution)
    unknown = [a for a in answer if a not in known]
    if unknown:
        raise ChallengeError(
            f"{unknown[0]!r} is not a piece of this challenge (pieces: {', '.join(sorted(known))}); nothing changed"
        )
    seen: set[str] = set()
    for a in answer:
        if a in seen:
            raise ChallengeError(f"piece {a!r} is named twice; each piece can be placed once; nothing changed")
        seen.add(a)
    return list(answer)


@dataclass
class Challenge:
    """One issued puzzle: for ``seat`` at state ``version``, open from ``issued_at`` to
    ``deadline``. ``clock_start`` is the decision's clock start it was issued for. A puzzle
    with seconds of its own on an untimed decision (a turn-based table) starts closed
    (``opened`` False: nothing of it is shown, no time runs) until :meth:`open`."""

    id: str
    seat: int
    version: int
    decision_kind: str
    issued_at: float
    deadline: float
    limit: float
    puzzle: Puzzle
    extra: dict[str, Any] = field(default_factory=dict)
    opened: bool = True
    clock_start: float | None = None

    def open(self, now: float) -> None:
        """Show the puzzle now: its seconds start running."""
        self.opened = True
        self.issued_at = now
        self.deadline = now + self.limit

    def public(self, now: float) -> dict[str, Any]:
        """The message for the challenged seat (never the solution; while closed, only
        what it is and how long it will take)."""
        head = {
            "id": self.id,
            "kind": self.puzzle.kind,
            "decision": self.decision_kind,
            "seat": self.seat,
            "version": self.version,
            "opened": self.opened,
            "limit": self.limit,
            "rule": self.puzzle.rule,
        }
        if not self.opened:
            return head
        return {
            **head,
            "left": round(max(0.0, self.deadline - now), 3),
            "min_seconds_per_piece": self.puzzle.min_seconds_per_piece,
            **self.puzzle.payload,
        }

    def judge(self, answer: Sequence[str], now: float) -> tuple[bool, str]:
        """(passed, why): right and in time passes; late, wrong, or right but faster than
        the puzzle's human-speed floor fails."""
        took = now - self.issued_at
        if now > self.deadline:
            return False, f"late: answered {now - self.deadline:.2f} s after the {self.limit:g} s ran out"
        want = self.puzzle.solution
        if list(answer) == list(want):
            floor = self.puzzle.min_seconds_per_piece * len(want)
            if took < floor:
                return False, (
                    f"too fast for a person: {len(want)} {'piece' if len(want) == 1 else 'pieces'} in {took:.2f} s; "
                    "the table passes no answer "
                    f"sooner than {self.puzzle.min_seconds_per_piece:g} s a piece ({floor:.2f} s)"
                )
            return True, f"right in {took:.2f} s"
        for i, (got, right) in enumerate(zip(answer, want, strict=False)):
            if got != right:
                return False, f"wrong: piece {i + 1} was {got!r}, not the right one ({took:.2f} s)"
        return False, f"unfinished: {len(answer)} of {len(want)} pieces placed ({took:.2f} s)"
