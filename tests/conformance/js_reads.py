"""Which view fields a browser renderer reads, found by reading its JavaScript.

Renderers name the view ``view`` (``renderBoard(el, view, ctx)``, ``actionLabel(text,
view, ctx)``, helpers taking ``view``). Within each top-level function this finds:

* chains on ``view``: ``view.a``, ``view?.a.b``, ``view.a[i].b`` (an index is ``[]``);
* chains on names bound to a part of the view in that function:
  ``const p = view.pending || {}`` then ``p.cubes``; ``for (const f of view.fighters)``
  then ``f.heavy`` (an item of the array);
* ``(view.decision || {}).kind``.

Each read is a path such as ``("fighters", "[]", "heavy")``; :func:`unknown_reads`
checks the paths against a JSON Schema (``$ref``, ``anyOf``, arrays, maps), accepting
the built-in members of arrays and strings (``length``, ``map``...). A read it cannot
follow (a map's values, a field typed ``Any``) is accepted rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

Path = tuple[str, ...]

_STEP = r"(?:\??\.[A-Za-z_$][\w$]*|\[(?:[^\[\]]|\[[^\[\]]*\])*\])"
_CHAIN = re.compile(rf"(?<![\w$.])([A-Za-z_$][\w$]*)((?:{_STEP})+)")
_STEP_RE = re.compile(_STEP)
_ALIAS = re.compile(
    rf"(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*([A-Za-z_$][\w$]*(?:{_STEP})*)\s*(?:\|\||\?\?|;|\n)"
)
_ALIAS_DEFAULTED = re.compile(
    rf"(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*\(\s*([A-Za-z_$][\w$]*(?:{_STEP})*)\s*(?:\|\||\?\?)\s*"
    rf"(?:\{{\}}|\[\])\s*\)((?:{_STEP})+)\s*(?:\|\||\?\?|;|\n)"
)
_FOR_OF = re.compile(
    rf"for\s*\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s+of\s+([A-Za-z_$][\w$]*(?:{_STEP})*)\s*(?:\)|\|\|)"
)
_DEFAULTED = re.compile(
    rf"\(\s*([A-Za-z_$][\w$]*(?:{_STEP})*)\s*(?:\|\||\?\?)\s*(?:\{{\}}|\[\])\s*\)((?:{_STEP})+)"
)
_DECLARED = re.compile(
    r"(?:(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=(?!=))"  # const x = ...
    r"|(?:\(\s*([A-Za-z_$][\w$]*)\s*(?:,[^()]*)?\)\s*=>)"  # (x, i) => ...
    r"|(?:([A-Za-z_$][\w$]*)\s*=>)"  # x => ...
)
_FUNCTION = re.compile(r"^(?:export\s+)?(?:async\s+)?function\b", re.M)

ARRAY_MEMBERS = frozenset({
    "length", "map", "filter", "find", "findIndex", "some", "every", "forEach", "reduce", "slice", "join",
    "includes", "indexOf", "concat", "flat", "flatMap", "at", "entries", "keys", "values", "sort", "reverse",
})
STRING_MEMBERS = frozenset({
    "length", "replace", "replaceAll", "split", "slice", "startsWith", "endsWith", "includes", "toUpperCase",
    "toLowerCase", "trim", "padStart", "padEnd", "charAt", "at", "indexOf", "repeat", "localeCompare",
})


def _strip_comments(js: str) -> str:
    js = re.sub(r"/\*.*?\*/", "", js, flags=re.S)
    return re.sub(r"(?<![:\"'`])//[^\n]*", "", js)


def _steps(chain: str) -> Path:
    out: list[str] = []
    for m in _STEP_RE.finditer(chain):
        step = m.group(0)
        out.append("[]" if step.startswith("[") else step.lstrip("?."))
    return tuple(out)


def _functions(js: str) -> Iterator[str]:
    starts = [m.start() for m in _FUNCTION.finditer(js)] + [len(js)]
    for a, b in pairwise(starts):
        yield js[a:b]


Binding = tuple[int, str, "Path | None"]


def _resolve(name: str, chain: str, at: int, bound: list[Binding], root: str) -> Path | None:
    """The view path of ``name`` + ``chain`` read at position ``at``: ``name`` is the view
    itself, or the latest binding of ``name`` before ``at`` is a part of the view (None:
    not the view)."""
    if name == root:
        return _steps(chain)
    for pos, bound_name, path in reversed(bound):
        if pos < at and bound_name == name:
            return None if path is None else path + _steps(chain)
    return None


def _head(expr: str) -> tuple[str, str]:
    m = re.match(r"[A-Za-z_$][\w$]*", expr)
    assert m is not None
    return m.group(0), expr[m.end():]


def view_reads(js: str, root: str = "view") -> set[Path]:
    """Every path into the view that the renderer's source reads (see the module doc).

    Within a function a name means what it was last bound to before the read (loops over
    different parts of the view may reuse one name)."""
    reads: set[Path] = set()
    for body in _functions(_strip_comments(js)):
        found: list[tuple[int, str, str, Path]] = [
            (m.start(), m.group(1), m.group(2), ()) for m in _ALIAS.finditer(body)
        ]
        found += [(m.start(), m.group(1), m.group(2) + m.group(3), ()) for m in _ALIAS_DEFAULTED.finditer(body)]
        found += [(m.start(), m.group(1), m.group(2), ("[]",)) for m in _FOR_OF.finditer(body)]
        aliased = {pos for pos, *_ in found}
        # every other declaration (or arrow-function parameter) makes the name something else
        for m in _DECLARED.finditer(body):
            name = m.group(1) or m.group(2) or m.group(3)
            if m.start() not in aliased:
                found.append((m.start(), name, "", ()))
        bound: list[Binding] = []
        for pos, name, expr, item in sorted(found):
            if name == root:
                continue
            path = None
            if expr:
                head, chain = _head(expr)
                path = _resolve(head, chain, pos, bound, root)
            bound.append((pos, name, None if path is None else (*path, *item)))
        for m in _CHAIN.finditer(body):
            path = _resolve(m.group(1), m.group(2), m.start(), bound, root)
            if path:
                reads.add(path)
        for m in _DEFAULTED.finditer(body):
            head, chain = _head(m.group(1))
            path = _resolve(head, chain + m.group(2), m.start(), bound, root)
            if path:
                reads.add(path)
    return reads


def _deref(node: dict[str, Any], defs: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives a schema node stands for (refs followed, unions flattened, null dropped)."""
    if "$ref" in node:
        return _deref(defs[node["$ref"].rsplit("/", 1)[1]], defs)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in node:
            return [alt for sub in node[key] for alt in _deref(sub, defs)]
    if node.get("type") == "null":
        return []
    return [node]


def _follow(node: dict[str, Any], step: str, defs: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The nodes ``step`` leads to from ``node``; None: the step is not in the schema;
    ``[{}]``: it is allowed but cannot be followed further."""
    found: list[dict[str, Any]] = []
    ok = False
    for alt in _deref(node, defs):
        kind = alt.get("type")
        if step == "[]":
            if kind == "array":
                items = alt.get("items")
                prefix = alt.get("prefixItems", [])
                found += ([items] if isinstance(items, dict) else []) + list(prefix)
                ok = True
            elif kind == "object" or "properties" in alt or "additionalProperties" in alt:
                extra = alt.get("additionalProperties")
                found.append(extra if isinstance(extra, dict) else {})
                ok = True
            elif kind == "string" or not kind:
                found.append({})
                ok = True
            continue
        props = alt.get("properties")
        if props is not None and step in props:
            found.append(props[step])
            ok = True
        elif (kind == "array" and step in ARRAY_MEMBERS) or (kind == "string" and step in STRING_MEMBERS):
            found.append({})
            ok = True
        elif props is None and kind in (None, "object") and alt.get("additionalProperties") is not False:
            extra = alt.get("additionalProperties")
            found.append(extra if isinstance(extra, dict) else {})
            ok = True
    if not ok:
        return None
    return found or [{}]


def unknown_reads(schema: dict[str, Any], reads: set[Path]) -> list[str]:
    """The reads the schema does not have, as dotted paths (``fighters[].heavvy``)."""
    defs = schema.get("$defs", {})
    bad: list[str] = []
    for path in sorted(reads):
        nodes: list[dict[str, Any]] = [schema]
        for i, step in enumerate(path):
            nxt: list[dict[str, Any]] = []
            known = False
            for node in nodes:
                got = _follow(node, step, defs)
                if got is not None:
                    known = True
                    nxt += got
            if not known:
                bad.append(".".join(path[: i + 1]).replace(".[]", "[]"))
                break
            nodes = nxt
    return bad
