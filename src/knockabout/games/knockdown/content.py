"""Knockdown content as data: boxes of fighters, Attack cards, Skill cards and an arena.

Each box is a folder ``content/<box>/`` holding five TOML files, every one with the
top-level key ``game = "knockdown"``:

* ``box.toml``      - the box: name, label, token supply, extra cards (Contamination)
* ``arena.toml``    - the arena: a layout map, a legend of space tags, its box rule
* ``fighters.toml`` - fighter sheets: class, K.O. effect, Special Attacks
* ``attacks.toml``  - the Attack card designs and how many copies of each
* ``skills.toml``   - the Skill cards (initiative and effects)

Effects are lists of *primitives* (see :data:`Op`), run by one interpreter in
:mod:`.state`; the text a player reads is generated from the same data
(:mod:`.text`). Loading validates everything with pydantic, and every problem is
reported as ``file: entry: field: what is expected``.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from knockabout.core.errors import ContentError

CONTENT_DIR: Final = Path(__file__).parent / "content"
BOXES: Final = ("tainted_grail", "nemesis", "siege_storm")
FILES: Final = ("box", "arena", "fighters", "attacks", "skills")

SYMBOLS: Final = ("punch", "kick", "block", "dash")
SYMBOL_INDEX: Final = {s: i for i, s in enumerate(SYMBOLS)}
TOKENS: Final = ("curse", "stun", "poison", "mist", "potion", "ammo", "flame", "trap", "contamination")
TAGS: Final = ("start", "edge", "center", "corridor", "dangerous")
ARENA_RULES: Final = ("none", "fading_menhir", "technical_corridors", "dangerous_edges")
MAX_SPACES: Final = 32
MAX_SPECIALS: Final = 5

_STRICT = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

Who = Literal["opponent", "self"]
AttackType = Literal["strike", "ability", "reaction"]


def _check_symbol(value: str) -> str:
    if value not in SYMBOLS:
        raise ValueError(f"unknown symbol {value!r} (expected one of: {', '.join(SYMBOLS)})")
    return value


def _check_token(value: str) -> str:
    if value not in TOKENS:
        raise ValueError(f"unknown token {value!r} (expected one of: {', '.join(TOKENS)})")
    return value


class Range(BaseModel):
    """Where an attack reaches: any distance, exactly/lo-hi spaces, or a projectile line."""

    model_config = _STRICT
    kind: Literal["any", "span", "projectile"]
    lo: int = 0
    hi: int = 0

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


def _range(value: Any) -> Any:
    if isinstance(value, str):
        return Range.parse(value)
    if isinstance(value, int):
        return Range.parse(str(value))
    return value


# --------------------------------------------------------------------------- effects
class Cond(BaseModel):
    """An op runs only if a fighter has (or lacks) a token."""

    model_config = _STRICT
    on: Who = "opponent"
    has: str
    present: bool = True

    _tok = field_validator("has")(classmethod(lambda cls, v: _check_token(v)))


class _Op(BaseModel):
    model_config = _STRICT
    when: Cond | None = Field(None, alias="if")


class WoundOp(_Op):
    """Inflict wounds (not blockable as wounds: they sit in the effect frame)."""

    op: Literal["wound"]
    target: Who = "opponent"
    heavy: int = Field(0, ge=0, le=5)
    light: int = Field(0, ge=0, le=5)


class WoundPerSymbolOp(_Op):
    """1 wound per ``per`` matching symbols in the actor's hand."""

    op: Literal["wound_per_symbol"]
    symbol: str = "any"
    per: int = Field(1, ge=1, le=3)
    kind: Literal["heavy", "light"] = "light"

    @field_validator("symbol")
    @classmethod
    def _sym(cls, v: str) -> str:
        return v if v == "any" else _check_symbol(v)


class BackwardOp(_Op):
    """Push the opponent straight away from the actor."""

    op: Literal["backward"]
    steps: int = Field(1, ge=1, le=4)


class ForwardOp(_Op):
    """Move the actor straight towards the opponent."""

    op: Literal["forward"]
    steps: int = Field(1, ge=1, le=4)


class StepOp(_Op):
    """The actor moves a fighter one space at a time, choosing each direction."""

    op: Literal["step"]
    who: Who = "self"
    steps: int = Field(1, ge=1, le=4)
    optional: bool = False


class BlinkOp(_Op):
    """The actor places a fighter on a free space at distance min..max from ``anchor``."""

    op: Literal["blink"]
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
    op: Literal["place_token"]
    token: str
    on: Who = "opponent"
    count: int = Field(1, ge=1, le=6)

    _tok = field_validator("token")(classmethod(lambda cls, v: _check_token(v)))


class RemoveTokenOp(_Op):
    op: Literal["remove_token"]
    token: str
    source: Who = Field("opponent", alias="from")
    count: int = Field(1, ge=1, le=6)

    _tok = field_validator("token")(classmethod(lambda cls, v: _check_token(v)))


class DiscardOp(_Op):
    """A fighter discards cards from hand; ``chooser`` picks which."""

    op: Literal["discard"]
    who: Who = "opponent"
    count: int = Field(1, ge=1, le=3)
    chooser: Literal["owner", "actor"] = "owner"


class RevealDiscardOp(_Op):
    """The opponent reveals ``reveal`` cards of their choice; the actor discards one."""

    op: Literal["reveal_discard"]
    reveal: int = Field(2, ge=1, le=3)


class TakeFromRowOp(_Op):
    """The actor takes a card of their choice from the Attack Row (no Attack Sequence)."""

    op: Literal["take_from_row"]
    count: int = Field(1, ge=1, le=2)


class HealOp(_Op):
    """The actor discards wounds from their own sheet."""

    op: Literal["heal"]
    heavy: int = Field(0, ge=0, le=3)
    light: int = Field(0, ge=0, le=3)


class SpendForStepsOp(_Op):
    """Discard any number of your tokens; move 1 space for each."""

    op: Literal["spend_for_steps"]
    token: str

    _tok = field_validator("token")(classmethod(lambda cls, v: _check_token(v)))


class DiscardForTokensOp(_Op):
    """Discard any number of cards with ``symbol``; gain 1 ``token`` for each."""

    op: Literal["discard_for_tokens"]
    symbol: str
    token: str

    _sym = field_validator("symbol")(classmethod(lambda cls, v: _check_symbol(v)))
    _tok = field_validator("token")(classmethod(lambda cls, v: _check_token(v)))


class TransferWoundOp(_Op):
    """Move wounds from the actor's sheet to the opponent's (heavy ones first)."""

    op: Literal["transfer_wound"]
    count: int = Field(1, ge=1, le=3)


class PlaceTrapOp(_Op):
    """Put a Trap token on the actor's space."""

    op: Literal["place_trap"]


class ContaminateOp(_Op):
    """Put a Contamination card from the supply into the opponent's hand."""

    op: Literal["contaminate"]


class CancelMoveOp(_Op):
    """(Reaction) the triggering movement does not happen."""

    op: Literal["cancel_move"]


class IgnoreAttackOp(_Op):
    """(Reaction) the triggering Attack Sequence is ignored entirely."""

    op: Literal["ignore_attack"]


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
OP_NAMES: Final = (
    "wound", "wound_per_symbol", "backward", "forward", "step", "blink", "place_token", "remove_token",
    "discard", "reveal_discard", "take_from_row", "heal", "spend_for_steps", "discard_for_tokens",
    "transfer_wound", "place_trap", "contaminate", "cancel_move", "ignore_attack",
)


# --------------------------------------------------------------------------- cards
class AttackCard(BaseModel):
    """One Attack card design; ``copies`` of it go into the deck."""

    model_config = _STRICT
    name: str = Field(min_length=1, max_length=40)
    symbols: tuple[str, ...] = Field(min_length=1, max_length=2)
    heavy: int = Field(0, ge=0, le=4)
    light: int = Field(0, ge=0, le=4)
    range: Range = Field(default_factory=lambda: Range(kind="any"))
    type: AttackType = "strike"
    ko: bool = False
    effect: tuple[Op, ...] = ()
    on_take: tuple[Op, ...] = ()
    copies: int = Field(3, ge=1, le=6)

    _r = field_validator("range", mode="before")(classmethod(lambda cls, v: _range(v)))
    _s = field_validator("symbols")(classmethod(lambda cls, v: tuple(_check_symbol(s) for s in v)))


class ExtraCard(BaseModel):
    """A card that is not part of the Attack deck (e.g. Contamination)."""

    model_config = _STRICT
    name: str = Field(min_length=1, max_length=40)
    token: Literal["contamination"]
    count: int = Field(3, ge=1, le=6)


class Special(BaseModel):
    """A Special Attack on a fighter sheet."""

    model_config = _STRICT
    name: str = Field(min_length=1, max_length=40)
    type: AttackType = "strike"
    cost: tuple[str, ...] = Field(min_length=1, max_length=4)
    token_cost: dict[str, int] = Field(default_factory=dict)
    range: Range = Field(default_factory=lambda: Range(kind="any"))
    heavy: int = Field(0, ge=0, le=4)
    light: int = Field(0, ge=0, le=4)
    ko: bool = False
    effect: tuple[Op, ...] = ()
    trigger: Literal["none", "opponent_moves", "attacked"] = "none"

    _r = field_validator("range", mode="before")(classmethod(lambda cls, v: _range(v)))

    @field_validator("cost")
    @classmethod
    def _cost(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for slot in v:
            if slot == "wild":
                continue
            for part in slot.split("|"):
                _check_symbol(part)
        return v

    @field_validator("token_cost")
    @classmethod
    def _tc(cls, v: dict[str, int]) -> dict[str, int]:
        for t, n in v.items():
            _check_token(t)
            if not 1 <= n <= 6:
                raise ValueError(f"token cost of {t} must be 1-6, got {n}")
        return v

    @model_validator(mode="after")
    def _reaction(self) -> Special:
        if self.type == "reaction" and self.trigger == "none":
            raise ValueError("a reaction needs a trigger: \"opponent_moves\" or \"attacked\"")
        if self.type != "reaction" and self.trigger != "none":
            raise ValueError("only reactions have a trigger")
        for op in self.effect:
            if op.op == "cancel_move" and self.trigger != "opponent_moves":
                raise ValueError("cancel_move only works in a reaction with trigger \"opponent_moves\"")
            if op.op == "ignore_attack" and self.trigger != "attacked":
                raise ValueError("ignore_attack only works in a reaction with trigger \"attacked\"")
        return self


class Fighter(BaseModel):
    model_config = _STRICT
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=40)
    fighter_class: str = Field(alias="class", min_length=1, max_length=40)
    ko_effect: tuple[Op, ...] = ()
    start_tokens: dict[str, int] = Field(default_factory=dict)
    special: tuple[Special, ...] = Field(min_length=1, max_length=MAX_SPECIALS)

    @field_validator("start_tokens")
    @classmethod
    def _st(cls, v: dict[str, int]) -> dict[str, int]:
        for t, n in v.items():
            _check_token(t)
            if not 0 <= n <= 6:
                raise ValueError(f"start tokens of {t} must be 0-6, got {n}")
        return v


# --------------------------------------------------------------------------- skills
class ExtraSymbol(BaseModel):
    model_config = _STRICT
    kind: Literal["extra_symbol"]
    cards: tuple[str, ...] = Field(min_length=1)
    symbol: str

    _s = field_validator("symbol")(classmethod(lambda cls, v: _check_symbol(v)))


class PoolBonus(BaseModel):
    """Your attacks (optionally only of a type / from an adjacent space) add wounds."""

    model_config = _STRICT
    kind: Literal["pool_bonus"]
    heavy: int = Field(0, ge=0, le=2)
    light: int = Field(0, ge=0, le=2)
    attack_type: AttackType | None = None
    source: Literal["card", "special"] | None = None
    adjacent: bool | None = None


class PoolReduction(BaseModel):
    """Attacks against you (optionally only of a type) lose wounds from their pool."""

    model_config = _STRICT
    kind: Literal["pool_reduction"]
    heavy: int = Field(0, ge=0, le=2)
    light: int = Field(0, ge=0, le=2)
    attack_type: AttackType | None = None


class BlockBonus(BaseModel):
    model_config = _STRICT
    kind: Literal["block_bonus"]
    light: int = Field(1, ge=1, le=2)


class HandLimit(BaseModel):
    model_config = _STRICT
    kind: Literal["hand_limit"]
    delta: int = Field(1, ge=-2, le=2)


class RangeBonus(BaseModel):
    model_config = _STRICT
    kind: Literal["range_bonus"]
    max: int = Field(1, ge=1, le=2)


class RoundStart(BaseModel):
    model_config = _STRICT
    kind: Literal["round_start"]
    ops: tuple[Op, ...] = Field(min_length=1)


class TurnStart(BaseModel):
    model_config = _STRICT
    kind: Literal["turn_start"]
    ops: tuple[Op, ...] = Field(min_length=1)


SkillEffect = Annotated[
    ExtraSymbol | PoolBonus | PoolReduction | BlockBonus | HandLimit | RangeBonus | RoundStart | TurnStart,
    Field(discriminator="kind"),
]

class Skill(BaseModel):
    model_config = _STRICT
    name: str = Field(min_length=1, max_length=40)
    initiative: int = Field(ge=1, le=20)
    effects: tuple[SkillEffect, ...] = Field(min_length=1)


# --------------------------------------------------------------------------- arena and box
class ArenaModel(BaseModel):
    model_config = _STRICT
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


class BoxModel(BaseModel):
    model_config = _STRICT
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str = Field(min_length=1, max_length=60)
    label: str = Field(min_length=1, max_length=120)
    candle_cards: int = Field(0, ge=0, le=4)
    tokens: dict[str, int] = Field(default_factory=dict)
    extra_card: tuple[ExtraCard, ...] = ()

    @field_validator("tokens")
    @classmethod
    def _tokens(cls, v: dict[str, int]) -> dict[str, int]:
        for t, n in v.items():
            _check_token(t)
            if not 1 <= n <= 12:
                raise ValueError(f"supply of {t} must be 1-12, got {n}")
        return v


class BoxFile(BaseModel):
    model_config = _STRICT
    game: Literal["knockdown"]
    box: BoxModel


class ArenaFile(BaseModel):
    model_config = _STRICT
    game: Literal["knockdown"]
    arena: ArenaModel


class FightersFile(BaseModel):
    model_config = _STRICT
    game: Literal["knockdown"]
    fighter: tuple[Fighter, ...] = Field(min_length=1, max_length=6)


class AttacksFile(BaseModel):
    model_config = _STRICT
    game: Literal["knockdown"]
    card: tuple[AttackCard, ...] = Field(min_length=1, max_length=24)


class SkillsFile(BaseModel):
    model_config = _STRICT
    game: Literal["knockdown"]
    skill: tuple[Skill, ...] = Field(min_length=6, max_length=16)


FILE_MODELS: Final[dict[str, type[BaseModel]]] = {
    "box": BoxFile,
    "arena": ArenaFile,
    "fighters": FightersFile,
    "attacks": AttacksFile,
    "skills": SkillsFile,
}


# --------------------------------------------------------------------------- loading
@dataclass(frozen=True)
class Box:
    """One validated box of content."""

    id: str
    meta: BoxModel
    arena: ArenaModel
    fighters: tuple[Fighter, ...]
    cards: tuple[AttackCard, ...]
    skills: tuple[Skill, ...]

    def fighter(self, fid: str) -> Fighter:
        for f in self.fighters:
            if f.id == fid:
                return f
        raise KeyError(fid)


def _entry_name(raw: Any, loc: Sequence[int | str]) -> str:
    """Walk ``loc`` through the raw TOML data, naming list entries by id/name."""
    parts: list[str] = []
    node = raw
    i = 0
    while i < len(loc):
        key = loc[i]
        if isinstance(node, Mapping) and isinstance(key, str):
            nxt = node.get(key)
            if isinstance(nxt, list) and i + 1 < len(loc) and isinstance(loc[i + 1], int):
                idx = int(loc[i + 1])
                item = nxt[idx] if idx < len(nxt) else None
                label = None
                if isinstance(item, Mapping):
                    label = item.get("id") or item.get("name") or item.get("op") or item.get("kind")
                parts.append(f"{key} #{idx + 1}" + (f" {label!r}" if label else ""))
                node = item
                i += 2
                continue
            parts.append(str(key))
            node = nxt
        elif isinstance(node, list) and isinstance(key, int):
            parts.append(f"#{key + 1}")
            node = node[key] if key < len(node) else None
        else:
            parts.append(str(key))
            node = None
        i += 1
    return ".".join(parts)


def _split_loc(raw: Any, loc: Sequence[int | str]) -> tuple[str, str]:
    """(entry, field): the entry is everything up to the last named list item."""
    # drop pydantic's union tags (e.g. 'wound' in effect.0.wound.heavy)
    clean: list[int | str] = []
    for i, part in enumerate(loc):
        if isinstance(part, str) and part in OP_NAMES + _SKILL_KINDS and i > 0 and isinstance(loc[i - 1], int):
            continue
        if isinstance(part, str) and part.startswith("function-"):
            continue
        clean.append(part)
    full = _entry_name(raw, clean)
    if "." not in full:
        return "file", full
    entry, field = full.rsplit(".", 1)
    return entry, field


_SKILL_KINDS: Final = ("extra_symbol", "pool_bonus", "pool_reduction", "block_bonus", "hand_limit",
                       "range_bonus", "round_start", "turn_start")


def _read_toml(path: Path) -> tuple[dict[str, Any] | None, list[str]]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8")), []
    except OSError as exc:
        return None, [f"{path}: cannot read the file ({exc.strerror})"]
    except UnicodeDecodeError:
        return None, [f"{path}: not a UTF-8 text file"]
    except tomllib.TOMLDecodeError as exc:
        return None, [f"{path}: not valid TOML ({exc})"]


def parse_file(path: Path) -> tuple[BaseModel | None, list[str]]:
    """Validate one content file against the model its name implies."""
    kind = path.stem
    if kind not in FILE_MODELS:
        return None, [
            f"{path}: file: name: a knockdown content file is named one of "
            f"{', '.join(k + '.toml' for k in FILES)}"
        ]
    raw, problems = _read_toml(path)
    if raw is None:
        return None, problems
    if raw.get("game") != "knockdown":
        return None, [f"{path}: file: game: expected top-level game = \"knockdown\", got {raw.get('game')!r}"]
    try:
        return FILE_MODELS[kind].model_validate(raw), []
    except ValidationError as exc:
        out = []
        for err in exc.errors():
            entry, field = _split_loc(raw, err["loc"])
            msg = err["msg"].removeprefix("Value error, ")
            out.append(f"{path}: {entry}: {field}: {msg}")
        return None, out


def _ops_of_box(fighters: Iterable[Fighter], cards: Iterable[AttackCard], skills: Iterable[Skill]) -> list[Any]:
    ops: list[Any] = []
    for f in fighters:
        ops += f.ko_effect
        for sp in f.special:
            ops += sp.effect
    for c in cards:
        ops += c.effect
        ops += c.on_take
    for s in skills:
        for e in s.effects:
            if isinstance(e, RoundStart | TurnStart):
                ops += e.ops
    return ops


def cross_check(folder: Path, models: Mapping[str, BaseModel]) -> list[str]:
    """Checks that span files of one box (names, counts, references)."""
    out: list[str] = []
    cards = models.get("attacks")
    skills = models.get("skills")
    fighters = models.get("fighters")
    box = models.get("box")
    if isinstance(cards, AttacksFile):
        names = [c.name for c in cards.card]
        for i, n in enumerate(names):
            if names.index(n) != i:
                out.append(f"{folder / 'attacks.toml'}: card #{i + 1} {n!r}: name: duplicate card name")
        total = sum(c.copies for c in cards.card)
        if total != 36:
            out.append(f"{folder / 'attacks.toml'}: card: copies: the deck must hold 36 cards, it holds {total}")
        if isinstance(skills, SkillsFile):
            for i, s in enumerate(skills.skill):
                for e in s.effects:
                    if isinstance(e, ExtraSymbol):
                        for cn in e.cards:
                            if cn not in names:
                                out.append(
                                    f"{folder / 'skills.toml'}: skill #{i + 1} {s.name!r}: cards: "
                                    f"no Attack card named {cn!r} in attacks.toml"
                                )
    if isinstance(skills, SkillsFile):
        inis = [s.initiative for s in skills.skill]
        for i, s in enumerate(skills.skill):
            if inis.index(s.initiative) != i:
                out.append(
                    f"{folder / 'skills.toml'}: skill #{i + 1} {s.name!r}: initiative: "
                    f"{s.initiative} is already used (initiative values must differ)"
                )
        if len(skills.skill) != 12:
            out.append(f"{folder / 'skills.toml'}: skill: count: a box has 12 Skill cards, this one has "
                       f"{len(skills.skill)}")
    if isinstance(fighters, FightersFile):
        ids = [f.id for f in fighters.fighter]
        for i, fid in enumerate(ids):
            if ids.index(fid) != i:
                out.append(f"{folder / 'fighters.toml'}: fighter #{i + 1} {fid!r}: id: duplicate fighter id")
    if isinstance(box, BoxFile) and isinstance(fighters, FightersFile):
        supply = box.box.tokens
        used: set[str] = set()
        for op in _ops_of_box(fighters.fighter, cards.card if isinstance(cards, AttacksFile) else (),
                              skills.skill if isinstance(skills, SkillsFile) else ()):
            tok = getattr(op, "token", None)
            if isinstance(tok, str):
                used.add(tok)
            if op.op == "place_trap":
                used.add("trap")
            if op.op == "contaminate":
                used.add("contamination")
        for f in fighters.fighter:
            used.update(f.start_tokens)
            for sp in f.special:
                used.update(sp.token_cost)
        for tok in sorted(used):
            if tok == "contamination":
                if not any(e.token == "contamination" for e in box.box.extra_card):
                    out.append(f"{folder / 'box.toml'}: box: extra_card: the content uses Contamination cards "
                               "but the box has none")
            elif tok not in supply:
                out.append(f"{folder / 'box.toml'}: box: tokens: the content uses {tok} tokens but the box "
                           "supplies none")
    return out


def validate_path(path: Path) -> list[str]:
    """Problems in one content file (or a whole box folder); empty when valid."""
    if path.is_dir():
        return load_box_folder(path)[1]
    model, problems = parse_file(path)
    if problems or model is None:
        return problems
    siblings: dict[str, BaseModel] = {path.stem: model}
    for kind in FILES:
        other = path.parent / f"{kind}.toml"
        if kind != path.stem and other.is_file():
            m, errs = parse_file(other)
            if m is not None and not errs:
                siblings[kind] = m
    return [p for p in cross_check(path.parent, siblings) if p.startswith(str(path))]


def load_box_folder(folder: Path) -> tuple[Box | None, list[str]]:
    models: dict[str, BaseModel] = {}
    problems: list[str] = []
    for kind in FILES:
        p = folder / f"{kind}.toml"
        if not p.is_file():
            problems.append(f"{p}: file: missing: a box folder needs {kind}.toml")
            continue
        m, errs = parse_file(p)
        problems += errs
        if m is not None:
            models[kind] = m
    problems += cross_check(folder, models)
    if problems:
        return None, problems
    bf = models["box"]
    af = models["arena"]
    ff = models["fighters"]
    cf = models["attacks"]
    sf = models["skills"]
    assert isinstance(bf, BoxFile) and isinstance(af, ArenaFile) and isinstance(ff, FightersFile)
    assert isinstance(cf, AttacksFile) and isinstance(sf, SkillsFile)
    return Box(bf.box.id, bf.box, af.arena, ff.fighter, cf.card, sf.skill), []


@cache
def builtin_boxes() -> dict[str, Box]:
    """The boxes shipped in the package (raises ContentError listing every problem)."""
    out: dict[str, Box] = {}
    for name in BOXES:
        box, problems = load_box_folder(CONTENT_DIR / name)
        if box is None:
            raise ContentError("knockdown content is broken:\n" + "\n".join(problems))
        if box.id != name:
            raise ContentError(f"{CONTENT_DIR / name / 'box.toml'}: box: id: expected {name!r}, got {box.id!r}")
        out[name] = box
    return out


@cache
def content_hash() -> str:
    h = hashlib.sha256()
    for name in BOXES:
        for kind in FILES:
            p = CONTENT_DIR / name / f"{kind}.toml"
            h.update(f"{name}/{kind}\0".encode())
            h.update(p.read_bytes() if p.is_file() else b"")
    return h.hexdigest()
