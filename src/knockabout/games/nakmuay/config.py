"""Table options and rule variants for Nak Muay Knockout."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

COUNTDOWN_SECONDS = 10.0
MOST_DEALT = 30
"""The most cards a deal may hand out in all (of the 37 dealt from), so the draw pile starts
with at least seven besides its KOs and Countdowns."""


def deal_problem(players: int, hand_size: int, starting_block: bool) -> str | None:
    """Why ``players`` hands of ``hand_size`` (and a Block each with ``starting_block``)
    cannot be dealt, or None."""
    dealt = players * (hand_size + starting_block)
    if dealt > MOST_DEALT:
        return (f"hand_size {hand_size} for {players} players deals {dealt} cards"
                f"{' with the starting Blocks' if starting_block else ''}; at most {MOST_DEALT} leave a draw pile"
                " to play from: deal fewer cards or seat fewer players")
    return None


class NakMuayConfig(BaseModel):
    """Options of a Nak Muay Knockout table.

    ``end_turn``: ``draw_after`` (default) - a major action ends your action phase
    but you still draw, except after Dodge; ``strict_end_turn`` - every major action
    ends the turn with no draw (the literal reading of "ends your turn").
    ``countdown``: ``seconds`` (default) - the Countdown's target answers within
    ``countdown_seconds``; ``move_time`` - the target answers like any other move, within
    the table's time per move (the rule of turn-based tables, where a window of seconds
    cannot wait for a person who comes back tomorrow).
    ``starting_block``: a house rule, off by default (the printed game deals no sure
    Block): each fighter gets a Block on top of the five cards dealt.
    ``hand_size``: a house rule, 5 as printed: how many cards each fighter is dealt
    (fewer for a sharper, shorter game; more for a slower one with more choices).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    players: int = Field(2, ge=2, le=5, title="Players", description="two to five fighters")
    end_turn: Literal["draw_after", "strict_end_turn"] = Field(
        "draw_after", title="End of turn", description="whether you still draw after playing a card"
    )
    countdown_seconds: float = Field(
        COUNTDOWN_SECONDS, gt=0, le=600, title="Countdown seconds", description="how long a Countdown leaves to "
        "answer"
    )
    countdown: Literal["seconds", "move_time"] = Field(
        "seconds", title="Countdown time", description="how long a Countdown's target has to answer: the seconds "
        "above, or the table's time per move (turn-based tables)", json_schema_extra={"advanced": True}
    )
    starting_block: bool = Field(
        False, title="House rule: everyone starts with a Block",
        description="not in the printed game: each fighter gets a Block on top of the five cards dealt, so nobody "
        "is knocked out by the very first KO",
    )
    hand_size: int = Field(
        5, ge=3, le=7, title="House rule: cards dealt",
        description="how many cards each fighter is dealt: 5 as printed, fewer for a quicker game, more for "
        "more choices",
    )
    extra_kos: int = Field(
        0, ge=0, le=3, title="House rule: extra KO cards",
        description="KO cards shuffled into the draw pile beyond those the player count puts in: 0 as printed, "
        "more for a deadlier game",
    )
    max_turns: int = Field(
        500, ge=1, le=100_000, title="Turn limit",
        description="after this many turns the fighters still in share a draw",
        json_schema_extra={"advanced": True},
    )

    def countdown_window(self) -> float | None:
        """The Countdown's window in seconds, or None: its target has the table's time per move."""
        return self.countdown_seconds if self.countdown == "seconds" else None

    @model_validator(mode="after")
    def _dealable(self) -> NakMuayConfig:
        problem = deal_problem(self.players, self.hand_size, self.starting_block)
        if problem:
            raise ValueError(problem)
        return self

    @model_validator(mode="after")
    def _one_countdown_clock(self) -> NakMuayConfig:
        if self.countdown == "move_time" and self.countdown_seconds != COUNTDOWN_SECONDS:
            raise ValueError("countdown_seconds sets the Countdown's window, and countdown=move_time replaces "
                             "that window by the table's time per move: set one or the other")
        return self


def turn_based_refusal(config: NakMuayConfig) -> str | None:
    """Why ``config`` cannot be played at a turn-based table, or None."""
    if config.countdown == "seconds":
        return (f"the Countdown gives its target {config.countdown_seconds:g} seconds to answer, which cannot "
                "wait for a player who comes back tomorrow; use countdown=move_time (the target answers "
                "within the table's time per move)")
    return None
