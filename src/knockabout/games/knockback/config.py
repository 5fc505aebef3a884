"""Table options and rule variants for KNOCKBACK 'til they croak."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from knockabout.core.content_versions import content_field
from knockabout.core.options import COMMA_LIST, one_per_seat


class KnockbackConfig(BaseModel):
    """Options of a KNOCKBACK table.

    ``packs``: each player's pack id, or ``"random"`` (a random pack different from the
    other player's when possible). ``lineup``: ``packs`` (default, each plays their pack),
    ``draft2`` (the two chosen packs are shuffled and drafted) or ``draft4`` (four packs,
    drafting stops with three cards still in hand; ``draft_packs`` picks them).
    The list options also take text with commas (``packs=iron-knuckles,tide-breakers``).
    ``pack_files``: extra pack files or directories of ``*.toml`` packs to play with.
    ``content``: the id of an uploaded content version (the studio) whose packs join the
    shipped ones; empty: none.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    packs: Annotated[tuple[str, str], one_per_seat(2, "pack", "packs=iron-knuckles,random")] = Field(
        ("random", "random"), title="Packs", description="the pack each player brings, or a random one"
    )
    lineup: Literal["packs", "draft2", "draft4"] = Field(
        "packs", title="Line-up", description="bring your pack, or draft from shuffled packs"
    )
    draft_packs: Annotated[tuple[str, ...], COMMA_LIST] = Field(
        (), title="Draft packs", description="the four packs of a four-pack draft (none ticked: four random packs)"
    )
    knockback: Literal["push", "whole_line"] = Field(
        "push", title="Knockback", description="what a punch shoves"
    )
    knockout_on_tie: bool = Field(
        False, title="House rule: a tie knocks out",
        description="not in the printed game: a punch whose attack equals the heart it meets knocks the card "
        "out too, so cards fall sooner and rounds are shorter",
    )
    alternate_starts: bool = Field(
        False, title="House rule: take turns starting rounds",
        description="not in the printed game: the seats take turns starting the rounds, instead of the round's "
        "loser starting the next one",
    )
    scoring: Literal["tug", "speed", "best_of"] = Field(
        "tug", title="Scoring", description="how rounds make a match"
    )
    best_of: int = Field(3, ge=1, le=99, title="Best of", description="rounds of a best-of match")
    max_turns: int = Field(
        200, ge=1, le=10_000, title="Turn limit", description="turns in a round before the cards left decide it",
        json_schema_extra={"advanced": True},
    )
    max_rounds: int = Field(
        30, ge=1, le=1000, title="Round limit", description="after this many rounds the match is decided as it "
        "stands", json_schema_extra={"advanced": True},
    )
    pack_files: Annotated[tuple[str, ...], COMMA_LIST] = Field(
        (),
        title="Extra pack files",
        description="extra pack files or directories to load packs from",
        json_schema_extra={"local_only": True},  # never settable from the web lobby
    )
    content: str = content_field("an uploaded content version (its id): its packs join the shipped ones")

    @field_validator("draft_packs")
    @classmethod
    def _four_or_none(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if v and len(v) != 4:
            raise ValueError(f"give exactly 4 pack ids (or 'random') for a 4-pack draft, got {len(v)}")
        return v
