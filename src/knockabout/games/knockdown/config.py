"""Table options for Knockdown."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from knockabout.core.content_versions import content_field
from knockabout.core.options import COMMA_LIST, one_per_seat

BoxId = Literal["tainted_grail", "nemesis", "siege_storm"]


class KnockdownConfig(BaseModel):
    """Options of a Knockdown table.

    ``boxes``: the boxes whose content may appear. With one box, its arena, deck and
    skill set are used and fighters come from it; with several (the merging rules),
    fighters, the skill set and the arena are drawn at random among them unless named.
    Both take a list, or text with commas (``boxes=nemesis,siege_storm``).
    ``fighters``: per seat a fighter id (``mistbearer``, ``box:fighter`` also accepted)
    or ``random``; two seats never get the same fighter.
    ``knockdown_test``: ``dice`` (3 dice against the wound total) or ``tower`` (a timed
    dexterity challenge judged by whoever runs the table).
    ``tower_skill`` / ``tower_decay``: how likely a bot passes the tower challenge:
    ``tower_skill - tower_decay * max(0, cubes - 3)``, clamped to 0..1.
    ``tower_timer``: ``at_test`` (default) - the tower's seconds start when the test comes
    up; ``when_opened`` - they start when the tested player opens the tower (the rule of
    turn-based tables, where the player may be away when the test comes up).
    ``rounds_to_win``: how many round wins take the match: 2 as printed; 1 for a short
    match of one round, 3 for a long one.
    ``content``: the id of an uploaded content version (the studio) whose boxes replace the
    shipped boxes of the same id; empty: the shipped boxes.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    boxes: Annotated[tuple[BoxId, ...], COMMA_LIST] = Field(
        ("tainted_grail",), min_length=1, title="Boxes", description="whose fighters, arenas and cards may appear"
    )
    fighters: Annotated[tuple[str, str], one_per_seat(2, "fighter", "fighters=puppy,katie")] = Field(
        ("random", "random"), title="Fighters", description="each player's fighter, or a random one"
    )
    arena: str = Field("random", title="Arena", description="the box whose arena and Attack deck are used")
    skills: str = Field("random", title="Skills", description="the box whose Skill cards are drafted")
    knockdown_test: Literal["dice", "tower"] = Field("dice", title="Knockdown Test",
                                                     description="how a fighter shows they can stand")
    tower_skill: float = Field(0.95, ge=0.0, le=1.0, title="Bot tower skill",
                               description="how likely a bot builds a small tower in time (0 to 1)",
                               json_schema_extra={"advanced": True})
    tower_decay: float = Field(0.06, ge=0.0, le=1.0, title="Bot tower decay",
                               description="how much less likely for each cube above three (0 to 1)",
                               json_schema_extra={"advanced": True})
    tower_timer: Literal["at_test", "when_opened"] = Field(
        "at_test", title="Tower timer", description="when the tower's seconds start: as the test comes up, or "
        "when the tested player opens it (turn-based tables)", json_schema_extra={"advanced": True})
    rounds_to_win: int = Field(2, ge=1, le=3, title="Rounds to win",
                               description="how many round wins take the match: 2 as printed, 1 for a quick match, "
                               "3 for a long one")
    hand_limit: int = Field(6, ge=3, le=10, title="Hand limit",
                            description="how many cards a hand may hold before its owner must discard: 6 as "
                            "printed (skills still add to it)")
    max_turns: int = Field(300, ge=1, le=10_000, title="Turn limit", description="after this many turns the match "
                           "is a draw", json_schema_extra={"advanced": True})
    content: str = content_field("an uploaded content version (its id): its boxes take the place of the shipped "
                                 "boxes of the same id")

    @field_validator("boxes")
    @classmethod
    def _distinct(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(v)) != len(v):
            raise ValueError("each box may be listed once")
        return v


def turn_based_refusal(config: KnockdownConfig) -> str | None:
    """Why ``config`` cannot be played at a turn-based table, or None."""
    if config.knockdown_test == "tower" and config.tower_timer == "at_test":
        return ("the tower test's seconds would start while the tested player may be away for a day; use "
                "tower_timer=when_opened (the seconds start when they open it) or knockdown_test=dice")
    return None
