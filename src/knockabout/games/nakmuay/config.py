"""Table options and rule variants for Nak Muay Knockout."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class NakMuayConfig(BaseModel):
    """Options of a Nak Muay Knockout table.

    ``end_turn``: ``draw_after`` (default) - a major action ends your action phase
    but you still draw, except after Dodge; ``strict_end_turn`` - every major action
    ends the turn with no draw (the literal reading of "ends your turn").
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    players: int = Field(2, ge=2, le=5, description="number of players (2-5)")
    end_turn: Literal["draw_after", "strict_end_turn"] = Field(
        "draw_after", description="what 'playing X ends your turn' means"
    )
    countdown_seconds: float = Field(
        10.0, gt=0, le=600, description="length of the Countdown response window, seconds"
    )
    max_turns: int = Field(
        500, ge=1, le=100_000, description="turns after which the game is a draw"
    )
