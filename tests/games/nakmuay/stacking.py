"""Build Nak Muay positions by hand ("stacking the deck") for scenario tests."""

from __future__ import annotations

from collections.abc import Sequence

from knockabout.games.nakmuay import GAME, NakMuayState
from knockabout.games.nakmuay import cards as C


def kinds(names: Sequence[str]) -> list[int]:
    return [C.KIND_BY_NAME[n] for n in names]


def counts(names: Sequence[str]) -> list[int]:
    c = [0] * C.NUM_KINDS
    for k in kinds(names):
        c[k] += 1
    return c


def stacked(
    hands: Sequence[Sequence[str]],
    pile: Sequence[str] = (),
    discard: Sequence[str] = (),
    *,
    current: int = 0,
    direction: int = 1,
    end_turn: str = "draw_after",
    max_turns: int = 500,
    countdown_seconds: float = 10.0,
    seed: int = 0,
) -> NakMuayState:
    """A state with exactly these hands, draw pile (``pile`` listed top first) and discard.

    The cards in play are exactly those placed, so card conservation holds.
    """
    n = len(hands)
    s = GAME.new_state(
        {
            "players": n,
            "end_turn": end_turn,
            "max_turns": max_turns,
            "countdown_seconds": countdown_seconds,
        },
        seed,
    )
    s.hands = [counts(h) for h in hands]
    s.sizes = [len(h) for h in hands]
    s.pile = list(reversed(kinds(pile)))
    s.discard = kinds(discard)
    in_play = [0] * C.NUM_KINDS
    for h in s.hands:
        for k in range(C.NUM_KINDS):
            in_play[k] += h[k]
    for k in s.pile + s.discard:
        in_play[k] += 1
    s.in_play = in_play
    s.current = s.decider = current
    s.direction = direction
    s._legal = None
    return s


def hand(s: NakMuayState, p: int) -> list[str]:
    return [C.NAMES[k] for k in range(C.NUM_KINDS) for _ in range(s.hands[p][k])]


def pile_top_first(s: NakMuayState) -> list[str]:
    return [C.NAMES[e & 15] for e in reversed(s.pile)]


def play(s: NakMuayState, *actions: str) -> list[str]:
    """Apply actions by text; returns the event types (all of them) in order."""
    types: list[str] = []
    for a in actions:
        types += [e.type for e in s.apply(a)]
    return types


def legal(s: NakMuayState) -> list[str]:
    return [a.text for a in s.legal_actions()]
