"""Build Knockdown positions for scenario tests: play the setup, then arrange the table."""

from __future__ import annotations

from typing import Any

from knockabout.core.events import Event
from knockabout.games.knockdown import GAME
from knockabout.games.knockdown.state import TURN, KnockdownState


def fresh(fighters: tuple[str, str] = ("mistbearer", "lost_knight"), seed: int = 0, **cfg: Any) -> KnockdownState:
    return GAME.new_state({"fighters": list(fighters), **cfg}, seed)


def ready(s: KnockdownState, skills: bool = False) -> KnockdownState:
    """Play the draft and the opening pick with the first legal choice each time.

    Unless ``skills``, the drafted Skill cards are then switched off so that a scenario
    does not depend on which skills the draft happened to give.
    """
    while s.phase != TURN:
        s.apply(s.legal_actions()[0])
    if not skills:
        mute_skills(s)
    return s


def mute_skills(s: KnockdownState) -> None:
    s.reveal_done = False
    s.refresh_symbols(0)
    s.refresh_symbols(1)
    s._legal = None


def give_skill(s: KnockdownState, p: int, name: str) -> None:
    """Make ``name`` (from the match's skill set) player p's only active Skill card."""
    sid = next(i for i, sk in enumerate(s.setup.skills) if sk.name == name)
    s.reveal_done = True
    s.keep1[p], s.up[p], s.revealed[p] = sid, 0, False
    other = 1 - p
    if s.keep1[other] == sid:
        s.keep1[other] = s.keep2[other]
    s.refresh_symbols(p)
    s.refresh_symbols(other)
    s._legal = None


def design(s: KnockdownState, name: str) -> int:
    return s.setup.card_index[name]


def space(s: KnockdownState, x: int, y: int) -> int:
    i = s.setup.arena.at(x, y)
    assert i >= 0, f"no space at {x},{y}"
    return i


def arrange(
    s: KnockdownState,
    *,
    hands: tuple[list[str], list[str]] | None = None,
    at: tuple[tuple[int, int], tuple[int, int]] | None = None,
    row: list[str | None] | None = None,
    deck: list[str] | None = None,
    current: int | None = None,
) -> KnockdownState:
    """Set hands and positions (each as (the player to act, the other one)), the Attack Row
    and the deck (listed top first)."""
    if current is not None:
        s.current = current
        s.decider = current
    if hands is not None:
        me = s.current
        s.hands[me] = sorted(design(s, n) for n in hands[0])
        s.hands[1 - me] = sorted(design(s, n) for n in hands[1])
    if at is not None:
        me = s.current
        s.pos[me] = space(s, *at[0])
        s.pos[1 - me] = space(s, *at[1])
    if row is not None:
        s.row = [-1 if n is None else design(s, n) for n in row]
    if deck is not None:
        s.deck = [design(s, n) for n in reversed(deck)]
    s._legal = None
    return s


def play(s: KnockdownState, *actions: str) -> list[Event]:
    ev: list[Event] = []
    for a in actions:
        ev += s.apply(a)
    return ev


def legal(s: KnockdownState) -> list[str]:
    return [a.text for a in s.legal_actions()]


def hand(s: KnockdownState, p: int) -> list[str]:
    return [s.setup.cards[d].name for d in s.hands[p]]


def kind(s: KnockdownState) -> str:
    d = s.to_act()
    return "over" if d is None else d.kind
