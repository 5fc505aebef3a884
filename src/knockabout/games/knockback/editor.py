"""KNOCKBACK in the browser's content editor: a document is one pack, written as one pack file.

The form is made from :class:`.content.PackModel`'s JSON Schema; a document is checked
the way ``knockabout content validate`` checks a pack file (the model, then an id that
is already a shipped pack's); the file is written in the shipped packs' layout (dotted
``edges.north = { … }`` lines, the ability's keys under ``ability.``) and reads back to
the same pack. The preview of a card is what the table's renderer draws for it
(``cardTile``): its printed face, lying as the first seat's cards lie. Uploaded as a
content version, the pack joins the shipped ones at a playtest table, in the first seat.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import tomlkit
from pydantic import ValidationError

from knockabout.core.plugins import Choice, ContentEditor, ContentProblem, Playtest
from knockabout.games.knockback.cards import card_face, compile_card
from knockabout.games.knockback.content import EDGE_NAMES, PackModel, builtin_packs, expected

SIDES = ("N", "E", "S", "W")
NEW = "new"
TEMPLATE = Path(__file__).parent / "templates" / "pack" / "my-pack.toml"
"""A new pack starts as the example pack of ``knockabout content new knockback-pack``."""


def problems_of(exc: ValidationError) -> list[ContentProblem]:
    """pydantic's errors as problems at the document's fields (union tags left out)."""
    out = []
    for err in exc.errors():
        path = tuple(p for p in err["loc"] if isinstance(p, int) or not _tag(p))
        out.append(ContentProblem(path, expected(err)))
    return out


def _tag(part: str) -> bool:
    """A discriminated union's tag pydantic inserts in an error's location."""
    return part in {"attack_bonus", "heart_bonus", "knockback"} or part.startswith(("function-", "Switch", "Amount"))


def pack_toml(model: PackModel) -> str:
    """The pack file of ``model``, in the shipped packs' layout."""
    doc = tomlkit.document()
    data = model.model_dump(mode="json")
    for key in ("game", "id", "name", "style", "description"):
        if data[key] != "" or key in ("game", "id", "name"):
            doc.add(key, data[key])
    cards = tomlkit.aot()
    for card in data["cards"]:
        t = tomlkit.table()
        t.add("name", card["name"])
        t.add("actions", card["actions"])
        for edge in EDGE_NAMES:
            t.add(tomlkit.key(["edges", edge]), _inline(card["edges"][edge]))
        ability = card["ability"]
        t.add(tomlkit.key(["ability", "kind"]), ability["kind"])
        if ability["name"]:
            t.add(tomlkit.key(["ability", "name"]), ability["name"])
        effects = tomlkit.array()
        for e in ability["effects"]:
            effects.append(_inline(e))
        t.add(tomlkit.key(["ability", "effects"]), effects)
        if card["flavor"]:
            t.add("flavor", card["flavor"])
        cards.append(t)
    doc.add("cards", cards)
    return tomlkit.dumps(doc)


def _inline(values: Mapping[str, Any]) -> Any:
    t = tomlkit.inline_table()
    t.update(values)
    return t


class PackEditor(ContentEditor):
    kind: ClassVar[str] = "pack"
    playtest_sets: ClassVar[tuple[str, ...]] = ("packs",)

    def schema(self) -> dict[str, Any]:
        return PackModel.model_json_schema()

    def shipped(self) -> list[Choice]:
        return [Choice(NEW, "A new pack", "from the example `knockabout content new` writes"),
                *(Choice(p.id, p.name, p.style) for p in builtin_packs())]

    def document(self, ident: str) -> dict[str, Any]:
        if ident == NEW:
            return PackModel.model_validate(tomllib.loads(TEMPLATE.read_text(encoding="utf-8"))).model_dump(mode="json")
        pack = {p.id: p for p in builtin_packs()}[ident]
        return pack.model.model_dump(mode="json")

    def _model(self, data: Any) -> tuple[PackModel | None, list[ContentProblem]]:
        model, problems = self.validated(PackModel, data, "a pack is a table of keys (game, id, name, cards …)",
                                         problems_of)
        if model is None:
            return None, problems
        if model.id in {p.id for p in builtin_packs()}:
            return None, [ContentProblem(("id",), f"{model.id!r} is a shipped pack's id; give your pack its own")]
        return model, []

    def check(self, data: Any) -> list[ContentProblem]:
        return self._model(data)[1]

    def files(self, data: Any) -> dict[str, str]:
        model = self.valid(self._model(data))
        return {f"{model.id}.toml": pack_toml(model)}

    def read(self, files: Mapping[str, str]) -> tuple[dict[str, Any] | None, list[ContentProblem]]:
        if len(files) != 1:
            return None, [ContentProblem((), f"a pack is one file, not {len(files)}")]
        (name, text), = files.items()
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            return None, [ContentProblem((), f"{name} is not valid TOML: {exc}")]
        if not isinstance(raw.get("game"), str) or raw["game"] != "knockback":
            return None, [ContentProblem(("game",), f'{name} is not a KNOCKBACK pack (game = "knockback" expected)')]
        try:
            return PackModel.model_validate(raw).model_dump(mode="json"), []
        except ValidationError as exc:
            return None, problems_of(exc)

    def preview(self, data: Any) -> list[dict[str, Any]]:
        model, _ = self._model(data)
        if model is None:
            return []
        out = []
        for card in model.cards:
            face = card_face(compile_card({"pack": model.id, "pack_name": model.name, "builtin": False,
                                           **card.model_dump(mode="json")})).to_json()
            edges = face["edges"]
            out.append({"card": face, "board_edges": {s: edges[e] for s, e in zip(SIDES, EDGE_NAMES, strict=True)}})
        return out

    def playtest(self, data: Any) -> Playtest:
        model = self.valid(self._model(data))
        # the pack in the first seat, against a random shipped pack
        return Playtest(model.name, {"packs": [model.id, "random"]})
