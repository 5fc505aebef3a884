"""The designer's studio: the content editor's server side (the page is ``/studio``).

  GET  /api/studio                      the games with a content editor (id, name, kind)
  GET  /api/studio/{game}               the form's JSON Schema and the shipped documents
  GET  /api/studio/{game}/shipped/{id}  a shipped document's data, to start from
  POST /api/studio/{game}/check {data}  every problem of a document, each at its field, and
                                        (when there is none) each card's preview
  POST /api/studio/{game}/files {data}  a valid document as its TOML files
  POST /api/studio/{game}/read {files}  a document's data from its TOML files (an upload)

What differs per game comes from its :class:`~knockabout.core.plugins.ContentEditor`.
Documents are data: they are checked by the game's content models and never run. The
request body is limited like every other (``guards.BodyLimit``); a document nests no
deeper than :data:`MAX_DEPTH` and a file holds at most :data:`MAX_FILE` characters, so
a hostile upload is refused before any model looks at it.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from knockabout.core.errors import KnockaboutError
from knockabout.core.plugins import ContentEditor, ContentProblem
from knockabout.core.registry import all_games, get_game
from knockabout.server.app_state import ApiError

router = APIRouter()

MAX_DEPTH = 12
"""How deep a document's data may nest (the deepest shipped content nests 8 deep)."""
MAX_FILE = 48_000
"""The most characters one uploaded content file may hold."""
MAX_FILES = 5


def editor_of(game_id: str) -> ContentEditor:
    """The game's content editor (404 for an unknown game or one without an editor)."""
    try:
        g = get_game(game_id)
    except KnockaboutError as exc:
        raise ApiError(404, str(exc)) from None
    editor = g.content_editor()
    if editor is None:
        raise ApiError(404, f"{g.id} has no content to edit")
    return editor


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deep ``value`` nests, counted up to ``limit + 1`` (no recursion: a hostile
    document cannot exhaust the stack)."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        node, d = todo.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        if isinstance(node, dict):
            todo += [(v, d + 1) for v in node.values()]
        elif isinstance(node, list):
            todo += [(v, d + 1) for v in node]
    return deepest


class Document(BaseModel):
    model_config = ConfigDict(extra="forbid")
    data: Any


class Files(BaseModel):
    model_config = ConfigDict(extra="forbid")
    files: dict[str, str] = Field(min_length=1, max_length=MAX_FILES)


def _shallow(data: Any) -> Any:
    if depth(data) > MAX_DEPTH:
        raise ApiError(400, f"the document nests deeper than {MAX_DEPTH} levels; no content does")
    return data


def _problems(problems: list[ContentProblem]) -> list[dict[str, Any]]:
    return [p.to_dict() for p in problems]


@router.get("/api/studio")
async def games() -> dict[str, Any]:
    out = []
    for g in all_games():
        editor = g.content_editor()
        if editor is not None:
            out.append({"id": g.id, "name": g.name, "kind": editor.kind})
    return {"games": out}


@router.get("/api/studio/{game_id}")
async def describe(game_id: str) -> dict[str, Any]:
    editor = editor_of(game_id)
    return {"game": get_game(game_id).id, "kind": editor.kind, "schema": editor.schema(),
            "shipped": [c.to_dict() for c in editor.shipped()]}


@router.get("/api/studio/{game_id}/shipped/{ident}")
async def shipped(game_id: str, ident: str) -> dict[str, Any]:
    editor = editor_of(game_id)
    try:
        return {"data": editor.document(ident)}
    except KeyError:
        raise ApiError(404, f"no shipped {editor.kind} {ident!r}") from None


@router.post("/api/studio/{game_id}/check")
async def check(game_id: str, body: Document) -> dict[str, Any]:
    editor = editor_of(game_id)
    problems = editor.check(_shallow(body.data))
    return {"problems": _problems(problems), "preview": [] if problems else editor.preview(body.data)}


@router.post("/api/studio/{game_id}/files")
async def files(game_id: str, body: Document) -> dict[str, Any]:
    editor = editor_of(game_id)
    problems = editor.check(_shallow(body.data))
    if problems:
        first = problems[0]
        where = ".".join(str(p) for p in first.path) or editor.kind
        raise ApiError(400, f"the {editor.kind} is not valid yet ({where}: {first.message})")
    return {"files": editor.files(body.data)}


@router.post("/api/studio/{game_id}/read")
async def read(game_id: str, body: Files) -> dict[str, Any]:
    editor = editor_of(game_id)
    for name, text in body.files.items():
        if len(name) > 100 or len(text) > MAX_FILE:
            raise ApiError(413, f"{name[:100]}: a content file holds at most {MAX_FILE} characters")
    try:
        data, problems = editor.read(body.files)
    except RecursionError:
        raise ApiError(400, f"the files nest deeper than any {editor.kind} does") from None
    return {"data": data, "problems": _problems(problems)}
