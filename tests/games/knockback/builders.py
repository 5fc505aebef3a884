"""Build KNOCKBACK positions for scenario tests: chosen cards, chosen cells, battle phase."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from knockabout.core.events import Event
from knockabout.core.rng import Rng
from knockabout.games.knockback.actions import LABELS
from knockabout.games.knockback.cards import EDGE_NAMES, Card, compile_card
from knockabout.games.knockback.grid import cell, coords
from knockabout.games.knockback.phases import ALL_SIX, TURN
from knockabout.games.knockback.state import KnockbackState

Edges = Sequence[tuple[int, int]]
EVEN: Edges = ((2, 2), (2, 2), (2, 2), (2, 2))


def card(
    name: str,
    actions: Sequence[str] = ("punch",),
    edges: Edges = EVEN,
    effects: Iterable[Mapping[str, Any]] = (),
    kind: str = "punching",
) -> Card:
    """A card with no ability unless ``effects`` are given (edges as (attack, heart), N E S W)."""
    return compile_card(
        {
            "name": name,
            "pack": "test",
            "actions": list(actions),
            "edges": {n: {"attack": a, "heart": h} for n, (a, h) in zip(EDGE_NAMES, edges, strict=True)},
            "ability": {"kind": kind, "effects": [dict(e) for e in effects]},
        }
    )


def plain_six() -> list[Card]:
    return [card(f"P{i}") for i in range(6)]


def battle(
    cards: Mapping[str, Card] | None = None,
    board: Mapping[str, tuple[int, int]] | None = None,
    *,
    exhausted: Iterable[str] = (),
    current: int = 0,
    knockback: str = "push",
    scoring: str = "tug",
    best_of: int = 3,
    max_turns: int = 200,
    max_rounds: int = 30,
    knockout_on_tie: bool = False,
    alternate_starts: bool = False,
) -> KnockbackState:
    """A battle position: ``cards`` replaces some labels' cards (others are plain 2/2
    punchers), ``board`` puts labels on cells; labels left off the board are out."""
    pool = plain_six()
    for label, c in (cards or {}).items():
        pool[LABELS.index(label)] = c
    s = KnockbackState.start(
        pool=pool,
        lineup=[[0, 1, 2], [3, 4, 5]],
        whole_line=knockback == "whole_line",
        scoring=scoring,
        best_of=best_of,
        max_turns=max_turns,
        max_rounds=max_rounds,
        knockout_on_tie=knockout_on_tie,
        alternate_starts=alternate_starts,
        rng=Rng(0),
    )
    s.placed = ALL_SIX
    for label, (x, y) in (board or {}).items():
        i = LABELS.index(label)
        s.pos[i] = cell(x, y)
        s.grid[s.pos[i]] = i
        s.onboard |= 1 << i
    for label in exhausted:
        s.exhausted |= 1 << LABELS.index(label)
    s.phase = TURN
    s.current = current
    s.starter = current
    s._legal = None
    return s


def where(s: KnockbackState, label: str) -> tuple[int, int] | None:
    """The cell of a card, or None when it is not on the grid."""
    i = LABELS.index(label)
    return coords(s.pos[i]) if s.onboard >> i & 1 else None


def board(s: KnockbackState) -> dict[str, tuple[int, int]]:
    return {LABELS[i]: coords(s.pos[i]) for i in range(6) if s.onboard >> i & 1}


def play(s: KnockbackState, *actions: str) -> list[Event]:
    out: list[Event] = []
    for a in actions:
        out += s.apply(a)
    return out


def legal(s: KnockbackState) -> set[str]:
    return {a.text for a in s.legal_actions()}


def of_type(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]
