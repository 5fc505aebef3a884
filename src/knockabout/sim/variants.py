"""Changed copies of a run's content, written as a content version.

Ablation (:mod:`knockabout.sim.ablation`) replaces one card by the game's neutral stand-in;
tuning (:mod:`knockabout.sim.tune`) changes some numbers. Both start from the files the
game's balance plug-in says a run plays (:meth:`~knockabout.core.plugins.BalancePlugin.content`)
and write a changed copy of them into a folder, which the plug-in then loads as a content
version (``version_options``), the same way ``balance compare`` loads one.

Edits are made on the TOML text with tomlkit, so comments, layout and key order stay as
the designer wrote them, and a proposal's diff shows only the values it changes. Every
written file is checked by its own model — what ``knockabout content validate`` checks —
and the whole version by the plug-in before anything plays it.

*Tunable* values are found by walking each file's validated model: a whole-number field
marked :data:`~knockabout.core.plugins.TUNABLE` (bounds from its ``ge``/``le``), or each
number of a mapping whose marker gives the bounds. The values a field may take are those
within the bounds that its file accepts with only that value changed (a span range's
reach cannot fall below its start; a number on an "any" range does not exist).
"""

from __future__ import annotations

import copy
import difflib
import tomllib
from collections.abc import Iterator, Mapping, MutableMapping, MutableSequence, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit
from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python

from knockabout.core.errors import ConfigError
from knockabout.core.plugins import ContentFile, ContentPart, RunContent

Where = tuple[str | int, ...]
"""A place in a file's data: keys as the file spells them, list positions from 0."""


def spelled(path: Where) -> str:
    """``("cards", 1, "edges", "north", "attack")`` as ``cards[1].edges.north.attack``."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


@dataclass(frozen=True)
class Tunable:
    """One number ``balance tune`` may change."""

    file: str
    path: Where
    value: int
    """Its value now."""
    values: tuple[int, ...]
    """Every value the file accepts there (the current one among them), ascending."""
    owners: tuple[str, ...]
    """The entrants whose matches it plays in (empty: every entrant)."""
    label: str
    """``file: part: field`` in words (``ember-rush.toml: Blaze Hound: edges.north.attack``)."""

    @property
    def key(self) -> str:
        """A stable name: the file and the place in it."""
        return f"{self.file}:{spelled(self.path)}"


@dataclass(frozen=True)
class Edit:
    """A number set to a new value."""

    file: str
    path: Where
    value: int


class ContentFiles:
    """A run's content files as editable TOML documents, checked by their models."""

    def __init__(self, content: RunContent) -> None:
        self.content = content
        self.files: dict[str, ContentFile] = {f.name: f for f in content.files}
        self.text: dict[str, str] = {}
        for f in content.files:
            try:
                self.text[f.name] = f.source.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"cannot read content file {f.source}: {exc}") from None
        self._models: dict[str, BaseModel] = {}

    def doc(self, name: str) -> tomlkit.TOMLDocument:
        """A fresh editable copy of the file ``name``."""
        return tomlkit.parse(self.text[name])

    def model(self, name: str) -> BaseModel:
        """The file's validated model."""
        if name not in self._models:
            self._models[name] = check(self.files[name], tomllib.loads(self.text[name]))
        return self._models[name]

    def part_of(self, name: str, path: Where) -> ContentPart | None:
        """The most specific part holding ``path`` of file ``name``."""
        holding = [p for p in self.content.parts if p.file == name and path[: len(p.path)] == p.path]
        return max(holding, key=lambda p: len(p.path), default=None)

    def data_at(self, name: str, path: Where) -> Any:
        """The plain data at ``path`` in the file, as the file holds it."""
        node: Any = tomllib.loads(self.text[name])
        for p in path:
            node = node[p]
        return node

    def tunables(self) -> list[Tunable]:
        """Every tunable number of every file, with the values its file accepts."""
        out = []
        for f in self.content.files:
            model = self.model(f.name)
            raw = tomllib.loads(self.text[f.name])
            for path, value, lo, hi in _marked(model, ()):
                ok = [v for v in range(lo, hi + 1) if v == value or _accepts(f, raw, model, path, v)]
                if len(ok) < 2:
                    continue
                part = self.part_of(f.name, path)
                if part is not None and part.path:
                    label = f"{f.name}: {part.name}: {spelled(path[len(part.path):])}"
                else:
                    label = f"{f.name}: {spelled(path)}"
                out.append(Tunable(f.name, path, value, tuple(ok), part.owners if part else (), label))
        return out

    def edited(self, edits: Sequence[Edit]) -> dict[str, str]:
        """The text of each file the edits change (others left out), each file checked."""
        docs: dict[str, tomlkit.TOMLDocument] = {}
        for e in edits:
            doc = docs.setdefault(e.file, self.doc(e.file))
            model = check(self.files[e.file], doc.unwrap())
            try:
                set_value(doc, model, e.path, e.value)
            except ValidationError as exc:
                msg = exc.errors()[0]["msg"]
                raise ConfigError(f"{e.file}: {spelled(e.path)}: {e.value} is refused: {msg}") from None
        out = {}
        for name, doc in docs.items():
            text = tomlkit.dumps(doc)
            check(self.files[name], tomllib.loads(text))
            if text != self.text[name]:
                out[name] = text
        return out

    def replaced(self, part: ContentPart, data: Mapping[str, Any]) -> dict[str, str]:
        """The text of the part's file with the part replaced by ``data``, checked."""
        doc = self.doc(part.file)
        node: Any = doc
        for p in part.path[:-1]:
            node = node[p]
        node[part.path[-1]] = dict(data)
        text = tomlkit.dumps(doc)
        check(self.files[part.file], tomllib.loads(text))
        return {part.file: text}

    def write(self, folder: Path, changed: Mapping[str, str]) -> Path:
        """Write every file of the content into ``folder`` (``changed``: new texts by
        name, the others as they are): a content version. Returns ``folder``."""
        for f in self.content.files:
            dest = folder / f.name
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(changed.get(f.name, self.text[f.name]), encoding="utf-8")
        return folder

    def diff(self, changed: Mapping[str, str], old: str = "a", new: str = "b") -> str:
        """A unified diff of the changed files against the content's own."""
        out: list[str] = []
        for name in sorted(changed):
            out += difflib.unified_diff(
                self.text[name].splitlines(keepends=True), changed[name].splitlines(keepends=True),
                f"{old}/{name}", f"{new}/{name}",
            )
        return "".join(out)


def check(file: ContentFile, data: Any) -> BaseModel:
    """The file's model of ``data``; ConfigError naming the file and the first problem."""
    try:
        return file.model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = spelled(tuple(p for p in err["loc"] if isinstance(p, str | int)))
        raise ConfigError(f"{file.name}: {where}: {err['msg']}") from None


def _bounds(info: Any) -> tuple[int, int] | None:
    lo = hi = None
    for m in info.metadata:
        lo = getattr(m, "ge", lo)
        hi = getattr(m, "le", hi)
    return None if lo is None or hi is None else (int(lo), int(hi))


def _marked(node: Any, path: Where) -> Iterator[tuple[Where, int, int, int]]:
    """``(path, value, low, high)`` of every marked number under ``node``."""
    if isinstance(node, BaseModel):
        for name, info in type(node).model_fields.items():
            key = info.alias or name
            value = getattr(node, name)
            extra = info.json_schema_extra
            mark = extra.get("tunable") if isinstance(extra, dict) else None
            if mark is True and isinstance(value, int) and not isinstance(value, bool):
                bounds = _bounds(info)
                if bounds is not None:
                    yield (*path, key), value, *bounds
            elif isinstance(mark, list) and len(mark) == 2:
                lo, hi = int(mark[0]), int(mark[1])  # type: ignore[arg-type]
                if isinstance(value, Mapping):
                    for k, n in value.items():
                        yield (*path, key, str(k)), int(n), lo, hi
                elif isinstance(value, int):
                    yield (*path, key), value, lo, hi
            else:
                yield from _marked(value, (*path, key))
    elif isinstance(node, tuple | list):
        for i, item in enumerate(node):
            yield from _marked(item, (*path, i))
    elif isinstance(node, Mapping):
        for k, item in node.items():
            yield from _marked(item, (*path, str(k)))


def _accepts(file: ContentFile, raw: Any, model: BaseModel, path: Where, value: int) -> bool:
    data = copy.deepcopy(raw)
    try:
        set_value(data, model, path, value)
        file.model.model_validate(data)
    except ValidationError:
        return False
    return True


def _changed(node: Any, path: Where, value: int) -> Any:
    """A copy of the model data ``node`` with ``path`` set to ``value``, each model on the
    way validated again (pydantic's ValidationError if one refuses it)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(node, BaseModel):
        fields = type(node).model_fields
        name = next((n for n, f in fields.items() if (f.alias or n) == head), str(head))
        values = {n: getattr(node, n) for n in fields}
        return type(node).model_validate({**values, name: _changed(values[name], rest, value)})
    if isinstance(node, tuple | list):
        items = list(node)
        items[int(head)] = _changed(items[int(head)], rest, value)
        return type(node)(items)
    if isinstance(node, Mapping):
        return {**node, head: _changed(node[head], rest, value)}
    raise ConfigError(f"no tunable value at {spelled(path)}")


def _written(node: Any) -> Any:
    """Model data as a content file writes it."""
    if isinstance(node, BaseModel):
        return node.model_dump(mode="json", by_alias=True)
    return to_jsonable_python(node, by_alias=True)


def set_value(doc: MutableMapping[str, Any], model: BaseModel, path: Where, value: int) -> None:
    """Set the number at ``path`` in a file's data (a tomlkit document or plain data) to
    ``value``, touching as little as it can: the number itself; a key the file left to
    its default is added; a value the file writes in a compact form (a range ``"1-2"``)
    is written again whole, as its model writes it."""
    new = _changed(model, path, value)
    node: Any = doc
    for i, key in enumerate(path):
        last = i == len(path) - 1
        if isinstance(node, MutableSequence) and isinstance(key, int):
            if last:
                node[key] = value
                return
            child = node[key]
        elif isinstance(node, MutableMapping):
            if last:
                node[key] = value
                return
            if key not in node:
                node[key] = _at(new, path[: i + 1])
                return
            child = node[key]
        else:  # pragma: no cover - a path always runs through containers
            raise ConfigError(f"no tunable value at {spelled(path)}")
        if not isinstance(child, MutableMapping | MutableSequence):
            node[key] = _at(new, path[: i + 1])
            return
        node = child


def _at(model: Any, path: Where) -> Any:
    node = model
    for key in path:
        if isinstance(node, BaseModel):
            fields = type(node).model_fields
            node = getattr(node, next((n for n, f in fields.items() if (f.alias or n) == key), str(key)))
        else:
            node = node[key]
    return _written(node)
