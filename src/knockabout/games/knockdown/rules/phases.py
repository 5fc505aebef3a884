"""The decisions a Knockdown position can wait for, and the small vocabularies they use.

``Phase`` says what the pending decision is; its values are what a saved state stores
(``to_dict()["phase"]``), so they never change. The pending decision's details
(``KnockdownState.pend``) are one of the ``*Pending`` records below, by phase.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Final, NamedTuple

from knockabout.core.protocol import Decision
from knockabout.games.knockdown import actions as A


class Phase(IntEnum):
    DRAFT1 = 0
    DRAFT2 = 1
    FACEUP = 2
    OPENING = 3
    TURN = 4
    COMBO = 5
    PAY = 6
    STEP = 7
    BLINK = 8
    CARD = 9
    BLOCK = 10
    REACT = 11
    KO = 12
    TOWER = 13
    COUNT = 14
    ROW = 15
    OVER = 16
    BUSY = 17  # rules are running: no decision is pending


# the members as plain module names: reading one is a global lookup (~5 ns), while
# ``Phase.TURN`` goes through the enum class (~60 ns) - the rules read them on every step
DRAFT1: Final = Phase.DRAFT1
DRAFT2: Final = Phase.DRAFT2
FACEUP: Final = Phase.FACEUP
OPENING: Final = Phase.OPENING
TURN: Final = Phase.TURN
COMBO: Final = Phase.COMBO
PAY: Final = Phase.PAY
STEP: Final = Phase.STEP
BLINK: Final = Phase.BLINK
CARD: Final = Phase.CARD
BLOCK: Final = Phase.BLOCK
REACT: Final = Phase.REACT
KO: Final = Phase.KO
TOWER: Final = Phase.TOWER
COUNT: Final = Phase.COUNT
ROW: Final = Phase.ROW
OVER: Final = Phase.OVER
BUSY: Final = Phase.BUSY


PHASE_KINDS: Final[tuple[str, ...]] = (
    "skill_draft", "skill_draft", "skill_face_up", "opening_pick", "turn", "combo", "pay", "move_step",
    "blink", "choose_card", "block", "reaction", "knockdown", "tower_challenge", "token_count",
    "take_from_row", "over", "busy",
)
"""Each phase's ``Decision.kind``, by phase value."""

COMBO_OPENING_PROMPT: Final = "Combo: perform a Special Attack or a Dash (then you may end the Combo)."
"""The Combo's prompt before anything is played in it (``combo:end`` is not offered yet)."""

PHASE_PROMPTS: Final[tuple[str, ...]] = (
    "Skill draft: keep one of the three Skill cards dealt to you (the other two go to your opponent).",
    "Skill draft: keep one of the two Skill cards your opponent passed you (the other leaves the game).",
    "Skill draft: choose which of your two Skill cards is face up (active).",
    "Opening pick: take a card from the Attack Row into your hand.",
    "Your turn: take an action (Move, Attack or Combo).",
    "Combo: perform a Special Attack or a Dash, or end the Combo.",
    "Pay the cost: choose the hand cards to discard.",
    "Move: choose a direction.",
    "Blink: choose the space to place the fighter on.",
    "Choose a card.",
    "You are hit by a Strike: Block or not.",
    "Your opponent's move gives you a chance to use a Reaction.",
    "Your attack has a K.O. effect: start a Knockdown Test?",
    "Knockdown Test: build the tower from all your wound cubes before the time runs out.",
    "How many tokens do you spend?",
    "Take a card from the Attack Row.",
    "",
    "",
)


TOWER_SECONDS: Final = 10
"""The tower test's time limit (the rulebook's ten seconds)."""

DECISIONS: Final[tuple[tuple[Decision, ...], ...]] = tuple(
    tuple(Decision(seat, PHASE_KINDS[ph], None, None, PHASE_PROMPTS[ph]) for seat in (0, 1)) for ph in Phase
)
"""The decision of each phase (by value), per seat: shared objects, since ``to_act()`` is asked
before every action. Two phases have their own besides: the ones below."""

TOWER_DECISIONS: Final[tuple[tuple[Decision, ...], ...]] = tuple(
    tuple(Decision(seat, PHASE_KINDS[TOWER], None if opened else float(TOWER_SECONDS), A.TOWER_FAIL,
                   PHASE_PROMPTS[TOWER]) for opened in (False, True))
    for seat in (0, 1)
)
"""The tower test, per seat, then by whether its seconds start when it is opened
(``tower_timer``): then the rules give it no time limit, and the table times the opened
puzzle."""

COMBO_OPENING_DECISIONS: Final[tuple[Decision, ...]] = tuple(
    Decision(seat, PHASE_KINDS[COMBO], None, None, COMBO_OPENING_PROMPT) for seat in (0, 1)
)
"""A Combo's decision before anything is played in it, per seat (it cannot be ended yet)."""


class CardPurpose(IntEnum):
    """Why a card is being chosen (phase CARD)."""

    LIMIT = 0  # discard down to the hand limit
    DISCARD = 1  # an effect makes a fighter discard
    REVEAL = 2  # the opponent reveals cards
    REVEAL_PICK = 3  # the actor discards one of the revealed cards
    FOR_TOKENS = 4  # discard cards with a symbol for tokens
    BLOCK = 5  # which Block card(s) pay a Block


C_LIMIT: Final = CardPurpose.LIMIT
C_DISCARD: Final = CardPurpose.DISCARD
C_REVEAL: Final = CardPurpose.REVEAL
C_REVEAL_PICK: Final = CardPurpose.REVEAL_PICK
C_FOR_TOKENS: Final = CardPurpose.FOR_TOKENS
C_BLOCK: Final = CardPurpose.BLOCK


class PayPurpose(IntEnum):
    COMBO = 0  # a Special Attack in a Combo
    REACT = 1  # a Reaction


PAY_COMBO: Final = PayPurpose.COMBO
PAY_REACT: Final = PayPurpose.REACT


class Trigger(IntEnum):
    MOVE = 0
    ATTACKED = 1


TRIG_MOVE: Final = Trigger.MOVE
TRIG_ATTACKED: Final = Trigger.ATTACKED


TRIGGERS: Final[tuple[str, ...]] = ("opponent_moves", "attacked")
"""Each trigger's name in the content (``Special.trigger``), by value."""


# --------------------------------------------------------------------------- pending decisions
class ComboPending(NamedTuple):
    played: bool  # a Special Attack or Dash of this Combo is done: it may end now


COMBO_STARTED: Final = ComboPending(False)
COMBO_PLAYED: Final = ComboPending(True)


class PayPending(NamedTuple):
    purpose: PayPurpose
    player: int
    special: int  # index into the player's Special Attacks


class StepPending(NamedTuple):
    mover: int
    left: int
    optional: bool
    dash: bool


class BlinkPending(NamedTuple):
    mover: int
    unused: int  # always 0 (kept: saved states store three fields)
    spaces: tuple[int, ...]


class CardPending(NamedTuple):
    purpose: CardPurpose
    owner: int
    chooser: int
    left: int
    revealed: tuple[int, ...]  # hand positions revealed (or picked for a Block)
    extra: tuple[int, ...]  # BLOCK: (heavy, light, effect); FOR_TOKENS: (symbol, token); REVEAL: (actor,)


class ReactPending(NamedTuple):
    trigger: Trigger
    by: int
    reactions: tuple[int, ...]


class TowerPending(NamedTuple):
    tested: int
    attacker: int
    cubes: int


class CountPending(NamedTuple):
    actor: int
    token: int


class RowPending(NamedTuple):
    left: int
    opening: bool


def pending_from_data(phase: Phase, data: tuple[Any, ...]) -> tuple[Any, ...]:
    """The pending record of ``phase`` from its saved fields (``to_dict()["pend"]``)."""
    if not data:
        if phase is Phase.COMBO:  # saved under rules 1.0, when a Combo could always end
            return COMBO_PLAYED
        return ()
    match phase:
        case Phase.COMBO:
            return COMBO_PLAYED if data[0] else COMBO_STARTED
        case Phase.PAY:
            return PayPending(PayPurpose(data[0]), int(data[1]), int(data[2]))
        case Phase.STEP:
            return StepPending(int(data[0]), int(data[1]), bool(data[2]), bool(data[3]))
        case Phase.BLINK:
            return BlinkPending(int(data[0]), int(data[1]), tuple(int(x) for x in data[2]))
        case Phase.CARD:
            return CardPending(CardPurpose(data[0]), int(data[1]), int(data[2]), int(data[3]),
                               tuple(int(x) for x in data[4]), tuple(data[5]))
        case Phase.REACT:
            return ReactPending(Trigger(data[0]), int(data[1]), tuple(int(x) for x in data[2]))
        case Phase.TOWER:
            return TowerPending(int(data[0]), int(data[1]), int(data[2]))
        case Phase.COUNT:
            return CountPending(int(data[0]), int(data[1]))
        case Phase.ROW | Phase.OPENING:
            return RowPending(int(data[0]), bool(data[1]))
        case (Phase.DRAFT1 | Phase.DRAFT2 | Phase.FACEUP | Phase.TURN | Phase.BLOCK | Phase.KO
              | Phase.OVER | Phase.BUSY):
            raise ValueError(f"phase {phase.name} has no pending details, got {list(data)}")
