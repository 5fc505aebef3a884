"""Knockdown content on disk: finding, reading and validating the boxes.

Each box is a folder ``content/<box>/`` holding five TOML files, every one with the
top-level key ``game = "knockdown"``:

* ``box.toml``      - the box: name, label, token supply, extra cards (Contamination)
* ``arena.toml``    - the arena: a layout map, a legend of space tags, its box rule
* ``fighters.toml`` - fighter sheets: class, K.O. effect, Special Attacks
* ``attacks.toml``  - the Attack card designs and how many copies of each
* ``skills.toml``   - the Skill cards (initiative and effects)

What each file may hold is in :mod:`.models` (effects: :mod:`.ops`, the shared words:
:mod:`.vocabulary`); effects run in one interpreter (:mod:`..rules.effects`) and the text a
player reads is generated from the same data (:mod:`.text`). Loading validates
everything with pydantic, and every problem is reported as
``file: entry: field: what is expected``. Combining the boxes of one match is
:func:`.match.build_setup`.

A *content version* (``balance compare``, the balance option ``version``) is a folder the
user names: one box folder, or a folder of box folders (like ``content/``). Each of its
boxes replaces the shipped box of the same id (``box.toml``'s ``id``); the other shipped
boxes stay. :func:`boxes_for` gives the boxes of a version, or the shipped ones.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel, ValidationError

from knockabout.core.errors import ContentError
from knockabout.games.knockdown.content.models import (
    FILE_MODELS,
    ArenaFile,
    ArenaModel,
    AttackCard,
    AttacksFile,
    BoxFile,
    BoxModel,
    ExtraSymbol,
    Fighter,
    FightersFile,
    RoundStart,
    SkillsFile,
    TurnStart,
)
from knockabout.games.knockdown.content.models import Skill as Skill
from knockabout.games.knockdown.content.ops import OP_NAMES, Op, OpName

CONTENT_DIR: Final = Path(__file__).parent
"""The folder of the shipped box folders (this package's own folder)."""
BOXES: Final = ("tainted_grail", "nemesis", "siege_storm")
FILES: Final = ("box", "arena", "fighters", "attacks", "skills")


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
            tagged = _tag_problem(raw, err)
            if tagged is not None:
                out.append(f"{path}: {tagged}")
                continue
            entry, field = _split_loc(raw, err["loc"])
            msg = err["msg"].removeprefix("Value error, ")
            out.append(f"{path}: {entry}: {field}: {msg}")
        return None, out


_TAGS: Final = {"op": OP_NAMES, "kind": _SKILL_KINDS}
"""The discriminator of each tagged union in the content (effect ops, skill effects) and its names."""


def _tag_problem(raw: Any, err: Any) -> str | None:
    """``entry: field: problem`` for an unknown or missing ``op`` / ``kind`` (None for other errors)."""
    if err["type"] not in ("union_tag_invalid", "union_tag_not_found"):
        return None
    ctx = err.get("ctx") or {}
    key = str(ctx.get("discriminator", "")).strip("'\"")
    names = _TAGS.get(key)
    if names is None:
        return None
    entry = _entry_name(raw, [p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-"))])
    expected = f"expected one of: {', '.join(names)}"
    if err["type"] == "union_tag_not_found":
        return f"{entry}: {key}: missing ({expected})"
    return f"{entry}: {key}: unknown {key} {ctx.get('tag')!r} ({expected})"


def _ops_of_box(fighters: Iterable[Fighter], cards: Iterable[AttackCard], skills: Iterable[Skill]) -> list[Op]:
    ops: list[Op] = []
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
            if op.op == OpName.PLACE_TRAP:
                used.add("trap")
            if op.op == OpName.CONTAMINATE:
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


def _version_folders(path: str) -> list[Path]:
    """The box folders of the content version at ``path`` (ContentError if there are none)."""
    p = Path(path).expanduser()
    files = ", ".join(f"{k}.toml" for k in FILES)
    if not p.exists():
        raise ContentError(f"{p}: no such folder")
    if not p.is_dir():
        raise ContentError(f"{p}: a knockdown content version is a folder: a box folder ({files}) "
                           "or a folder of box folders")

    def holds_box(d: Path) -> bool:
        return any((d / f"{k}.toml").is_file() for k in FILES)

    if holds_box(p):
        return [p]
    folders = sorted(d for d in p.iterdir() if d.is_dir() and holds_box(d))
    if not folders:
        raise ContentError(f"{p}: no knockdown box there: a box folder holds {files}; "
                           "a content version is a box folder or a folder of box folders")
    return folders


@cache
def load_version(path: str) -> dict[str, Box]:
    """The shipped boxes with those of the content version at ``path`` in their place
    (shipped order). Raises ContentError naming the first problem (file: entry: field:
    what is expected) and how many more there are."""
    problems: list[str] = []
    mine: dict[str, Box] = {}
    where: dict[str, Path] = {}
    for folder in _version_folders(path):
        box, errs = load_box_folder(folder)
        problems += errs
        if box is None:
            continue
        meta = folder / "box.toml"
        if box.id not in BOXES:
            problems.append(f"{meta}: box: id: {box.id!r} is not a shipped box; a content version replaces "
                            f"shipped boxes by id ({', '.join(BOXES)})")
        elif box.id in mine:
            problems.append(f"{meta}: box: id: {box.id!r} is also the id of {where[box.id]}")
        else:
            mine[box.id] = box
            where[box.id] = meta
    if problems:
        more = len(problems) - 1
        raise ContentError(problems[0] + (f" (and {more} more; `knockabout content validate {path}` lists "
                                          "every problem in its files)" if more else ""))
    shipped = builtin_boxes()
    return {name: mine.get(name, shipped[name]) for name in BOXES}


def boxes_for(version: str | None) -> dict[str, Box]:
    """The boxes a match plays with: the shipped ones, or those of a content version."""
    return builtin_boxes() if version is None else load_version(version)


def box_folders(version: str | None) -> dict[str, Path]:
    """The folder each box of a run is read from (shipped order): the shipped folder, or
    the version's folder for the boxes it replaces (ContentError for a bad version)."""
    folders = {name: CONTENT_DIR / name for name in BOXES}
    if version is None:
        return folders
    load_version(version)  # a broken version is one clear error first
    for folder in _version_folders(version):
        raw, _ = _read_toml(folder / "box.toml")
        box = (raw or {}).get("box")
        if isinstance(box, dict) and box.get("id") in folders:
            folders[str(box["id"])] = folder
    return folders


def version_digest(path: str) -> str:
    """A digest of every content file of the version at ``path`` ("" if it cannot be read)."""
    h = hashlib.sha256()
    try:
        for folder in _version_folders(path):
            for kind in FILES:
                p = folder / f"{kind}.toml"
                h.update(f"{folder.name}/{kind}\0".encode())
                h.update(p.read_bytes() if p.is_file() else b"")
    except (ContentError, OSError):
        return ""  # the run itself reports the bad folder
    return h.hexdigest()


@cache
def content_hash() -> str:
    h = hashlib.sha256()
    for name in BOXES:
        for kind in FILES:
            p = CONTENT_DIR / name / f"{kind}.toml"
            h.update(f"{name}/{kind}\0".encode())
            h.update(p.read_bytes() if p.is_file() else b"")
    return h.hexdigest()
