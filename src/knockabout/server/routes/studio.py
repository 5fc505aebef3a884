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
  POST /api/studio/{game}/versions {data}
                                        upload a valid document as a content version, kept
                                        in the database under its uploader (the same files
                                        again are the same version) -> the version
  GET  /api/studio/{game}/versions      the requester's own versions of the game
  GET  /api/studio/versions/{id}        one of the requester's versions: its document (to
                                        edit again) and the playtest tables made with it
  DELETE /api/studio/versions/{id}      take it off the list (a table made with it keeps
                                        its files, so it still replays)
  POST /api/studio/versions/{id}/tables {seats, name, config}
                                        a playtest table of one's own version (unlisted;
                                        by default the other seats are kept for invite
                                        links; ``config``: its other options, the version
                                        setting what puts it in play) -> as ``POST /api/tables``
  GET  /api/studio/jobs/{id}            a test's state, progress and tables so far
  POST /api/studio/jobs/{id}/stop {token}
                                        stop a test (what it played so far stays)

A content version (:mod:`knockabout.core.content_versions`) is named by the hash of its
files and never changes: a table's record names the version in its ``content`` option, so
its replays (and any balance run of those files) stay exact however often the designer
uploads again. Only the uploader lists, reads, removes or makes a table with a version
(another person's is answered as absent); a list holds at most :data:`MAX_VERSIONS`, a
version at most :data:`MAX_VERSION` characters.

What differs per game comes from its :class:`~knockabout.core.plugins.ContentEditor`.
Documents are data: they are checked by the game's content models and never run. The
request body is limited like every other (``guards.BodyLimit``); a document nests no
deeper than :data:`MAX_DEPTH` and a file holds at most :data:`MAX_FILE` characters, so
a hostile upload is refused before any model looks at it.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from knockabout.core.content_versions import CONTENT_OPTION, install, valid_id
from knockabout.core.errors import KnockaboutError
from knockabout.core.plugins import ContentEditor, ContentProblem
from knockabout.core.registry import all_games, get_game
from knockabout.ladder.ratings import account_key
from knockabout.server.app_state import ApiError, Server, client_address, owner_of
from knockabout.server.routes.tables import made
from knockabout.server.sessions import Me, Viewer
from knockabout.server.studio_jobs import BOTS, MAX_GAMES, JobRefused, Kind
from knockabout.store import ContentVersion, TooManyVersions

router = APIRouter()

MAX_DEPTH = 12
"""How deep a document's data may nest (the deepest shipped content nests 8 deep)."""
MAX_FILE = 48_000
"""The most characters one uploaded content file may hold."""
MAX_FILES = 5
MAX_VERSION = 24_000
"""The most characters an uploaded content version's files hold together (four times the
largest shipped box's)."""
MAX_VERSIONS = 20
"""The most content versions one uploader keeps at a time."""


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
    return {"game": get_game(game_id).id, "kind": editor.kind, "playtest_sets": list(editor.playtest_sets),
            "schema": editor.schema(),
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


def _valid(editor: ContentEditor, data: Any) -> None:
    """Refuse (400) a document with a problem, naming the first one's field."""
    problems = editor.check(_shallow(data))
    if problems:
        first = problems[0]
        where = ".".join(str(p) for p in first.path) or editor.kind
        raise ApiError(400, f"the {editor.kind} is not valid yet ({where}: {first.message})")


@router.post("/api/studio/{game_id}/files")
async def files(game_id: str, body: Document) -> dict[str, Any]:
    editor = editor_of(game_id)
    _valid(editor, body.data)
    return {"files": editor.files(body.data)}


def _version_json(v: ContentVersion) -> dict[str, Any]:
    return {**v.to_dict(), "game_name": get_game(v.game).name}


@router.post("/api/studio/{game_id}/versions")
async def upload_version(game_id: str, body: Document, request: Request, server: Server, me: Me) -> dict[str, Any]:
    editor = editor_of(game_id)
    _valid(editor, body.data)
    texts = editor.files(body.data)
    size = sum(len(t) for t in texts.values())
    if size > MAX_VERSION or any(len(t) > MAX_FILE for t in texts.values()):
        raise ApiError(413, f"this {editor.kind} is {size} characters of TOML; a content version holds at most "
                            f"{MAX_VERSION} (and {MAX_FILE} a file)")
    try:
        play = editor.playtest(body.data)
    except ValueError as exc:
        raise ApiError(400, f"this {editor.kind} cannot be played at a table: {exc}") from None
    try:
        version, new = await asyncio.to_thread(server.store.content.add, _owner(request, me), get_game(game_id).id,
                                               editor.kind, play.name[:80], texts, MAX_VERSIONS)
    except TooManyVersions as exc:
        raise ApiError(409, str(exc)) from None
    return {"version": _version_json(version), "new": new}


@router.get("/api/studio/{game_id}/versions")
async def my_versions(game_id: str, request: Request, server: Server, me: Me) -> dict[str, Any]:
    editor_of(game_id)
    game = get_game(game_id).id
    mine = await asyncio.to_thread(server.store.content.mine, _owner(request, me), game)
    return {"versions": [_version_json(v) for v in mine]}


def _owner(request: Request, me: Viewer) -> str:
    """Whose a request's content versions are: the logged-in account's, else the guest's
    (known by address)."""
    return account_key(me.account.id) if me.account is not None else owner_of(request)


async def _own(server: Server, owner: str, ident: str) -> tuple[ContentVersion, dict[str, str]]:
    """The requester's version ``ident`` and its files; 404 when it is not theirs (or none)."""
    version = await asyncio.to_thread(server.store.content.get, owner, ident) if valid_id(ident) else None
    texts = None if version is None else await asyncio.to_thread(server.store.content.files_of, owner, ident)
    if version is None or texts is None:
        raise ApiError(404, "no content version of yours with that id")
    return version, texts


def _document(version: ContentVersion, texts: dict[str, str]) -> Any:
    """A stored version's document, read back by its game's editor."""
    editor = editor_of(version.game)
    data, problems = editor.read(texts)
    if data is None:  # (it was valid when stored; a later build may check more)
        raise ApiError(409, f"this version no longer reads as a {editor.kind}: {problems[0].message}")
    return data


@router.get("/api/studio/versions/{ident}")
async def one_version(ident: str, request: Request, server: Server, me: Me) -> dict[str, Any]:
    version, texts = await _own(server, _owner(request, me), ident)
    tables = await asyncio.to_thread(server.store.content.tables, _owner(request, me), ident)
    return {"version": _version_json(version), "data": _document(version, texts), "tables": tables}


@router.delete("/api/studio/versions/{ident}")
async def remove_version(ident: str, request: Request, server: Server, me: Me) -> dict[str, Any]:
    await _own(server, _owner(request, me), ident)
    await asyncio.to_thread(server.store.content.remove, _owner(request, me), ident)
    return {"removed": ident}


class PlaytestTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: list[str] | None = Field(None, min_length=1, max_length=16,
                                    description="every seat (me, invite, open or a bot level); "
                                                "by default me and invite links")
    name: str = Field("", max_length=64)
    config: dict[str, Any] = Field(default_factory=dict, description="the table's other options (a turn limit)")


@router.post("/api/studio/versions/{ident}/tables")
async def playtest_table(ident: str, body: PlaytestTable, request: Request, server: Server, me: Me) -> dict[str, Any]:
    version, texts = await _own(server, _owner(request, me), ident)
    game = get_game(version.game)
    play = editor_of(game.id).playtest(_document(version, texts))
    seats = body.seats or ["me", *["invite"] * (game.facts.default_players - 1)]
    await asyncio.to_thread(install, game.id, texts)  # on disk before the table reads it (no database call then)
    live, seat, token = await server.manager.create(
        game.id, seats, {**body.config, **play.config, CONTENT_OPTION: ident}, body.name, listed=False,
        address=client_address(request))
    await asyncio.to_thread(server.store.content.link_table, ident, live.id, _owner(request, me))
    return {**made(live, seat, token), "version": _version_json(version)}


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


class Measure(BaseModel):
    model_config = ConfigDict(extra="forbid")
    data: Any
    bot: str = Field("easy", max_length=20)
    games: int = Field(4, ge=1, le=MAX_GAMES)
    seed: int = Field(1, ge=0, lt=2**63)


class QuickTest(Measure):
    width: float | None = Field(None, gt=0, lt=50, description="stop once every interval is within ±width points")


class Stop(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=100)


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
