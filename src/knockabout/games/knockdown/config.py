"""Table options for Knockdown."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

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
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    boxes: Annotated[tuple[BoxId, ...], COMMA_LIST] = Field(
        ("tainted_grail",), min_length=1, description="boxes in play"
    )
    fighters: Annotated[tuple[str, str], one_per_seat(2, "fighter", "fighters=puppy,katie")] = Field(
        ("random", "random"), description="fighter per seat, or random"
    )
    arena: str = Field("random", description="box whose arena (and Attack deck) is used, or random")
    skills: str = Field("random", description="box whose Skill cards are used, or random")
    knockdown_test: Literal["dice", "tower"] = Field("dice", description="how Knockdown Tests are decided")
    tower_skill: float = Field(0.95, ge=0.0, le=1.0, description="bot pass chance for a small tower")
    tower_decay: float = Field(0.06, ge=0.0, le=1.0, description="bot pass chance lost per cube above 3")
    tower_timer: Literal["at_test", "when_opened"] = Field(
        "at_test", description="when the tower's seconds start: as the test comes up, or when the tested "
        "player opens it (turn-based tables)")
    max_turns: int = Field(300, ge=1, le=10_000, description="turns after which the match is a draw")

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
