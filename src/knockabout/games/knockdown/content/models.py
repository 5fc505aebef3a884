"""Knockdown content as validated data: Attack cards, fighter sheets and their Special
Attacks, Skill cards, the arena and the box, and the model of each content file.
Effects are programs of ops (:mod:`.ops`)."""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from knockabout.core.plugins import TUNABLE
from knockabout.games.knockdown.content.ops import Op, OpName
from knockabout.games.knockdown.content.vocabulary import (
    MAX_SPACES,
    MAX_SPECIALS,
    TAGS,
    AttackType,
    ContentModel,
    Range,
    Symbol,
    check_symbol,
    parse_range,
    token_counts,
)


class AttackCard(ContentModel):
    """One Attack card design; ``copies`` of it go into the deck."""
    model_config = ConfigDict(title="Attack card")

    name: str = Field(min_length=1, max_length=40)
    symbols: tuple[str, ...] = Field(min_length=1, max_length=2)
    heavy: int = Field(0, ge=0, le=4, json_schema_extra=TUNABLE)
    light: int = Field(0, ge=0, le=4, json_schema_extra=TUNABLE)
    range: Range = Field(default_factory=lambda: Range(kind="any"))
    type: AttackType = "strike"
    ko: bool = False
    effect: tuple[Op, ...] = ()
    on_take: tuple[Op, ...] = ()
    copies: int = Field(3, ge=1, le=6)

    _r = field_validator("range", mode="before")(classmethod(lambda cls, v: parse_range(v)))
    _s = field_validator("symbols")(classmethod(lambda cls, v: tuple(check_symbol(s) for s in v)))


class ExtraCard(ContentModel):
    """A card that is not part of the Attack deck (e.g. Contamination)."""
    model_config = ConfigDict(title="Extra card")

    name: str = Field(min_length=1, max_length=40)
    token: Literal["contamination"]
    count: int = Field(3, ge=1, le=6)


class Special(ContentModel):
    """A Special Attack on a fighter sheet."""
    model_config = ConfigDict(title="Special Attack")

    name: str = Field(min_length=1, max_length=40)
    type: AttackType = "strike"
    cost: tuple[str, ...] = Field(min_length=1, max_length=4)
    token_cost: Annotated[dict[str, int], token_counts("token cost", 1, 6)] = Field(
        default_factory=dict, json_schema_extra={"tunable": [1, 6]})
    range: Range = Field(default_factory=lambda: Range(kind="any"))
    heavy: int = Field(0, ge=0, le=4, json_schema_extra=TUNABLE)
    light: int = Field(0, ge=0, le=4, json_schema_extra=TUNABLE)
    ko: bool = False
    effect: tuple[Op, ...] = ()
    trigger: Literal["none", "opponent_moves", "attacked"] = "none"

    _r = field_validator("range", mode="before")(classmethod(lambda cls, v: parse_range(v)))

    @field_validator("cost")
    @classmethod
    def _cost(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for slot in v:
            if slot == "wild":
                continue
            for part in slot.split("|"):
                check_symbol(part)
        return v

    @model_validator(mode="after")
    def _reaction(self) -> Special:
        if self.type == "reaction" and self.trigger == "none":
            raise ValueError("a reaction needs a trigger: \"opponent_moves\" or \"attacked\"")
        if self.type != "reaction" and self.trigger != "none":
            raise ValueError("only reactions have a trigger")
        for op in self.effect:
            if op.op == OpName.CANCEL_MOVE and self.trigger != "opponent_moves":
                raise ValueError("cancel_move only works in a reaction with trigger \"opponent_moves\"")
            if op.op == OpName.IGNORE_ATTACK and self.trigger != "attacked":
                raise ValueError("ignore_attack only works in a reaction with trigger \"attacked\"")
        return self


class Fighter(ContentModel):
    model_config = ConfigDict(title="Fighter")
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=40)
    fighter_class: str = Field(alias="class", min_length=1, max_length=40)
    ko_effect: tuple[Op, ...] = ()
    start_tokens: Annotated[dict[str, int], token_counts("start tokens", 0, 6)] = Field(
        default_factory=dict, json_schema_extra={"tunable": [0, 6]})
    special: tuple[Special, ...] = Field(min_length=1, max_length=MAX_SPECIALS)


# --------------------------------------------------------------------------- skills
class ExtraSymbol(ContentModel):
    model_config = ConfigDict(title="Extra symbol")
    kind: Literal["extra_symbol"]
    cards: tuple[str, ...] = Field(min_length=1)
    symbol: Symbol


class PoolBonus(ContentModel):
    """Your attacks (optionally only of a type / from an adjacent space) add wounds."""
    model_config = ConfigDict(title="Wound Pool bonus")

    kind: Literal["pool_bonus"]
    heavy: int = Field(0, ge=0, le=2)
    light: int = Field(0, ge=0, le=2)
    attack_type: AttackType | None = None
    source: Literal["card", "special"] | None = None
    adjacent: bool | None = None


class PoolReduction(ContentModel):
    """Attacks against you (optionally only of a type) lose wounds from their pool."""
    model_config = ConfigDict(title="Wound Pool reduction")

    kind: Literal["pool_reduction"]
    heavy: int = Field(0, ge=0, le=2)
    light: int = Field(0, ge=0, le=2)
    attack_type: AttackType | None = None


class BlockBonus(ContentModel):
    model_config = ConfigDict(title="Block bonus")
    kind: Literal["block_bonus"]
    light: int = Field(1, ge=1, le=2)


class HandLimit(ContentModel):
    model_config = ConfigDict(title="Hand limit")
    kind: Literal["hand_limit"]
    delta: int = Field(1, ge=-2, le=2)


class RangeBonus(ContentModel):
    model_config = ConfigDict(title="Range bonus")
    kind: Literal["range_bonus"]
    max: int = Field(1, ge=1, le=2)


class _StartOps(ContentModel):
    """A program of ops the skill runs at the start of something."""

    ops: tuple[Op, ...] = Field(min_length=1)


class RoundStart(_StartOps):
    model_config = ConfigDict(title="At each round's start")
    kind: Literal["round_start"]


class TurnStart(_StartOps):
    model_config = ConfigDict(title="At each turn's start")
    kind: Literal["turn_start"]


SkillEffect = Annotated[
    ExtraSymbol | PoolBonus | PoolReduction | BlockBonus | HandLimit | RangeBonus | RoundStart | TurnStart,
    Field(discriminator="kind"),
]

class Skill(ContentModel):
    model_config = ConfigDict(title="Skill")
    name: str = Field(min_length=1, max_length=40)
    initiative: int = Field(ge=1, le=20)
    effects: tuple[SkillEffect, ...] = Field(min_length=1)


# --------------------------------------------------------------------------- arena and box
class ArenaModel(ContentModel):
    model_config = ConfigDict(title="Arena")
    name: str = Field(min_length=1, max_length=60)
    rule: Literal["none", "fading_menhir", "technical_corridors", "dangerous_edges"] = "none"
    layout: tuple[str, ...] = Field(min_length=1, max_length=8)
    legend: dict[str, tuple[str, ...]]

    @field_validator("legend")
    @classmethod
    def _legend(cls, v: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        for ch, tags in v.items():
            if len(ch) != 1 or ch == "#":
                raise ValueError(f"legend key {ch!r} must be one character other than '#' (which marks no space)")
            for t in tags:
                if t not in TAGS:
                    raise ValueError(f"legend {ch!r}: unknown tag {t!r} (expected one of: {', '.join(TAGS)})")
        return v

    @model_validator(mode="after")
    def _shape(self) -> ArenaModel:
        width = len(self.layout[0])
        count = 0
        starts = 0
        for y, row in enumerate(self.layout):
            if len(row) != width:
                raise ValueError(f"layout row {y} has {len(row)} columns, row 0 has {width}")
            for ch in row:
                if ch == "#":
                    continue
                if ch not in self.legend:
                    raise ValueError(f"layout row {y}: character {ch!r} is not in the legend")
                count += 1
                starts += "start" in self.legend[ch]
        if not 2 <= count <= MAX_SPACES:
            raise ValueError(f"an arena has 2-{MAX_SPACES} spaces, this one has {count}")
        if starts != 2:
            raise ValueError(f"an arena has exactly 2 start spaces, this one has {starts}")
        if self.rule == "technical_corridors":
            for ch, tags in self.legend.items():
                if "corridor" in tags and "center" not in tags and "edge" not in tags:
                    raise ValueError(f"corridor space {ch!r} needs a \"center\" (light wound) or \"edge\" tag")
        return self


class BoxModel(ContentModel):
    model_config = ConfigDict(title="About the box")
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=60)
    label: str = Field(min_length=1, max_length=120)
    candle_cards: int = Field(0, ge=0, le=4)
    tokens: Annotated[dict[str, int], token_counts("supply", 1, 12)] = Field(default_factory=dict)
    extra_card: tuple[ExtraCard, ...] = ()


class BoxFile(ContentModel):
    game: Literal["knockdown"]
    box: BoxModel


class ArenaFile(ContentModel):
    game: Literal["knockdown"]
    arena: ArenaModel


class FightersFile(ContentModel):
    game: Literal["knockdown"]
    fighter: tuple[Fighter, ...] = Field(min_length=1, max_length=6)


class AttacksFile(ContentModel):
    game: Literal["knockdown"]
    card: tuple[AttackCard, ...] = Field(min_length=1, max_length=24)


class SkillsFile(ContentModel):
    game: Literal["knockdown"]
    skill: tuple[Skill, ...] = Field(min_length=6, max_length=16)


FILE_MODELS: Final[dict[str, type[ContentModel]]] = {
    "box": BoxFile,
    "arena": ArenaFile,
    "fighters": FightersFile,
    "attacks": AttacksFile,
    "skills": SkillsFile,
}


