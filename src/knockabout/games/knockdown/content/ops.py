"""The effect vocabulary: every op a card, sheet or skill effect is made of, as validated
content models. :class:`OpName` names them (a content file's ``op = "..."`` is read as one),
:data:`Op` is the union the interpreter (:mod:`..rules.effects`), the card text (:mod:`.text`) and
:func:`reaches_opponent` match on exhaustively, so a new op that one of them forgets fails
``mypy --strict``.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any, Final, Literal, assert_never

from pydantic import ConfigDict, Field, field_validator, model_validator

from knockabout.games.knockdown.content.vocabulary import ContentModel, Symbol, Token, Who, check_symbol


class OpName(StrEnum):
    WOUND = "wound"
    WOUND_PER_SYMBOL = "wound_per_symbol"
    BACKWARD = "backward"
    FORWARD = "forward"
    STEP = "step"
    BLINK = "blink"
    PLACE_TOKEN = "place_token"
    REMOVE_TOKEN = "remove_token"
    DISCARD = "discard"
    REVEAL_DISCARD = "reveal_discard"
    TAKE_FROM_ROW = "take_from_row"
    HEAL = "heal"
    SPEND_FOR_STEPS = "spend_for_steps"
    DISCARD_FOR_TOKENS = "discard_for_tokens"
    TRANSFER_WOUND = "transfer_wound"
    PLACE_TRAP = "place_trap"
    CONTAMINATE = "contaminate"
    CANCEL_MOVE = "cancel_move"
    IGNORE_ATTACK = "ignore_attack"


class Cond(ContentModel):
    """An op runs only if a fighter has (or lacks) a token."""

    model_config = ConfigDict(title="Only if")

    on: Who = "opponent"
    has: Token
    present: bool = True


def _op_title(cls: type[Any]) -> str:
    """An op's name in the studio's form: ``WoundPerSymbolOp`` is "Wound per symbol"."""
    words = re.findall(r"[A-Z][a-z]*", cls.__name__.removesuffix("Op"))
    return " ".join([words[0], *(w.lower() for w in words[1:])])


class _Op(ContentModel):
    model_config = ConfigDict(model_title_generator=_op_title)

    when: Cond | None = Field(None, alias="if")


class WoundOp(_Op):
    """Inflict wounds (not blockable as wounds: they sit in the effect frame)."""

    op: Literal[OpName.WOUND]
    target: Who = "opponent"
    heavy: int = Field(0, ge=0, le=5)
    light: int = Field(0, ge=0, le=5)


class WoundPerSymbolOp(_Op):
    """1 wound per ``per`` matching symbols in the actor's hand."""

    op: Literal[OpName.WOUND_PER_SYMBOL]
    symbol: str = "any"
    per: int = Field(1, ge=1, le=3)
    kind: Literal["heavy", "light"] = "light"

    @field_validator("symbol")
    @classmethod
    def _sym(cls, v: str) -> str:
        return v if v == "any" else check_symbol(v)


class BackwardOp(_Op):
    """Push the opponent straight away from the actor."""

    op: Literal[OpName.BACKWARD]
    steps: int = Field(1, ge=1, le=4)


class ForwardOp(_Op):
    """Move the actor straight towards the opponent."""

    op: Literal[OpName.FORWARD]
    steps: int = Field(1, ge=1, le=4)


class StepOp(_Op):
    """The actor moves a fighter one space at a time, choosing each direction."""

    op: Literal[OpName.STEP]
    who: Who = "self"
    steps: int = Field(1, ge=1, le=4)
    optional: bool = False


class BlinkOp(_Op):
    """The actor places a fighter on a free space at distance min..max from ``anchor``."""

    op: Literal[OpName.BLINK]
    who: Who = "self"
    min: int = Field(1, ge=0, le=8)
    max: int = Field(2, ge=1, le=8)
    anchor: Literal["actor", "mover"] = "mover"

    @model_validator(mode="after")
    def _order(self) -> BlinkOp:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) must not exceed max ({self.max})")
        return self


class PlaceTokenOp(_Op):
    op: Literal[OpName.PLACE_TOKEN]
    token: Token
    on: Who = "opponent"
    count: int = Field(1, ge=1, le=6)


class RemoveTokenOp(_Op):
    op: Literal[OpName.REMOVE_TOKEN]
    token: Token
    source: Who = Field("opponent", alias="from")
    count: int = Field(1, ge=1, le=6)


class DiscardOp(_Op):
    """A fighter discards cards from hand; ``chooser`` picks which."""

    op: Literal[OpName.DISCARD]
    who: Who = "opponent"
    count: int = Field(1, ge=1, le=3)
    chooser: Literal["owner", "actor"] = "owner"


class RevealDiscardOp(_Op):
    """The opponent reveals ``reveal`` cards of their choice; the actor discards one."""

    op: Literal[OpName.REVEAL_DISCARD]
    reveal: int = Field(2, ge=1, le=3)


class TakeFromRowOp(_Op):
    """The actor takes a card of their choice from the Attack Row (no Attack Sequence)."""

    op: Literal[OpName.TAKE_FROM_ROW]
    count: int = Field(1, ge=1, le=2)


class HealOp(_Op):
    """The actor discards wounds from their own sheet."""

    op: Literal[OpName.HEAL]
    heavy: int = Field(0, ge=0, le=3)
    light: int = Field(0, ge=0, le=3)


class SpendForStepsOp(_Op):
    """Discard any number of your tokens; move 1 space for each."""

    op: Literal[OpName.SPEND_FOR_STEPS]
    token: Token


class DiscardForTokensOp(_Op):
    """Discard any number of cards with ``symbol``; gain 1 ``token`` for each."""

    op: Literal[OpName.DISCARD_FOR_TOKENS]
    symbol: Symbol
    token: Token


class TransferWoundOp(_Op):
    """Move wounds from the actor's sheet to the opponent's (heavy ones first)."""

    op: Literal[OpName.TRANSFER_WOUND]
    count: int = Field(1, ge=1, le=3)


class PlaceTrapOp(_Op):
    """Put a Trap token on the actor's space."""

    op: Literal[OpName.PLACE_TRAP]


class ContaminateOp(_Op):
    """Put a Contamination card from the supply into the opponent's hand."""

    op: Literal[OpName.CONTAMINATE]


class CancelMoveOp(_Op):
    """(Reaction) the triggering movement does not happen."""

    op: Literal[OpName.CANCEL_MOVE]


class IgnoreAttackOp(_Op):
    """(Reaction) the triggering Attack Sequence is ignored entirely."""

    op: Literal[OpName.IGNORE_ATTACK]


Op = Annotated[
    WoundOp
    | WoundPerSymbolOp
    | BackwardOp
    | ForwardOp
    | StepOp
    | BlinkOp
    | PlaceTokenOp
    | RemoveTokenOp
    | DiscardOp
    | RevealDiscardOp
    | TakeFromRowOp
    | HealOp
    | SpendForStepsOp
    | DiscardForTokensOp
    | TransferWoundOp
    | PlaceTrapOp
    | ContaminateOp
    | CancelMoveOp
    | IgnoreAttackOp,
    Field(discriminator="op"),
]
OP_NAMES: Final = tuple(str(o) for o in OpName)


def reaches_opponent(op: Op) -> bool:
    """Whether an op does something to the opponent (an attack with one needs range, and can be blocked)."""
    match op:
        case WoundOp():
            return op.target == "opponent"
        case StepOp() | BlinkOp() | DiscardOp():
            return op.who == "opponent"
        case PlaceTokenOp():
            return op.on == "opponent"
        case RemoveTokenOp():
            return op.source == "opponent"
        case WoundPerSymbolOp() | BackwardOp() | RevealDiscardOp() | TransferWoundOp() | ContaminateOp():
            return True
        case (ForwardOp() | TakeFromRowOp() | HealOp() | SpendForStepsOp() | DiscardForTokensOp() | PlaceTrapOp()
              | CancelMoveOp() | IgnoreAttackOp()):
            return False
        case _:
            assert_never(op)
