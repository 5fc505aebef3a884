"""KNOCKBACK cards at run time, and the text players read, generated from the card's data.

A :class:`Card` is compiled once from validated content data (see :mod:`.content`)
and shared, never mutated, by every state that uses it. Edge values are stored in
printed order (north, east, south, west); a state turns them to face their owner.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, assert_never

from knockabout.core.view import View
from knockabout.games.knockback.effects import Behaviour, compile_behaviour
from knockabout.games.knockback.grid import DIRS
from knockabout.games.knockback.ops import AttackWhen, Effect, HeartWhen, Kind, Op, compile_effect

EDGE_NAMES: Final = ("north", "east", "south", "west")

MOVE: Final = 1
PUNCH: Final = 2
EITHER: Final = MOVE | PUNCH
SYMBOL_CODES: Final = {"move": MOVE, "punch": PUNCH, "move_or_punch": EITHER}
Symbol = Literal["move", "punch", "move_or_punch"]
SYMBOL_NAMES: Final[dict[int, Symbol]] = {MOVE: "move", PUNCH: "punch", EITHER: "move_or_punch"}
SYMBOL_TITLES: Final = {MOVE: "MOVE", PUNCH: "PUNCH", EITHER: "MOVE-OR-PUNCH"}

__all__ = ["DIRS", "EDGE_NAMES", "Card", "CardFace", "compile_card"]

SET_LABEL: Final = "knockabout original set"
"""How the shipped packs are labelled in the product: the project's own designs."""


class Card:
    """One card: printed edges, action symbols and its ability as effect data.

    ``effects`` holds the compiled :class:`~.ops.Effect` records; ``behaviour`` is what
    they make the card do, compiled once by :mod:`.effects` (the only reader).
    """

    __slots__ = (
        "ability_name",
        "attack",
        "behaviour",
        "builtin",
        "data",
        "effects",
        "face",
        "heart",
        "kind",
        "name",
        "pack",
        "pack_name",
        "summary",
        "symbols",
    )

    name: str
    pack: str
    pack_name: str
    builtin: bool
    attack: tuple[int, int, int, int]
    heart: tuple[int, int, int, int]
    symbols: tuple[int, ...]
    kind: Kind
    ability_name: str
    effects: tuple[Effect, ...]
    behaviour: Behaviour
    data: dict[str, Any]
    face: CardFace
    """The card as players see it (printed orientation), built once."""
    summary: dict[str, Any]
    """:attr:`face` as JSON data (for menus and the game's description)."""

    def __repr__(self) -> str:
        return f"Card({self.pack}:{self.name})"

    @property
    def key(self) -> str:
        return f"{self.pack}:{self.name}"


def compile_card(data: Mapping[str, Any]) -> Card:
    """Build a :class:`Card` from validated card data (see ``content.card_data``)."""
    c = Card()
    c.data = dict(data)
    c.name = str(data["name"])
    c.pack = str(data["pack"])
    c.pack_name = str(data.get("pack_name", c.pack))
    c.builtin = bool(data.get("builtin", False))
    edges = data["edges"]
    c.attack = tuple(int(edges[e]["attack"]) for e in EDGE_NAMES)  # type: ignore[assignment]
    c.heart = tuple(int(edges[e]["heart"]) for e in EDGE_NAMES)  # type: ignore[assignment]
    c.symbols = tuple(SYMBOL_CODES[s] for s in data["actions"])
    ab = data["ability"]
    c.kind = Kind(ab["kind"])
    c.ability_name = str(ab.get("name", ""))
    try:
        c.effects = tuple(compile_effect(e) for e in ab["effects"])
    except ValueError as exc:
        raise ValueError(f"card {c.name!r}: {exc}") from None
    c.behaviour = compile_behaviour(c.effects)
    c.face = card_face(c)
    c.summary = c.face.to_json()
    return c


# -- generated text --------------------------------------------------------------
def _when_text(when: AttackWhen | HeartWhen) -> str:
    """A bonus's condition in words (after the bonus)."""
    match when:
        case AttackWhen.ALWAYS | HeartWhen.ALWAYS:
            return ""
        case AttackWhen.MOVED:
            return " if it moved earlier in this activation"
        case AttackWhen.TARGET_EXHAUSTED:
            return " against an exhausted card"
        case AttackWhen.TARGET_ENEMY:
            return " against an enemy card"
        case AttackWhen.TARGET_RESTED:
            return " against a rested card"
        case HeartWhen.RESTED:
            return " while it is rested"
        case HeartWhen.EXHAUSTED:
            return " while it is exhausted"
        case _:  # pragma: no cover - every condition is listed above
            assert_never(when)


def effect_text(effect: Effect) -> str:
    """One effect in plain words."""
    amount = effect.amount
    match effect.op:
        case Op.ATTACK_BONUS:
            return f"+{amount} attack{_when_text(effect.attack_when())}"
        case Op.KNOCKBACK:
            if amount == 0:
                return "its punches cause no knockback"
            return f"its knockback moves cards {amount} cell{'s' if amount != 1 else ''}"
        case Op.EXHAUST_TARGET:
            return "a card it punches and does not knock out becomes exhausted"
        case Op.READY_ON_KNOCKOUT:
            return "if it knocks a card out, it stays rested at the end of this activation"
        case Op.SHOVE:
            return "it may move into an occupied cell, pushing that card and every card beyond it one cell"
        case Op.CHARGE:
            return f"each cell it moves gives its punches +{amount} attack for the rest of this activation"
        case Op.INTIMIDATE:
            return "after each of its moves, enemy cards next to it become exhausted"
        case Op.HEART_BONUS:
            return f"+{amount} heart on every edge{_when_text(effect.heart_when())}"
        case Op.STEADFAST:
            return "knockback and shoves never move it (a push that would move it does not happen)"
        case Op.AURA_ATTACK:
            return f"friendly cards next to it get +{amount} attack"
        case Op.AURA_HEART:
            return f"friendly cards next to it get +{amount} heart"
        case _:  # pragma: no cover - every op is listed above
            assert_never(effect.op)


def card_text(card: Card) -> str:
    """The ability text shown to players, generated from the card's effect data."""
    body = "; ".join(effect_text(e) for e in card.effects)
    head = card.kind.value.capitalize()
    if card.ability_name:
        head = f"{card.ability_name} ({head.lower()})"
    return f"{head}: {body[:1].upper()}{body[1:]}."


def actions_text(card: Card) -> str:
    return " → ".join(SYMBOL_TITLES[s] for s in card.symbols)


@dataclass(frozen=True, slots=True, kw_only=True)
class EdgeValues:
    """One edge of a card: its attack and its heart."""

    attack: int
    heart: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PrintedEdges:
    """A card's edges as printed (north up), whoever owns it."""

    north: EdgeValues
    east: EdgeValues
    south: EdgeValues
    west: EdgeValues


@dataclass(frozen=True, slots=True, kw_only=True)
class AbilityFace:
    kind: Kind
    name: str
    """The ability's flavour name (empty: none)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardFace(View):
    """A card as players read it, in its printed orientation: what views and menus show."""

    name: str
    pack: str
    pack_name: str
    set: str
    """Where the card comes from: the project's own set or a player-made pack."""
    actions: tuple[Symbol, ...]
    edges: PrintedEdges
    ability: AbilityFace
    text: str
    """The ability in plain words, generated from its effect data."""


def card_face(card: Card) -> CardFace:
    """The card as players see it (printed orientation)."""
    a, h = card.attack, card.heart
    return CardFace(
        name=card.name,
        pack=card.pack,
        pack_name=card.pack_name,
        set=SET_LABEL if card.builtin else "player-made pack",
        actions=tuple(SYMBOL_NAMES[s] for s in card.symbols),
        edges=PrintedEdges(
            north=EdgeValues(attack=a[0], heart=h[0]),
            east=EdgeValues(attack=a[1], heart=h[1]),
            south=EdgeValues(attack=a[2], heart=h[2]),
            west=EdgeValues(attack=a[3], heart=h[3]),
        ),
        ability=AbilityFace(kind=card.kind, name=card.ability_name),
        text=card_text(card),
    )
