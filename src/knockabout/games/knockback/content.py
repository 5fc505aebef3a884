"""KNOCKBACK content: pack files (TOML) validated with pydantic and compiled to cards.

A pack file holds one pack of three cards::

    game = "knockback"
    id = "ember-rush"
    name = "Ember Rush"
    style = "rushers"

    [[cards]]
    name = "Cinder Fox"
    actions = ["move", "move", "punch"]
    edges.north = { attack = 3, heart = 1 }
    ...
    ability.kind = "punching"
    ability.effects = [{ op = "attack_bonus", amount = 1, when = "moved" }]

Every problem found is reported as one line naming the file, the card, the field
and what is expected. Pydantic is used only here, at load time; the rules read the
compiled :class:`~knockabout.games.knockback.cards.Card` objects.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from knockabout.core.errors import ContentError
from knockabout.core.plugins import TUNABLE
from knockabout.games.knockback.cards import EDGE_NAMES, Card, compile_card
from knockabout.games.knockback.ops import OPS_BY_KIND, REPEATABLE, AttackWhen, HeartWhen, Kind, Op

CONTENT_DIR = Path(__file__).parent / "content"
GAME_ID = "knockback"
MAX_VALUE = 9


class _Strict(BaseModel):
    """The base of the pack models: an unknown key is an error and a loaded model never
    changes. A model's ``title`` (in its ``model_config``) names it in the studio's form."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class EdgeModel(_Strict):
    model_config = ConfigDict(title="Edge")
    attack: int = Field(ge=0, le=MAX_VALUE, description="attack value on this edge", json_schema_extra=TUNABLE)
    heart: int = Field(ge=0, le=MAX_VALUE, description="heart value on this edge", json_schema_extra=TUNABLE)


class EdgesModel(_Strict):
    model_config = ConfigDict(title="Edges")
    north: EdgeModel = Field(title="North edge")
    east: EdgeModel = Field(title="East edge")
    south: EdgeModel = Field(title="South edge")
    west: EdgeModel = Field(title="West edge")


# -- effect primitives (the vocabulary is ops.py; cards.py says what each one does) ----
class AttackBonus(_Strict):
    model_config = ConfigDict(title="Attack bonus")
    op: Literal[Op.ATTACK_BONUS]
    amount: int = Field(ge=1, le=5, json_schema_extra=TUNABLE)
    when: AttackWhen = AttackWhen.ALWAYS


class HeartBonus(_Strict):
    model_config = ConfigDict(title="Heart bonus")
    op: Literal[Op.HEART_BONUS]
    amount: int = Field(ge=1, le=5, json_schema_extra=TUNABLE)
    when: HeartWhen = HeartWhen.ALWAYS


class Knockback(_Strict):
    model_config = ConfigDict(title="Knockback")
    op: Literal[Op.KNOCKBACK]
    cells: int = Field(ge=0, le=3, json_schema_extra=TUNABLE)


class Switch(_Strict):
    """An effect that is there or not (no amount)."""
    model_config = ConfigDict(title="Switch")

    op: Literal[Op.EXHAUST_TARGET, Op.READY_ON_KNOCKOUT, Op.SHOVE, Op.INTIMIDATE, Op.STEADFAST]


class Amount(_Strict):
    """An effect with an amount of 1 to 3 (charge per cell moved, an aura)."""
    model_config = ConfigDict(title="Amount")

    op: Literal[Op.CHARGE, Op.AURA_ATTACK, Op.AURA_HEART]
    amount: int = Field(ge=1, le=3, json_schema_extra=TUNABLE)


EffectModel = Annotated[AttackBonus | HeartBonus | Knockback | Switch | Amount, Field(discriminator="op")]


class AbilityModel(_Strict):
    model_config = ConfigDict(title="Ability")
    kind: Kind
    name: str = Field("", max_length=40, description="optional flavour name of the ability")
    effects: list[EffectModel] = Field(min_length=1, max_length=3)

    @model_validator(mode="after")
    def _ops_fit_kind(self) -> AbilityModel:
        allowed = OPS_BY_KIND[self.kind]
        for eff in self.effects:
            if eff.op not in allowed:
                raise ValueError(
                    f"effect {eff.op.value!r} does not belong to a {self.kind.value} ability "
                    f"(a {self.kind.value} ability may use: {', '.join(sorted(o.value for o in allowed))})"
                )
        ops = [e.op.value for e in self.effects]
        dup = {o for o in ops if ops.count(o) > 1 and Op(o) not in REPEATABLE}
        if dup:
            raise ValueError(f"effect {sorted(dup)[0]!r} is listed twice; list it once")
        return self


def _each_is_a_symbol(schema: dict[str, Any]) -> None:
    """The studio's form calls each entry of a card's actions a "Symbol" (not "item 1")."""
    items = schema.get("items")
    if isinstance(items, dict):
        items["title"] = "Symbol"


class CardModel(_Strict):
    model_config = ConfigDict(title="Card")
    name: str = Field(min_length=1, max_length=32)
    actions: list[Literal["move", "punch", "move_or_punch"]] = Field(
        min_length=1, max_length=3, title="Symbols", description="what the card does when activated, in order",
        json_schema_extra=_each_is_a_symbol)
    edges: EdgesModel
    ability: AbilityModel
    flavor: str = Field("", max_length=200)


class PackModel(_Strict):
    model_config = ConfigDict(title="Pack")
    game: Literal["knockback"]
    id: str = Field(min_length=1, max_length=32, pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1, max_length=40)
    style: str = Field("", max_length=40)
    description: str = Field("", max_length=300)
    cards: list[CardModel] = Field(min_length=3, max_length=3)

    @model_validator(mode="after")
    def _cards_distinct(self) -> PackModel:
        names = [c.name.casefold() for c in self.cards]
        for n in set(names):
            if names.count(n) > 1:
                raise ValueError(f"two cards are named {n!r}; every card of a pack needs its own name")
        bodies = [(tuple(c.actions), c.edges, c.ability) for c in self.cards]
        for i, b in enumerate(bodies):
            if b in bodies[:i]:
                raise ValueError(
                    f"card {self.cards[i].name!r} repeats another card's actions, edges and ability; "
                    "the three cards of a pack must differ"
                )
        return self


# -- loading -------------------------------------------------------------------
def _where(path: Path, raw: Any, loc: Sequence[int | str]) -> str:
    """'file: card 'X' (#2), field edges.north.attack' for a pydantic error location."""
    parts = [str(path)]
    rest = list(loc)
    if len(rest) >= 2 and rest[0] == "cards" and isinstance(rest[1], int):
        idx = rest[1]
        name = None
        cards = raw.get("cards") if isinstance(raw, dict) else None
        if isinstance(cards, list) and idx < len(cards) and isinstance(cards[idx], dict):
            name = cards[idx].get("name")
        parts.append(f"card {name!r} (#{idx + 1})" if isinstance(name, str) else f"card #{idx + 1}")
        rest = rest[2:]
    # drop the union tag pydantic inserts for discriminated effects
    shown = [str(p) if not isinstance(p, int) else f"[{p + 1}]" for p in rest]
    shown = [s for i, s in enumerate(shown) if not (i > 0 and shown[i - 1].startswith("[") and s in _ALL_OPS)]
    field = ".".join(shown).replace(".[", "[")
    parts.append(f"field {field}" if field else "pack")
    return ", ".join(parts)


_ALL_OPS = frozenset(o.value for o in Op)


def expected(err: Any) -> str:
    """What a pydantic error of a pack file expects, in words."""
    typ = err["type"]
    ctx = err.get("ctx") or {}
    got = err.get("input")
    if typ == "missing":
        return "is missing"
    if typ == "extra_forbidden":
        return "is not a known field (check the spelling)"
    if typ in ("literal_error", "enum"):
        return f"expected one of {ctx.get('expected')}, got {got!r}"
    if typ == "union_tag_invalid":
        return f"unknown effect op {ctx.get('tag')!r}; expected one of {', '.join(repr(o.value) for o in Op)}"
    if typ in ("greater_than_equal", "less_than_equal", "int_parsing", "int_type"):
        return f"expected a whole number within the allowed range, got {got!r} ({err['msg'].lower()})"
    if typ in ("too_short", "too_long"):
        return f"{err['msg'].lower()}"
    return str(err["msg"]).removeprefix("Value error, ")


def _read(path: Path) -> tuple[Any, list[str]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        return None, [f"{path}: cannot read the file ({exc.strerror})"]
    except UnicodeDecodeError:
        return None, [f"{path}: not a text file (pack files are UTF-8 TOML)"]
    try:
        return tomllib.loads(text), []
    except tomllib.TOMLDecodeError as exc:
        return None, [f"{path}: not valid TOML: {exc}"]


def check_pack(path: Path) -> tuple[PackModel | None, list[str]]:
    """Parse and validate one pack file: the model, or None and the problems found."""
    raw, problems = _read(path)
    if problems:
        return None, problems
    if not isinstance(raw, dict) or raw.get("game") != GAME_ID:
        got = raw.get("game") if isinstance(raw, dict) else None
        return None, [f"{path}: top-level key game: expected \"knockback\", got {got!r}"]
    try:
        return PackModel.model_validate(raw), []
    except ValidationError as exc:
        problems = [f"{_where(path, raw, e['loc'])}: {expected(e)}" for e in exc.errors()]
        cards = raw.get("cards")
        if isinstance(cards, list) and len(cards) != 3 and not any(", field cards:" in p for p in problems):
            # pydantic leaves the count out when the cards themselves have errors
            problems.append(f"{path}, field cards: a pack has exactly 3 cards, this one has {len(cards)}")
        return None, problems


def validate_file(path: Path) -> list[str]:
    """Every problem of one pack file (empty: valid), including an id clash with a built-in pack."""
    model, problems = check_pack(path)
    if model is None:
        return problems
    try:
        builtin = {p.id: p for p in builtin_packs()}
    except ContentError:  # pragma: no cover - the shipped packs are tested
        builtin = {}
    same = builtin.get(model.id)
    if same is not None and path.resolve() != (CONTENT_DIR / f"{model.id}.toml").resolve():
        return [f"{path}: pack, field id: {model.id!r} is already a built-in pack; choose another id"]
    return []


class Pack:
    """A validated pack: its id, name, style and three compiled cards."""

    __slots__ = ("builtin", "cards", "description", "id", "model", "name", "source", "style")

    def __init__(self, model: PackModel, source: str, builtin: bool) -> None:
        self.model = model
        self.id = model.id
        self.name = model.name
        self.style = model.style
        self.description = model.description
        self.source = source
        self.builtin = builtin
        self.cards: tuple[Card, ...] = tuple(
            compile_card(card_data(model, i)) for i in range(len(model.cards))
        )


def card_data(model: PackModel, i: int) -> dict[str, Any]:
    """One card as plain data (what states store, so a saved game needs no files)."""
    c = model.cards[i]
    return {
        "pack": model.id,
        "pack_name": model.name,
        "builtin": False,
        **c.model_dump(mode="json"),
    }


def load_pack(path: Path, builtin: bool = False) -> Pack:
    model, problems = check_pack(path)
    if model is None:
        raise ContentError("; ".join(problems))
    pack = Pack(model, str(path), builtin)
    if builtin:
        pack.cards = tuple(compile_card({**card_data(model, i), "builtin": True}) for i in range(3))
    return pack


@cache
def builtin_packs() -> tuple[Pack, ...]:
    """The packs shipped with knockabout (the project's own set), sorted by id."""
    files = sorted(CONTENT_DIR.glob("*.toml"))
    packs = [load_pack(f, builtin=True) for f in files]
    _check_unique(packs)
    return tuple(sorted(packs, key=lambda p: p.id))


def _check_unique(packs: Iterable[Pack]) -> None:
    seen: dict[str, str] = {}
    for p in packs:
        if p.id in seen:
            raise ContentError(f"{p.source}: pack, field id: {p.id!r} is also used by {seen[p.id]}")
        seen[p.id] = p.source


def pack_files(paths: Iterable[str]) -> list[Path]:
    """Expand configured paths (files or directories of *.toml) into pack files."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw).expanduser()
        if p.is_dir():
            out += sorted(p.glob("*.toml"))
        elif p.is_file():
            out.append(p)
        else:
            raise ContentError(f"{p}: no such pack file or directory")
    return out


def available_packs(extra: Sequence[str] = ()) -> tuple[Pack, ...]:
    """Built-in packs followed by the packs of the extra files or directories given."""
    packs = list(builtin_packs())
    for f in pack_files(extra):
        problems = validate_file(f)
        if problems:
            raise ContentError("; ".join(problems))
        packs.append(load_pack(f))
    _check_unique(packs)
    return tuple(packs)


@cache
def content_hash() -> str:
    h = hashlib.sha256()
    for f in sorted(CONTENT_DIR.glob("*.toml")):
        h.update(f.name.encode())
        h.update(b"\0")
        h.update(f.read_bytes())
    return h.hexdigest()


__all__ = ["EDGE_NAMES", "Pack", "available_packs", "builtin_packs", "check_pack", "content_hash", "validate_file"]
