"""The phases of a KNOCKBACK match, its scoring modes and the decisions each phase asks.

A match drafts (or takes the packs' line-ups), then plays rounds: the seats place their
cards one at a time, then take battle turns. A battle turn activates a card, whose
symbols are taken one by one; a punch on an exhausted card waits for the attacker's
choice of edge in its own phase.
"""

from __future__ import annotations

from typing import Final, Literal

from knockabout.core.protocol import Decision
from knockabout.games.knockback.cards import EITHER, MOVE, PUNCH, SYMBOL_NAMES

# phases
DRAFT: Final = 0
PLACE: Final = 1
TURN: Final = 2
SYMBOL: Final = 3
EDGE: Final = 4
OVER: Final = 5
Phase = Literal["draft", "place", "turn", "symbol", "punch_edge", "over"]
PHASE_NAMES: Final[tuple[Phase, ...]] = ("draft", "place", "turn", "symbol", "punch_edge", "over")

# scoring
TUG: Final = 0
SPEED: Final = 1
BEST_OF: Final = 2
Scoring = Literal["tug", "speed", "best_of"]
SCORING_NAMES: Final[tuple[Scoring, ...]] = ("tug", "speed", "best_of")
MIDDLE: Final = -1
"""Where the score token lies when neither seat has it."""

# the six labels as bits
SEAT_MASK: Final[tuple[int, ...]] = (0b000111, 0b111000)  # unstated length: see grid.DELTA
ALL_SIX: Final = 0b111111


def bits(mask: int) -> tuple[int, ...]:
    """The labels (0-5) set in ``mask``."""
    return tuple(i for i in range(6) if mask >> i & 1)


_PROMPTS: Final = {
    DRAFT: "Draft: keep one card of the hand you hold; the rest pass to your opponent.",
    PLACE: "Placement: put one of your cards on an empty cell next to a card.",
    TURN: "Your turn: activate one of your rested cards, or rest.",
    EDGE: "The target is exhausted: choose which of its edges takes the punch.",
}
DECISIONS: Final = {
    ph: tuple(Decision(p, PHASE_NAMES[ph], None, None, _PROMPTS[ph]) for p in range(2)) for ph in _PROMPTS
}
"""The decision of each phase but SYMBOL, per seat (shared objects)."""
SYMBOL_DECISIONS: Final = {
    sym: tuple(
        Decision(p, "symbol", None, None, f"Take the active card's {SYMBOL_NAMES[sym].replace('_', '-').upper()} "
                 "symbol, or skip it.")
        for p in range(2)
    )
    for sym in (MOVE, PUNCH, EITHER)
}
"""The SYMBOL decision, by the symbol being taken, per seat."""
