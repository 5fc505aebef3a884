"""Knockdown in the browser's content editor: a document is one box, written as its five files.

A document holds the five files' contents under their own keys (``box``, ``arena``,
``fighter``, ``card``, ``skill``), without each file's ``game`` line; :class:`BoxDocument`
is its model, and the form is made from that model's JSON Schema as data is written
(ranges are text, as in the files: ``"1-2"``, ``"projectile"``). A document is checked the
way ``knockabout content validate`` checks a box folder: each file's model, then the
checks across files (card names the skills refer to, 36 cards in the deck, 12 skills, the
tokens the box supplies). Each Attack card is previewed as the table's renderer draws a
card, each fighter as its sheet. Uploaded as a content version, the box takes the place of
the shipped box of its id at a playtest table, alone in play.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Final

import tomlkit
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from knockabout.core.plugins import Choice, ContentEditor, ContentProblem, Playtest
from knockabout.games.knockdown.content.loader import BOXES, FILES, builtin_boxes, cross_check
from knockabout.games.knockdown.content.match import card_entry, sheet_entry
from knockabout.games.knockdown.content.models import (
    FILE_MODELS,
    ArenaModel,
    AttackCard,
    BoxModel,
    Fighter,
    Skill,
)
from knockabout.games.knockdown.content.vocabulary import ContentModel

KEYS: Final = {"box": "box", "arena": "arena", "fighters": "fighter", "attacks": "card", "skills": "skill"}
"""Each file of a box and the key its content sits under."""
KINDS: Final = {key: kind for kind, key in KEYS.items()}
_CROSS = re.compile(r"^(?P<kind>\w+)\.toml: (?P<entry>.*?): (?P<field>[\w ]+): (?P<msg>.*)$")
_ENTRY = re.compile(r"^(?P<key>\w+) #(?P<n>\d+)")


class BoxDocument(ContentModel):
    """A whole box: the contents of its five files."""

    model_config = ConfigDict(title="Box")

    box: BoxModel
    arena: ArenaModel
    fighter: tuple[Fighter, ...] = Field(min_length=1, max_length=6)
    card: tuple[AttackCard, ...] = Field(min_length=1, max_length=24)
    skill: tuple[Skill, ...] = Field(min_length=6, max_length=16)


def _problems(exc: ValidationError) -> list[ContentProblem]:
    out = []
    for err in exc.errors():
        path = tuple(p for p in err["loc"] if isinstance(p, int) or not (p.startswith("function-") or _tag(p)))
        out.append(ContentProblem(path, str(err["msg"]).removeprefix("Value error, ")))
    return out


def _tag(part: str) -> bool:
    from knockabout.games.knockdown.content.ops import OP_NAMES

    return part in OP_NAMES or part in {"extra_symbol", "pool_bonus", "pool_reduction", "block_bonus", "hand_limit",
                                        "range_bonus", "round_start", "turn_start"}


def _cross(line: str) -> ContentProblem:
    """A check across files (``attacks.toml: card #3 'Jab': name: …``) at its field."""
    m = _CROSS.match(line)
    if m is None:
        return ContentProblem((), line)
    key = KEYS.get(m["kind"], m["kind"])
    entry = _ENTRY.match(m["entry"])
    if entry is None:
        return ContentProblem((key,), f"{m['field']}: {m['msg']}")
    return ContentProblem((key, int(entry["n"]) - 1, m["field"]), m["msg"])


def _toml(data: Mapping[str, Any], top: bool = True) -> Any:
    """Content data as the shipped files write it: the entries of a file (and a fighter's
    Special Attacks) as tables, every other list of tables inline."""
    doc = tomlkit.document() if top else tomlkit.table()
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            if top or key == "special":
                aot = tomlkit.aot()
                for item in value:
                    aot.append(_toml(item, top=False))
                doc.add(key, aot)
            else:
                arr = tomlkit.array()
                for item in value:
                    t = tomlkit.inline_table()
                    t.update(item)
                    arr.append(t)
                doc.add(key, arr)
        elif isinstance(value, dict) and top:
            doc.add(key, _toml(value, top=False))
        elif isinstance(value, dict):
            t = tomlkit.inline_table()
            t.update(value)
            doc.add(key, t)
        else:
            doc.add(key, value)
    return doc


class BoxEditor(ContentEditor):
    kind: ClassVar[str] = "box"
    playtest_sets: ClassVar[tuple[str, ...]] = ("boxes",)

    def schema(self) -> dict[str, Any]:
        return BoxDocument.model_json_schema(mode="serialization")

    def shipped(self) -> list[Choice]:
        return [Choice(b.id, b.meta.name, b.meta.label) for b in builtin_boxes().values()]

    def document(self, ident: str) -> dict[str, Any]:
        b = builtin_boxes()[ident]
        doc = BoxDocument(box=b.meta, arena=b.arena, fighter=b.fighters, card=b.cards, skill=b.skills)
        return doc.model_dump(mode="json", by_alias=True)

    def _model(self, data: Any) -> tuple[BoxDocument | None, list[ContentProblem]]:
        doc, problems = self.validated(
            BoxDocument, data, "a box is a table of its files' contents (box, arena, fighter …)", _problems)
        if doc is None:
            return None, problems
        models: dict[str, BaseModel] = {}
        for kind, key in KEYS.items():
            models[kind] = FILE_MODELS[kind].model_validate({"game": "knockdown", key: getattr(doc, key)})
        problems = [_cross(line) for line in cross_check(Path(""), models)]
        return (None, problems) if problems else (doc, [])

    def check(self, data: Any) -> list[ContentProblem]:
        return self._model(data)[1]

    def files(self, data: Any) -> dict[str, str]:
        doc = self.valid(self._model(data))
        dumped = doc.model_dump(mode="json", by_alias=True, exclude_defaults=True)
        return {f"{doc.box.id}/{kind}.toml": tomlkit.dumps(_toml({"game": "knockdown", key: dumped[key]}))
                for kind, key in KEYS.items()}

    def read(self, files: Mapping[str, str]) -> tuple[dict[str, Any] | None, list[ContentProblem]]:
        data: dict[str, Any] = {}
        for name, text in files.items():
            kind = Path(name).stem
            if kind not in KEYS:
                return None, [ContentProblem((), f"{name}: a box's files are {', '.join(k + '.toml' for k in FILES)}")]
            try:
                raw = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                return None, [ContentProblem((KEYS[kind],), f"{name} is not valid TOML: {exc}")]
            if raw.get("game") != "knockdown":
                return None, [ContentProblem((KEYS[kind],), f'{name} is not a Knockdown file (game = "knockdown")')]
            data[KEYS[kind]] = raw.get(KEYS[kind])
        missing = [k + ".toml" for k in FILES if KEYS[k] not in data]
        if missing:
            return None, [ContentProblem((), f"a box needs its five files; missing: {', '.join(missing)}")]
        doc, problems = self._model(data)
        return (doc.model_dump(mode="json", by_alias=True), []) if doc is not None else (None, problems)

    def preview(self, data: Any) -> list[dict[str, Any]]:
        doc, _ = self._model(data)
        if doc is None:
            return []
        return [{"kind": "fighter", **sheet_entry(f)} for f in doc.fighter] + [
            {"kind": "card", "name": c.name, **card_entry(c)} for c in doc.card
        ]

    def playtest(self, data: Any) -> Playtest:
        doc = self.valid(self._model(data))
        if doc.box.id not in BOXES:  # (a content version replaces shipped boxes, by id)
            raise ValueError(f"a box is played in place of the shipped box of its id: give it the id of one "
                             f"({', '.join(BOXES)}), not {doc.box.id!r}")
        # the box alone in play, in place of the shipped box of its id
        return Playtest(doc.box.name, {"boxes": [doc.box.id]})
