"""Every action of KNOCKBACK, with a fixed integer code.

Cards are named by label: ``A1``-``A3`` are the first seat's cards, ``B1``-``B3`` the
second seat's, in line-up order. Directions are the board's compass points
(``N`` is up on the shared board, ``E`` is right), never absolute coordinates.

Texts:
  keep:I            draft: keep the I-th card of the hand you hold (0-based)
  place:X           placement: put card X on the first cell of the grid
  place:X:Y:D       placement: put card X on the empty cell on side D of card Y
  activate:X        battle: activate your rested card X
  rest              battle: all your exhausted cards become rested
  move:D            the active card steps one cell towards D
  punch:D           the active card punches the card on its side D
  skip              skip the active card's current symbol
  hit:D             punching an exhausted card: the heart value comes from its side D
"""

from __future__ import annotations

from typing import Final

from knockabout.core.actions import Action, ActionSpace
from knockabout.games.knockback.grid import DIRS

LABELS: Final[tuple[str, ...]] = ("A1", "A2", "A3", "B1", "B2", "B3")
MAX_HAND: Final = 6


def _texts() -> list[str]:
    t = [f"keep:{i}" for i in range(MAX_HAND)]
    t += [f"place:{x}" for x in LABELS]
    t += [f"place:{x}:{y}:{d}" for x in LABELS for y in LABELS if y != x for d in DIRS]
    t += [f"activate:{x}" for x in LABELS]
    t += ["rest"]
    t += [f"move:{d}" for d in DIRS]
    t += [f"punch:{d}" for d in DIRS]
    t += ["skip"]
    t += [f"hit:{d}" for d in DIRS]
    return t


SPACE: Final = ActionSpace("knockback", _texts())

KEEP: Final = tuple(SPACE.get(f"keep:{i}") for i in range(MAX_HAND))
PLACE_FIRST: Final = tuple(SPACE.get(f"place:{x}") for x in LABELS)
PLACE_AT: Final[tuple[tuple[tuple[Action | None, ...], ...], ...]] = tuple(
    tuple(
        tuple(None if y == x else SPACE.get(f"place:{LABELS[x]}:{LABELS[y]}:{d}") for d in DIRS)
        for y in range(6)
    )
    for x in range(6)
)
ACTIVATE: Final = tuple(SPACE.get(f"activate:{x}") for x in LABELS)
REST: Final = SPACE.get("rest")
MOVE: Final = tuple(SPACE.get(f"move:{d}") for d in DIRS)
PUNCH: Final = tuple(SPACE.get(f"punch:{d}") for d in DIRS)
SKIP: Final = SPACE.get("skip")
HIT: Final = tuple(SPACE.get(f"hit:{d}") for d in DIRS)

# reverse look-ups used by apply(): action -> small int(s)
KEEP_INDEX: Final = {a: i for i, a in enumerate(KEEP)}
PLACE_FIRST_LABEL: Final = {a: i for i, a in enumerate(PLACE_FIRST)}
PLACE_AT_ARGS: Final[dict[Action, tuple[int, int, int]]] = {
    a: (x, y, d)
    for x in range(6)
    for y in range(6)
    for d, a in enumerate(PLACE_AT[x][y])
    if a is not None
}
ACTIVATE_LABEL: Final = {a: i for i, a in enumerate(ACTIVATE)}
MOVE_DIR: Final = {a: i for i, a in enumerate(MOVE)}
PUNCH_DIR: Final = {a: i for i, a in enumerate(PUNCH)}
HIT_SIDE: Final = {a: i for i, a in enumerate(HIT)}
