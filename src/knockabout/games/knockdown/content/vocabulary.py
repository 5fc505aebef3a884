"""The words Knockdown content files use (symbols, tokens, space tags, arena rules, attack
types, ranges) and the checks shared by every content model."""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_serializer, model_validator

from knockabout.core.plugins import TUNABLE

SYMBOLS: Final = ("punch", "kick", "block", "dash")
SYMBOL_INDEX: Final = {s: i for i, s in enumerate(SYMBOLS)}
TOKENS: Final = ("curse", "stun", "poison", "mist", "potion", "ammo", "flame", "trap", "contamination")
TAGS: Final = ("start", "edge", "center", "corridor", "dangerous")
ARENA_RULES: Final = ("none", "fading_menhir", "technical_corridors", "dangerous_edges")
MAX_SPACES: Final = 32
MAX_SPECIALS: Final = 5
MAX_REACH: Final = 9
"""The longest span range an attack may have."""




class ContentModel(BaseModel):
    """The base of every content model: an unknown key is an error, a loaded model never
    changes, and an aliased field (``if``, ``from``) may also be given by its name. A
    model's ``title`` (in its ``model_config``) names it in the studio's form."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


Who = Literal["opponent", "self"]
AttackType = Literal["strike", "ability", "reaction"]


def check_symbol(value: str) -> str:
    if value not in SYMBOLS:
        raise ValueError(f"unknown symbol {value!r} (expected one of: {', '.join(SYMBOLS)})")
    return value


def check_token(value: str) -> str:
    if value not in TOKENS:
        raise ValueError(f"unknown token {value!r} (expected one of: {', '.join(TOKENS)})")
    return value


Symbol = Annotated[str, AfterValidator(check_symbol)]
"""A content field that names one symbol."""
Token = Annotated[str, AfterValidator(check_token)]
"""A content field that names one token kind."""


def token_counts(what: str, lo: int, hi: int) -> AfterValidator:
    """The check of a ``{token: count}`` field: every token known, every count ``lo``..``hi``."""

    def check(counts: dict[str, int]) -> dict[str, int]:
        for t, n in counts.items():
            check_token(t)
            if not lo <= n <= hi:
                raise ValueError(f"{what} of {t} must be {lo}-{hi}, got {n}")
        return counts

    return AfterValidator(check)


class Range(ContentModel):
    """Where an attack reaches: any distance, exactly/lo-hi spaces, or a projectile line."""

    kind: Literal["any", "span", "projectile"]
    lo: int = Field(default=0, ge=0, le=MAX_REACH, json_schema_extra=TUNABLE)
    hi: int = Field(default=0, ge=0, le=MAX_REACH, json_schema_extra=TUNABLE)

    @model_validator(mode="after")
    def _consistent(self) -> Range:
        if self.kind == "span" and not 1 <= self.lo <= self.hi:
            raise ValueError(f"a span range needs 1 <= lo <= hi, got lo {self.lo} and hi {self.hi}")
        if self.kind != "span" and (self.lo or self.hi):
            raise ValueError(f"a {self.kind!r} range has no lo or hi")
        return self

    @model_serializer
    def _as_written(self) -> str:
        """The form content files write it in (``"any"``, ``"projectile"``, ``"2"``, ``"1-3"``)."""
        if self.kind != "span":
            return self.kind
        return str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"

    @classmethod
    def parse(cls, text: str) -> Range:
        t = text.strip().lower()
        if t in ("", "any", "none"):
            return cls(kind="any")
        if t == "projectile":
            return cls(kind="projectile")
        parts = t.split("-")
        try:
            nums = [int(p) for p in parts]
        except ValueError:
            raise ValueError(
                f"bad range {text!r} (expected a number like \"2\", a span like \"1-3\", \"projectile\" or \"any\")"
            ) from None
        if len(nums) == 1 and nums[0] >= 1:
            return cls(kind="span", lo=nums[0], hi=nums[0])
        if len(nums) == 2 and 1 <= nums[0] <= nums[1]:
            return cls(kind="span", lo=nums[0], hi=nums[1])
        raise ValueError(f"bad range {text!r} (numbers must be >= 1 and ascending, e.g. \"1-3\")")

    def text(self) -> str:
        if self.kind == "any":
            return "any range"
        if self.kind == "projectile":
            return "projectile"
        return f"range {self.lo}" if self.lo == self.hi else f"range {self.lo}-{self.hi}"


def parse_range(value: Any) -> Any:
    if isinstance(value, str):
        return Range.parse(value)
    if isinstance(value, int):
        return Range.parse(str(value))
    return value


