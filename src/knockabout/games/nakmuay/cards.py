"""Nak Muay Knockout cards: kinds, names and the deck.

Cards are small integers (kinds); a hand is a vector of counts per kind.
"""

from __future__ import annotations

from typing import Final

KO: Final = 0
BLOCK: Final = 1
ATTACK1: Final = 2
ATTACK2: Final = 3
ATTACK3: Final = 4
COUNTDOWN: Final = 5
DODGE: Final = 6
SCOUT: Final = 7
SWEEP: Final = 8
PLUM: Final = 9
COLLAR_TIE: Final = 10
UNDERHOOK: Final = 11
OVERHOOK: Final = 12
BODY_LOCK: Final = 13
NUM_KINDS: Final = 14

NAMES: Final[tuple[str, ...]] = (
    "ko",
    "block",
    "attack+1",
    "attack+2",
    "attack+3",
    "countdown",
    "dodge",
    "scout",
    "sweep",
    "plum",
    "collar-tie",
    "underhook",
    "overhook",
    "body-lock",
)
TITLES: Final[tuple[str, ...]] = (
    "KO",
    "Block",
    "Attack +1",
    "Attack +2",
    "Attack +3",
    "10-Second Countdown",
    "Dodge",
    "Scout",
    "Sweep",
    "Clinch: Plum",
    "Clinch: Collar Tie",
    "Clinch: Underhook",
    "Clinch: Overhook",
    "Clinch: Body Lock",
)
KIND_BY_NAME: Final[dict[str, int]] = {n: i for i, n in enumerate(NAMES)}

ATTACKS: Final[tuple[int, ...]] = (ATTACK1, ATTACK2, ATTACK3)
ATTACK_VALUE: Final[dict[int, int]] = {ATTACK1: 1, ATTACK2: 2, ATTACK3: 3}
HOLDS: Final[tuple[int, ...]] = (PLUM, COLLAR_TIE, UNDERHOOK, OVERHOOK, BODY_LOCK)
NAMEABLE: Final = tuple(range(1, NUM_KINDS))  # any card type but KO

# Copies in the box (45 cards).
COPIES: Final[tuple[int, ...]] = (4, 6, 3, 3, 2, 4, 4, 5, 4, 2, 2, 2, 2, 2)
assert sum(COPIES) == 45

# KO and Countdown cards shuffled into the draw pile after the deal, by player count.
KO_IN_PLAY: Final[dict[int, int]] = {2: 2, 3: 3, 4: 4, 5: 4}
COUNTDOWN_IN_PLAY: Final[dict[int, int]] = {2: 1, 3: 2, 4: 3, 5: 3}
HAND_SIZE: Final = 5


def in_play_counts(players: int) -> list[int]:
    """How many cards of each kind take part in a game of ``players``."""
    counts = list(COPIES)
    counts[KO] = KO_IN_PLAY[players]
    counts[COUNTDOWN] = COUNTDOWN_IN_PLAY[players]
    return counts


def describe(kind: int) -> str:
    """One line of card text, for help screens and tooltips."""
    return _TEXT[kind]


_TEXT: Final[dict[int, str]] = {
    KO: "Drawn: play a Block and hide the KO back in the pile, or you are out.",
    BLOCK: "Stops a KO you draw or a Countdown aimed at you.",
    ATTACK1: "The next player draws 1 card unless they Dodge.",
    ATTACK2: "The next player draws 2 cards unless they Dodge.",
    ATTACK3: "The next player draws 3 cards unless they Dodge.",
    COUNTDOWN: "The next player must answer with Block, Dodge or a Clinch within the time, or is out.",
    DODGE: "Cancels an Attack or Countdown aimed at you; on your turn, skip your draw.",
    SCOUT: "Look at the top 3 cards, take one that is not a KO, put the rest back in any order.",
    SWEEP: "Shuffle the draw pile, then keep or reverse the direction of play.",
    PLUM: "Clinch hold. Two alike steal a random card; three different steal a named card.",
    COLLAR_TIE: "Clinch hold. Two alike steal a random card; three different steal a named card.",
    UNDERHOOK: "Clinch hold. Two alike steal a random card; three different steal a named card.",
    OVERHOOK: "Clinch hold. Two alike steal a random card; three different steal a named card.",
    BODY_LOCK: "Clinch hold. Two alike steal a random card; three different steal a named card.",
}
