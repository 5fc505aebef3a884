"""What one match plays with: the arena as a graph, the deck's card designs, both fighters,
the skill set and the token supply, compiled from validated content into plain tuples.

A :class:`MatchSetup` is immutable and shared by every clone of a state, so cloning never
copies content. It is rebuilt from its :class:`Picks` (cached), which is what a saved
state stores.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, Final

from knockabout.core import content_versions
from knockabout.games.knockdown.content import text as T
from knockabout.games.knockdown.content.loader import Box, boxes_for
from knockabout.games.knockdown.content.models import (
    ArenaModel,
    AttackCard,
    BlockBonus,
    ExtraSymbol,
    Fighter,
    HandLimit,
    RangeBonus,
    RoundStart,
    Skill,
    Special,
    TurnStart,
)
from knockabout.games.knockdown.content.ops import Op, reaches_opponent
from knockabout.games.knockdown.content.vocabulary import SYMBOL_INDEX, SYMBOLS, TOKENS, Range

DIRS: Final[tuple[str, ...]] = ("up", "down", "left", "right")
DXY: Final[tuple[tuple[int, int], ...]] = ((0, -1), (0, 1), (-1, 0), (1, 0))
TOKEN_INDEX: Final = {t: i for i, t in enumerate(TOKENS)}
NTOK: Final = len(TOKENS)
# token indices the rules name (the order of content.TOKENS)
TK_CURSE, TK_STUN, TK_POISON, TK_MIST, TK_POTION, TK_AMMO, TK_FLAME, TK_TRAP, TK_CONTAM = range(NTOK)
ALL_SYMBOLS: Final = (1 << len(SYMBOLS)) - 1

RANGE_ANY: Final = 0
RANGE_SPAN: Final = 1
RANGE_PROJECTILE: Final = 2


def _by_fields(record: Any) -> tuple[Any, ...]:
    """``__reduce__`` of the frozen dataclasses below: the compiled build (this module is
    compiled, for native attribute reads on the hot path) cannot unpickle a frozen dataclass
    field by field, and states go to worker processes pickled."""
    return (type(record), tuple(getattr(record, f.name) for f in fields(record)))


@dataclass(frozen=True)
class Arena:
    name: str
    box: str
    rule: str
    xs: tuple[int, ...]
    ys: tuple[int, ...]
    tags: tuple[frozenset[str], ...]
    neighbors: tuple[tuple[int, ...], ...]  # per space, per direction (up, down, left, right): space or -1
    dist: tuple[tuple[int, ...], ...]
    line: tuple[tuple[bool, ...], ...]  # projectile: same row/column, every space between exists
    starts: tuple[int, int]
    corridors: tuple[int, ...]
    corridor_heavy: tuple[bool, ...]  # per space: arriving through a corridor costs heavy (else light)
    dangerous: tuple[bool, ...]
    minx: int
    maxx: int
    width: int
    height: int
    labels: tuple[str, ...]  # per space: its board coordinate, e.g. "c2"

    def __reduce__(self) -> tuple[Any, ...]:
        return _by_fields(self)

    @property
    def size(self) -> int:
        return len(self.xs)

    def at(self, x: int, y: int) -> int:
        for i in range(len(self.xs)):
            if self.xs[i] == x and self.ys[i] == y:
                return i
        return -1

    def label(self, s: int) -> str:
        """A space as a chess-like coordinate: column letter, row number (a1 = top left)."""
        return self.labels[s]


def build_arena(model: ArenaModel, box: str) -> Arena:
    xs: list[int] = []
    ys: list[int] = []
    tags: list[frozenset[str]] = []
    for y, row in enumerate(model.layout):
        for x, ch in enumerate(row):
            if ch == "#":
                continue
            xs.append(x)
            ys.append(y)
            tags.append(frozenset(model.legend[ch]))
    n = len(xs)
    index = {(xs[i], ys[i]): i for i in range(n)}
    nb = tuple(tuple(index.get((xs[i] + dx, ys[i] + dy), -1) for dx, dy in DXY) for i in range(n))
    dist: list[tuple[int, ...]] = []
    for s in range(n):
        d = [-1] * n
        d[s] = 0
        q = deque([s])
        while q:
            u = q.popleft()
            for v in nb[u]:
                if v >= 0 and d[v] < 0:
                    d[v] = d[u] + 1
                    q.append(v)
        dist.append(tuple(99 if v < 0 else v for v in d))
    line: list[tuple[bool, ...]] = []
    for a in range(n):
        row_ok: list[bool] = []
        for b in range(n):
            ok = False
            if a != b and (xs[a] == xs[b] or ys[a] == ys[b]):
                dx = (xs[b] > xs[a]) - (xs[b] < xs[a])
                dy = (ys[b] > ys[a]) - (ys[b] < ys[a])
                x, y = xs[a] + dx, ys[a] + dy
                ok = True
                while (x, y) != (xs[b], ys[b]):
                    if (x, y) not in index:
                        ok = False
                        break
                    x, y = x + dx, y + dy
            row_ok.append(ok)
        line.append(tuple(row_ok))
    starts = tuple(sorted((i for i in range(n) if "start" in tags[i]), key=lambda i: (xs[i], ys[i])))
    corridors = tuple(i for i in range(n) if "corridor" in tags[i]) if model.rule == "technical_corridors" else ()
    return Arena(
        name=model.name,
        box=box,
        rule=model.rule,
        xs=tuple(xs),
        ys=tuple(ys),
        tags=tuple(tags),
        neighbors=nb,
        dist=tuple(dist),
        line=tuple(line),
        starts=(starts[0], starts[1]),
        corridors=corridors,
        corridor_heavy=tuple("center" not in t for t in tags),
        dangerous=tuple(model.rule == "dangerous_edges" and "dangerous" in t for t in tags),
        minx=min(xs),
        maxx=max(xs),
        width=max(xs) + 1,
        height=max(ys) + 1,
        labels=tuple(f"{chr(ord('a') + xs[i])}{ys[i] + 1}" for i in range(n)),
    )


def range_tuple(r: Range) -> tuple[int, int, int]:
    if r.kind == "any":
        return (RANGE_ANY, 0, 0)
    if r.kind == "projectile":
        return (RANGE_PROJECTILE, 0, 0)
    return (RANGE_SPAN, r.lo, r.hi)


def cost_slots(cost: tuple[str, ...]) -> tuple[int, ...]:
    """Each cost slot as a bit mask of the symbols that may pay it."""
    out = []
    for slot in cost:
        if slot == "wild":
            out.append(ALL_SYMBOLS)
        else:
            m = 0
            for part in slot.split("|"):
                m |= 1 << SYMBOL_INDEX[part]
            out.append(m)
    return tuple(out)


def _hits_opponent(heavy: int, light: int, ops: tuple[Op, ...]) -> bool:
    """Whether an attack does something to the opponent (then it needs range, and it can be blocked)."""
    return bool(heavy or light) or any(reaches_opponent(op) for op in ops)


@dataclass(frozen=True)
class CardInfo:
    name: str
    symbols: tuple[int, ...]
    heavy: int
    light: int
    rng: tuple[int, int, int]
    type: str
    ko: bool
    effect: int  # program id
    on_take: int
    hits: bool
    model: AttackCard | None
    contamination: bool = False

    def __reduce__(self) -> tuple[Any, ...]:
        return _by_fields(self)


@dataclass(frozen=True)
class SpecialInfo:
    name: str
    type: str
    slots: tuple[int, ...]
    token_cost: tuple[tuple[int, int], ...]
    rng: tuple[int, int, int]
    heavy: int
    light: int
    ko: bool
    effect: int  # program id
    trigger: str
    hits: bool
    model: Special

    def __reduce__(self) -> tuple[Any, ...]:
        return _by_fields(self)


@dataclass(frozen=True)
class Picks:
    """The random or chosen parts of a match: which fighters, skill set and arena."""

    fighters: tuple[tuple[str, str], tuple[str, str]]  # (box, fighter id) per seat
    skills_box: str
    arena_box: str
    content: str = ""
    """The id of the content version whose boxes the match plays (the table's ``content``
    option, :mod:`knockabout.core.content_versions`), or "" for the shipped boxes."""

    def __reduce__(self) -> tuple[Any, ...]:
        return _by_fields(self)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "fighters": [list(f) for f in self.fighters],
            "skills_box": self.skills_box,
            "arena_box": self.arena_box,
        }
        if self.content:
            out["content"] = self.content
        return out

    @classmethod
    def from_dict(cls, d: Any) -> Picks:
        f = d["fighters"]
        return cls(((str(f[0][0]), str(f[0][1])), (str(f[1][0]), str(f[1][1]))), str(d["skills_box"]),
                   str(d["arena_box"]), str(d.get("content", "")))


@dataclass(frozen=True)
class MatchSetup:
    picks: Picks
    arena: Arena
    cards: tuple[CardInfo, ...]  # deck designs, then extra cards
    deck: tuple[int, ...]  # design ids, 36 entries
    candles: int
    contamination: int  # design id of the Contamination card, or -1
    contamination_count: int
    fighters: tuple[Fighter, Fighter]
    specials: tuple[tuple[SpecialInfo, ...], tuple[SpecialInfo, ...]]
    skills: tuple[Skill, ...]
    ko_effect: tuple[int, int]  # program per seat
    round_start: tuple[tuple[int, ...], ...]  # programs per skill
    turn_start: tuple[tuple[int, ...], ...]
    programs: tuple[tuple[Op, ...], ...]
    supply: tuple[int, ...]  # per token
    start_tokens: tuple[tuple[int, ...], tuple[int, ...]]
    card_index: dict[str, int]
    catalog: dict[str, dict[str, Any]]  # card name -> what a player reads on it (JSON-able, read-only)
    sheets: tuple[dict[str, Any], dict[str, Any]]  # per seat: the fighter sheet as data and text
    _sums: dict[tuple[int, ...], tuple[int, int, int]] = field(default_factory=dict, compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        return _by_fields(self)

    def skill_sums(self, skill_ids: tuple[int, ...]) -> tuple[int, int, int]:
        """(hand limit change, range bonus, Block bonus) of a fighter with these active skills.

        Asked on every legal-action query, so each answer is kept (there are few skill sets).
        """
        found = self._sums.get(skill_ids)
        if found is None:
            effects = [e for sid in skill_ids for e in self.skills[sid].effects]
            found = (
                sum(e.delta for e in effects if isinstance(e, HandLimit)),
                sum(e.max for e in effects if isinstance(e, RangeBonus)),
                sum(e.light for e in effects if isinstance(e, BlockBonus)),
            )
            self._sums[skill_ids] = found
        return found

    _tables: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def symbol_table(self, skill_ids: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """Each design's symbols for a fighter with these active skills.

        Asked at every skill reveal, so at every determinization of a search that starts
        in the draft: each answer (immutable) is kept, as there are few skill sets.
        """
        found = self._tables.get(skill_ids)
        if found is None:
            found = self._tables[skill_ids] = self._symbol_table(skill_ids)
        return found

    def _symbol_table(self, skill_ids: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        extra: dict[int, list[int]] = {}
        for sid in skill_ids:
            for e in self.skills[sid].effects:
                if isinstance(e, ExtraSymbol):
                    for name in e.cards:
                        d = self.card_index.get(name)
                        if d is not None:
                            extra.setdefault(d, []).append(SYMBOL_INDEX[e.symbol])
        return tuple(c.symbols + tuple(extra.get(d, ())) for d, c in enumerate(self.cards))


class _Programs:
    """Effect programs (tuples of ops) by integer id; id 0 is the empty program."""

    def __init__(self) -> None:
        self.items: list[tuple[Op, ...]] = [()]

    def add(self, ops: tuple[Op, ...]) -> int:
        if not ops:
            return 0
        self.items.append(tuple(ops))
        return len(self.items) - 1


def _card_info(c: AttackCard, progs: _Programs) -> CardInfo:
    return CardInfo(
        name=c.name,
        symbols=tuple(SYMBOL_INDEX[s] for s in c.symbols),
        heavy=c.heavy,
        light=c.light,
        rng=range_tuple(c.range),
        type=c.type,
        ko=c.ko,
        effect=progs.add(tuple(c.effect)),
        on_take=progs.add(tuple(c.on_take)),
        hits=_hits_opponent(c.heavy, c.light, tuple(c.effect)),
        model=c,
    )


def _special_info(s: Special, progs: _Programs) -> SpecialInfo:
    return SpecialInfo(
        name=s.name,
        type=s.type,
        slots=cost_slots(s.cost),
        token_cost=tuple((TOKEN_INDEX[t], n) for t, n in sorted(s.token_cost.items())),
        rng=range_tuple(s.range),
        heavy=s.heavy,
        light=s.light,
        ko=s.ko,
        effect=progs.add(tuple(s.effect)),
        trigger=s.trigger,
        hits=_hits_opponent(s.heavy, s.light, tuple(s.effect)),
        model=s,
    )


@cache
def build_setup(picks: Picks, version: str | None = None) -> MatchSetup:
    """The setup of ``picks`` from the shipped boxes, or from those of the content version
    at ``version`` (:func:`.loader.load_version`), or of the uploaded version the picks
    name (``picks.content``)."""
    if version is None and picks.content:
        version = str(content_versions.folder("knockdown", picks.content))
    boxes = boxes_for(version)
    abox = boxes[picks.arena_box]
    progs = _Programs()
    cards = [_card_info(c, progs) for c in abox.cards]
    deck: list[int] = []
    for d, c in enumerate(abox.cards):
        deck += [d] * c.copies
    used_boxes: list[Box] = [abox, boxes[picks.skills_box]] + [boxes[b] for b, _ in picks.fighters]
    contam = -1
    contam_count = 0
    for b in used_boxes:
        for extra in b.meta.extra_card:
            if extra.token == "contamination" and contam < 0:
                contam = len(cards)
                contam_count = extra.count
                cards.append(CardInfo(extra.name, (), 0, 0, (RANGE_ANY, 0, 0), "ability", False, 0, 0, False, None,
                                      True))
    supply = [0] * NTOK
    for b in used_boxes:
        for t, n in b.meta.tokens.items():
            supply[TOKEN_INDEX[t]] = max(supply[TOKEN_INDEX[t]], n)
    skills = boxes[picks.skills_box].skills
    fighters = (boxes[picks.fighters[0][0]].fighter(picks.fighters[0][1]),
                boxes[picks.fighters[1][0]].fighter(picks.fighters[1][1]))
    starts = []
    for f in fighters:
        st = [0] * NTOK
        for t, n in f.start_tokens.items():
            st[TOKEN_INDEX[t]] = n
        starts.append(tuple(st))
    return MatchSetup(
        picks=picks,
        arena=build_arena(abox.arena, abox.id),
        cards=tuple(cards),
        deck=tuple(deck),
        candles=abox.meta.candle_cards if abox.arena.rule == "fading_menhir" else 0,
        contamination=contam,
        contamination_count=contam_count,
        fighters=fighters,
        specials=(tuple(_special_info(s, progs) for s in fighters[0].special),
                  tuple(_special_info(s, progs) for s in fighters[1].special)),
        skills=skills,
        ko_effect=(progs.add(tuple(fighters[0].ko_effect)), progs.add(tuple(fighters[1].ko_effect))),
        round_start=tuple(tuple(progs.add(tuple(e.ops)) for e in s.effects if isinstance(e, RoundStart))
                          for s in skills),
        turn_start=tuple(tuple(progs.add(tuple(e.ops)) for e in s.effects if isinstance(e, TurnStart))
                         for s in skills),
        programs=tuple(progs.items),
        supply=tuple(supply),
        start_tokens=(starts[0], starts[1]),
        card_index={c.name: d for d, c in enumerate(cards)},
        catalog={c.name: _card_entry(c) for c in cards},
        sheets=(sheet_entry(fighters[0]), sheet_entry(fighters[1])),
    )


def _card_entry(c: CardInfo) -> dict[str, Any]:
    if c.model is None:
        return {"symbols": [], "heavy": 0, "light": 0, "range": "-", "type": "-", "ko": False,
                "text": f"{c.name}: no symbol; it only takes up room in a hand.",
                "effect": "It only takes up room in a hand."}
    return card_entry(c.model)


def card_entry(m: AttackCard) -> dict[str, Any]:
    """An Attack card as views show it (the catalog's entry)."""
    return {"symbols": list(m.symbols), "heavy": m.heavy, "light": m.light, "range": m.range.text(),
            "type": m.type, "ko": m.ko, "text": T.card_text(m), "effect": T.effect_text(m)}


def sheet_entry(f: Fighter) -> dict[str, Any]:
    """A fighter sheet as views show it."""
    return {
        "name": f.name,
        "class": f.fighter_class,
        "ko_effect": T.ops_text(f.ko_effect),
        "specials": [
            {"name": sp.name, "type": sp.type, "cost": list(sp.cost), "range": sp.range.text(), "heavy": sp.heavy,
             "light": sp.light, "ko": sp.ko, "trigger": sp.trigger, "text": T.special_text(sp)}
            for sp in f.special
        ],
        "text": T.fighter_sheet(f),
    }
