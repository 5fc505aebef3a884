"""The phases of a Nak Muay turn, and the small vocabulary the rules modules share.

A state is always in one phase with one deciding seat (``NakMuayState.decider``);
every pending reaction (Dodge-or-take, Block on a KO, where to hide it, the Countdown
window, Scout's take and order, Sweep's direction, steal targets, the naming loop) is
a phase of its own.
"""

from __future__ import annotations

from typing import Final

from knockabout.core.protocol import Decision
from knockabout.games.nakmuay import actions as A

ACTION: Final = 0
ATTACK_REACT: Final = 1
KO_BLOCK: Final = 2
HIDE_KO: Final = 3
COUNTDOWN: Final = 4
SCOUT_TAKE: Final = 5
SCOUT_ORDER: Final = 6
SWEEP_DIR: Final = 7
STEAL_TARGET: Final = 8
TRIPLE_NAME: Final = 9
OVER: Final = 10
BUSY: Final = 11  # transient, never visible between actions

PHASE_NAMES: Final[tuple[str, ...]] = (
    "action",
    "attack_response",
    "ko_block",
    "hide_ko",
    "countdown_response",
    "scout_take",
    "scout_order",
    "sweep_direction",
    "steal_target",
    "triple_name",
    "over",
    "busy",
)
"""The decision kind each phase asks (``Decision.kind``)."""

PHASE_PROMPTS: Final[tuple[str, ...]] = (
    "Your turn: play a card or draw.",
    "You are attacked: Dodge or take the draws.",
    "You drew a KO: you must play a Block.",
    "Hide the KO in the draw pile: choose how deep.",
    "Countdown! Answer with Block, Dodge or a Clinch card before time runs out.",
    "Scout: take one of the cards you see (not a KO).",
    "Scout: put the other cards back in the order you like (first listed goes on top).",
    "Sweep: keep or reverse the direction of play.",
    "Clinch: choose whom to steal from.",
    "Clinch triple: name a card, or take one at random.",
    "",
    "",
)

DECISIONS: Final[tuple[tuple[Decision, ...], ...]] = tuple(
    tuple(Decision(seat, PHASE_NAMES[ph], None, None, PHASE_PROMPTS[ph]) for seat in range(A.MAX_SEATS))
    for ph in range(len(PHASE_NAMES))
)
"""The decision of each phase, per seat: shared objects, since ``to_act()`` is asked before
every action. The Countdown's carries the table's window, so it is made apart (by seat and
length, in ``state.py``)."""

# what happens once a sequence of draws completes
THEN_END_TURN: Final = 0
THEN_ATTACKER_DRAW: Final = 1

# which Clinch steal is under way
STEAL_PAIR: Final = 1
STEAL_TRIPLE: Final = 2

KIND_MASK: Final = 15
"""A draw-pile entry is ``kind | (known_by << 4)``: this mask keeps the kind."""


ONLY: Final = tuple(frozenset((p,)) for p in range(A.MAX_SEATS))
"""``ONLY[p]``: the audience of an event for seat ``p`` alone."""
