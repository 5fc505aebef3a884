"""The designer's studio: the content editor's server side (the page is ``/studio``).

  GET  /api/studio                      the games with a content editor (id, name, kind)
  GET  /api/studio/{game}               the form's JSON Schema and the shipped documents
  GET  /api/studio/{game}/shipped/{id}  a shipped document's data, to start from
  POST /api/studio/{game}/check {data}  every problem of a document, each at its field, and
                                        (when there is none) each card's preview
  POST /api/studio/{game}/files {data}  a valid document as its TOML files
  POST /api/studio/{game}/read {files}  a document's data from its TOML files (an upload)
  POST /api/studio/{game}/test {data, bot, games, seed, width}
                                        "Test it": queue a quick balance run of the document
                                        against the shipped content (:mod:`..studio_jobs`);
                                        answers the job's id, its stop token and its place
  POST /api/studio/{game}/measure {data, bot, games, seed}
                                        "Measure each card": queue a paired ablation of the
                                        document's own cards (each card's effect on winning,
                                        beside its usage statistics); answers as a test
  GET  /api/studio/jobs/{id}            a test's state, progress and tables so far
  POST /api/studio/jobs/{id}/stop {token}
                                        stop a test (what it played so far stays)

What differs per game comes from its :class:`~knockabout.core.plugins.ContentEditor`.
Documents are data: they are checked by the game's content models and never run. The
request body is limited like every other (``guards.BodyLimit``); a document nests no
deeper than :data:`MAX_DEPTH` and a file holds at most :data:`MAX_FILE` characters, so
a hostile upload is refused before any model looks at it.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from knockabout.core.errors import KnockaboutError
from knockabout.core.plugins import ContentEditor, ContentProblem
from knockabout.core.registry import all_games, get_game
from knockabout.server.app_state import ApiError, Server, client_address
from knockabout.server.studio_jobs import BOTS, MAX_GAMES, JobRefused, Kind

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


class QuickTest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    data: Any
    bot: str = Field("easy", max_length=20)
    games: int = Field(4, ge=1, le=MAX_GAMES)
    seed: int = Field(1, ge=0, lt=2**63)
    width: float | None = Field(None, gt=0, lt=50, description="stop once every interval is within ±width points")


class Stop(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=100)


class Measure(BaseModel):
    model_config = ConfigDict(extra="forbid")
    data: Any
    bot: str = Field("easy", max_length=20)
    games: int = Field(4, ge=1, le=MAX_GAMES)
    seed: int = Field(1, ge=0, lt=2**63)


async def _submit(game_id: str, data: Any, request: Request, server: Server, *, bot: str, games: int, seed: int,
                  width: float | None = None, kind: Kind = "test") -> dict[str, Any]:
    editor = editor_of(game_id)
    problems = editor.check(_shallow(data))
    if problems:
        raise ApiError(400, f"fix the {editor.kind} first ({'.'.join(map(str, problems[0].path)) or editor.kind}: "
                            f"{problems[0].message})")
    if bot not in BOTS:
        raise ApiError(400, f"a quick test plays {' or '.join(BOTS)} bots, not {bot!r}")
    try:
        job = server.studio.submit(client_address(request), game_id, editor.files(data), bot=bot, games=games,
                                   seed=seed, width=width, kind=kind)
    except JobRefused as exc:
        raise ApiError(exc.status, exc.message) from None
    except KnockaboutError as exc:
        raise ApiError(400, str(exc)) from None
    return {"job": job.id, "token": job.token, "waiting": server.studio.position(job), **job.summary()}


@router.post("/api/studio/{game_id}/test")
async def quick_test(game_id: str, body: QuickTest, request: Request, server: Server) -> dict[str, Any]:
    return await _submit(game_id, body.data, request, server, bot=body.bot, games=body.games, seed=body.seed,
                         width=None if body.width is None else body.width / 100)


@router.post("/api/studio/{game_id}/measure")
async def measure(game_id: str, body: Measure, request: Request, server: Server) -> dict[str, Any]:
    return await _submit(game_id, body.data, request, server, bot=body.bot, games=body.games, seed=body.seed,
                         kind="ablate")


@router.get("/api/studio/jobs/{job_id}")
async def job_state(job_id: str, server: Server) -> dict[str, Any]:
    job = server.studio.jobs.get(job_id)
    if job is None:
        raise ApiError(404, "no such test (finished tests are kept a while, then forgotten)")
    return {"waiting": server.studio.position(job) if job.state == "queued" else 0, **job.summary()}


@router.post("/api/studio/jobs/{job_id}/stop")
async def stop(job_id: str, body: Stop, server: Server) -> dict[str, Any]:
    job = server.studio.jobs.get(job_id)
    if job is None or not secrets.compare_digest(job.token, body.token):
        raise ApiError(404, "no such test of yours")
    server.studio.stop(job)
    return job.summary()
