"""Knockdown's tower puzzle: the judged form of the ``tower_challenge`` decision.

A person's Knockdown Test in tower mode is not a button: the table (see
:mod:`knockabout.table.challenge`) sets this puzzle from its own secret generator and
judges the answer. Every wound cube of the tested fighter lies on a field, labelled with
its place in the tower (1 on the table, each next one on top; heavy cubes at the bottom);
the person stacks them by picking them in order. From 4 cubes on, the cubes still lying
move to new spots after every correct pick, so the puzzle grows harder with the tower.

What the seat is sent is what a person sees when the puzzle opens: the numbered cubes, the
field and where the cubes lie *now*. Where they will lie after each pick is not decided
here: the client moves them itself (the table judges only the order, so those spots are
the client's business and carry no answer). The place numbers are on the cubes because a
person reads them; a script can read them too, so the table also refuses an answer faster
than a person could give it (:data:`SECONDS_PER_CUBE`, see docs/live-play.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from knockabout.core.plugins import Puzzle
from knockabout.core.view import View
from knockabout.games.knockdown import actions as A
from knockabout.games.knockdown.presentation.view import KnockdownView
from knockabout.games.knockdown.rules.phases import TOWER_SECONDS

if TYPE_CHECKING:
    from knockabout.core.protocol import Decision
    from knockabout.core.rng import Rng

_ID_LETTERS = "abcdefghjkmnpqrstuvwxyz"
_ID_DIGITS = "23456789"

SECONDS_PER_CUBE = 0.25
"""The human-speed floor: an answer that stacks n cubes in less than ``n *`` this many
seconds (from the moment the puzzle opened) fails as too fast. A person reads a number,
finds its cube and clicks it (or types a two-character id) in well over a quarter of a
second; the browser and terminal tests answer at that pace."""

RULE = "Stack every cube in the order of its number, 1 on the table first; a wrong cube topples the tower."


def piece_ids(rng: Rng, n: int) -> list[str]:
    """``n`` distinct short ids (a letter and a digit) in random order."""
    pool = [a + b for a in _ID_LETTERS for b in _ID_DIGITS]
    rng.shuffle(pool)
    return pool[:n]


def tower_puzzle(view: View, decision: Decision, rng: Rng) -> Puzzle:
    """The tower for the tested seat of ``view`` (its typed Knockdown view), from the
    table's generator ``rng``.

    The payload: ``cubes`` (each ``id``, ``weight`` ``heavy``/``light`` and ``place``, in
    a random order), ``grid`` (``[columns, rows]`` of the field, growing with the tower),
    ``layout`` (where each cube of ``cubes`` lies now, ``[x, y]``) and ``reshuffle``
    (whether the cubes still lying move after each correct pick: from 4 cubes on)."""
    if not isinstance(view, KnockdownView):
        raise TypeError(f"the tower puzzle is set from a KnockdownView, not {type(view).__name__}")
    pending = view.pending
    tested = decision.player if pending.tested is None else pending.tested
    n = max(1, pending.cubes or 0)
    heavy = min(n, view.fighters[tested].heavy)
    ids = piece_ids(rng, n)
    # place k (1-based) is ids[k-1]: heavy cubes at the bottom, light ones on top
    cubes: list[dict[str, Any]] = [
        {"id": ids[k], "weight": "heavy" if k < heavy else "light", "place": k + 1} for k in range(n)
    ]
    rng.shuffle(cubes)
    cols, rows = 4 + n // 3, 3 + n // 4
    slots = [[x, y] for y in range(rows) for x in range(cols)]
    rng.shuffle(slots)
    return Puzzle(
        kind="tower",
        payload={"cubes": cubes, "grid": [cols, rows], "layout": slots[:n], "reshuffle": n >= 4},
        solution=tuple(ids),
        pass_action=A.TOWER_PASS.text,
        fail_action=A.TOWER_FAIL.text,
        rule=RULE,
        min_seconds_per_piece=SECONDS_PER_CUBE,
        seconds=float(TOWER_SECONDS),
    )
