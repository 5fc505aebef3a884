"""Judged decisions: a decision a person answers by solving a puzzle the table sets.

Some decisions must not be a button a person presses: Knockdown's tower test
(``tower_challenge``) is passed by *doing* something within ten seconds, and a client
must not be able to claim a pass it did not earn. For such a decision kind the table
holds a :data:`Maker`. When the decision opens for a person (not a bot, not a person
who is away), the table builds a puzzle from its **own secret generator** (never the
game's: the game stays ``(game, rules version, config, seed, actions)``; the puzzle only
decides which action gets recorded), sends it to that seat only, and judges the
answer against the puzzle and against its own clock (deadline = the time the decision
opened + its ``time_limit``). A right answer in time becomes the maker's pass action,
anything else its fail action; the person cannot choose either directly. Bots still
choose the action directly (Knockdown's skill curve).

A maker is ``maker(view, decision, rng) -> Puzzle`` where ``view`` is the deciding
seat's ``observe()``. Register one per decision kind in :data:`MAKERS` (or pass
``challenges=`` to the table).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from knockabout.core.errors import KnockaboutError
from knockabout.core.protocol import Decision
from knockabout.core.rng import Rng

_ID_LETTERS = "abcdefghjkmnpqrstuvwxyz"
_ID_DIGITS = "23456789"


class ChallengeError(KnockaboutError):
    """An answer that is not an answer to the challenge (unknown ids, repeats, wrong shape)."""


@dataclass(frozen=True)
class Puzzle:
    """What a maker builds: the payload the person sees, the one right answer, and the
    actions a pass and a fail become."""

    kind: str
    payload: dict[str, Any]
    solution: tuple[str, ...]
    pass_action: str
    fail_action: str
    rule: str = ""

    def check_shape(self, answer: object) -> list[str]:
        """The answer as a list of ids, or ChallengeError naming what is wrong with it."""
        if not isinstance(answer, (list, tuple)) or not all(isinstance(a, str) for a in answer):
            raise ChallengeError("an answer is a list of piece ids (texts); nothing changed")
        known = set(self.solution)
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
    """One issued puzzle: for ``seat`` at state ``version``, open from ``issued_at`` to ``deadline``."""

    id: str
    seat: int
    version: int
    decision_kind: str
    issued_at: float
    deadline: float
    limit: float
    puzzle: Puzzle
    extra: dict[str, Any] = field(default_factory=dict)

    def public(self, now: float) -> dict[str, Any]:
        """The message for the challenged seat (never the solution)."""
        return {
            "id": self.id,
            "kind": self.puzzle.kind,
            "decision": self.decision_kind,
            "seat": self.seat,
            "version": self.version,
            "left": round(max(0.0, self.deadline - now), 3),
            "limit": self.limit,
            "rule": self.puzzle.rule,
            **self.puzzle.payload,
        }

    def judge(self, answer: Sequence[str], now: float) -> tuple[bool, str]:
        """(passed, why): right and in time passes; late or wrong fails."""
        took = now - self.issued_at
        if now > self.deadline:
            return False, f"late: answered {now - self.deadline:.2f} s after the {self.limit:g} s ran out"
        want = self.puzzle.solution
        if list(answer) == list(want):
            return True, f"right in {took:.2f} s"
        for i, (got, right) in enumerate(zip(answer, want, strict=False)):
            if got != right:
                return False, f"wrong: piece {i + 1} was {got!r}, so the tower fell ({took:.2f} s)"
        return False, f"unfinished: {len(answer)} of {len(want)} pieces placed ({took:.2f} s)"


Maker = Callable[[dict[str, Any], Decision, Rng], Puzzle]


def piece_ids(rng: Rng, n: int) -> list[str]:
    """``n`` distinct short ids (a letter and a digit) in random order."""
    pool = [a + b for a in _ID_LETTERS for b in _ID_DIGITS]
    rng.shuffle(pool)
    return pool[:n]


def tower_puzzle(view: dict[str, Any], decision: Decision, rng: Rng) -> Puzzle:
    """Knockdown's tower: every wound cube of the tested fighter, each labelled with its
    place in the tower, lies at a random spot of a field; the person stacks them by
    picking them in order (place 1 on the table, each next one on top: one cube on the
    ground and none touching more than two others). Harder as the tower grows: the field
    grows, and from 4 cubes on the cubes still lying move to new spots after every
    correct pick (``layouts[k]`` is where they lie after k picks). A wrong pick topples
    the tower (the client sends the picks so far, and the table judges a fail)."""
    pending = view.get("pending") or {}
    tested = int(pending.get("tested", decision.player))
    fighter = (view.get("fighters") or [{}] * (tested + 1))[tested]
    n = max(1, int(pending.get("cubes", 0)))
    heavy = min(n, int(fighter.get("heavy", 0)))
    ids = piece_ids(rng, n)
    # place k (1-based) is ids[k-1]: heavy cubes at the bottom, light ones on top
    cubes: list[dict[str, Any]] = [
        {"id": ids[k], "weight": "heavy" if k < heavy else "light", "place": k + 1} for k in range(n)
    ]
    rng.shuffle(cubes)
    cols, rows = 4 + n // 3, 3 + n // 4
    reshuffle = n >= 4
    slots = [(x, y) for y in range(rows) for x in range(cols)]
    layouts: list[list[list[int]]] = []
    first = list(slots)
    rng.shuffle(first)
    where = {c["id"]: list(first[i]) for i, c in enumerate(cubes)}
    layouts.append([where[c["id"]] for c in cubes])
    for k in range(1, n):
        if reshuffle:
            free = list(slots)
            rng.shuffle(free)
            left = [c for c in cubes if c["place"] > k]
            for i, c in enumerate(left):
                where[c["id"]] = list(free[i])
        layouts.append([where[c["id"]] for c in cubes])
    return Puzzle(
        kind="tower",
        payload={"cubes": cubes, "grid": [cols, rows], "layouts": layouts, "reshuffle": reshuffle},
        solution=tuple(ids),
        pass_action="tower:pass",
        fail_action="tower:fail",
        rule="Stack every cube in the order of its number, 1 on the table first; a wrong cube topples the tower.",
    )


MAKERS: dict[str, Maker] = {"tower_challenge": tower_puzzle}
