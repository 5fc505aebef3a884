"""The web server: lobby (REST), one WebSocket per seat or spectator, static front end.

Routes
  GET  /api/games                       games, their options and the bot levels, with each
                                        game's lobby info (summary, length, option choices)
  GET  /api/games/{game}/rules          the game's rules page rendered to HTML
  POST /api/tables                      create a table -> {id, seat, token, invites}
                                        (``listed``: false keeps it out of the lobby;
                                        a seat ``invite`` is kept for its invite link)
  GET  /api/tables                      recent listed tables
  GET  /api/tables/{id}                 one table's public facts
  POST /api/tables/{id}/join            take a free seat, or with ``invite`` the seat
                                        kept for that code -> {seat, token}
  POST /api/tables/{id}/rematch         a finished table again (same seats and options,
                                        a new seed) -> {id, seat, token}
  GET  /api/tables/{id}/replay/{step}   a finished game, step by step
  GET  /api/tables/{id}/record          a finished game's replay record (JSON)
  WS   /ws/tables/{id}                  first message {"type": "hello", "token": ...}
                                        (no token: spectator); then
                                        {"type": "act", "action": TEXT, "version": N},
                                        {"type": "answer", "answer": [ID, ...], "version": N}
                                        (a judged decision's challenge), {"type": "challenge"},
                                        {"type": "sync"} (a fresh sync), {"type": "ping"};
                                        the server sends a sync, then on each change a
                                        patch of the last message (see server/frames.py)
  GET  /games/{game}/renderer.js        the game's own web renderer (its declared
                                        ``web_renderer`` file), else the generic one
  GET  /, /t/{id}, /replay/{id}         the front end (static files, no build step)

Input guards (:mod:`.guards`): every refusal is ``{"error": ...}``, request bodies stop at
64 KiB, WebSocket messages at 16 Ki characters; bad frames get one error and change nothing.
Limits (:mod:`.quotas`, set in :class:`ServerSettings`): new tables and messages per
address, live bot-only tables, spectators per table; a refusal is HTTP 429, a WebSocket
error message, or a close with code 4429.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from knockabout.bots.levels import LEVELS
from knockabout.core.errors import KnockaboutError
from knockabout.core.protocol import Game
from knockabout.core.registry import all_games, game_ids, get_game
from knockabout.core.replay import GameRecord
from knockabout.server.collector import CollectorSchedule
from knockabout.server.guards import (
    GONE,
    NOT_JSON,
    BadFrame,
    BodyLimit,
    close_safely,
    install_error_handlers,
    json_problem,
    receive_text,
    send_safely,
)
from knockabout.server.live import Connection, LiveTable, Manager, local_only_options
from knockabout.server.quotas import TOO_MANY, LimitReached, Quotas
from knockabout.server.replays import ReplayCache
from knockabout.server.rules import package_file, rules_html
from knockabout.server.settings import ServerSettings
from knockabout.server.shards import OneRequestPerConnection
from knockabout.store import Store

STATIC = Path(str(resources.files("knockabout.web"))) / "static"
GENERIC_RENDERER = STATIC / "generic.js"


def web_renderer_file(game: Game[Any]) -> Path:
    """The ES module that draws ``game``'s views in the browser: the file the game declares
    in ``web_renderer``, inside its own package (wherever that is installed), or the
    generic renderer when it declares none."""
    if game.web_renderer is None:
        return GENERIC_RENDERER
    return package_file(game, game.web_renderer)


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=64)
    seats: list[str] = Field(min_length=1, max_length=16)
    config: dict[str, Any] = Field(default_factory=dict)
    name: str = Field("", max_length=64)
    seed: int | None = Field(None, ge=0, lt=2**63)
    listed: bool = Field(True, description="show the table in the public lobby (else only its link finds it)")


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field("", max_length=64)
    seat: int | None = Field(None, ge=0, lt=64, description="0-based seat; the first free one when left out")
    invite: str | None = Field(None, min_length=1, max_length=64, description="the code of an invite link")


class Rematch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)


class Hello(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["hello"]
    token: str | None = Field(None, max_length=200)


class Act(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["act"]
    action: str = Field(min_length=1, max_length=200)
    version: int


class Answer(BaseModel):
    """An answer to the seat's open challenge (e.g. the tower's cube ids, bottom first)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["answer"]
    answer: list[Annotated[str, Field(min_length=1, max_length=32)]] = Field(max_length=64)
    version: int


class ChallengeRequest(BaseModel):
    """Ask again for the seat's open challenge (it also comes with each update)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["challenge"]


class Ping(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["ping"]


class SyncRequest(BaseModel):
    """Ask for a fresh sync (a client whose copy a patch did not fit)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["sync"]


ClientMessage: TypeAdapter[Act | Answer | ChallengeRequest | Ping | SyncRequest] = TypeAdapter(
    Annotated[Act | Answer | ChallengeRequest | Ping | SyncRequest, Field(discriminator="type")]
)


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _first_problem(exc: ValidationError | RequestValidationError) -> str:
    problems = []
    for err in exc.errors()[:3]:
        if err.get("type") == "json_invalid":
            return NOT_JSON
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "message"
        problems.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "; ".join(problems)


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """The application. ``settings`` pick the database and the table timings."""
    cfg = settings or ServerSettings()
    quotas = Quotas(cfg.create_rate, cfg.message_rate, cfg.shards)  # a bad rate fails here, before serving
    replays = ReplayCache()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(cfg.db_url, Path(cfg.data_dir) if cfg.data_dir else None, writer=cfg.store_writer)
        manager = Manager(cfg, store)
        app.state.store = store
        app.state.manager = manager
        app.state.replays = replays
        app.state.resumed = manager.resume_all()
        store.open_writer()
        if cfg.warm_bots:
            manager.thinkers.warm_all(game_ids())
        collector = CollectorSchedule(cfg.full_gc_every)  # full collections on a schedule (see .collector)
        collector.start()
        app.state.collector = collector
        try:
            yield
        finally:
            await collector.stop()
            await manager.close()
            store.close()

    app = FastAPI(title="knockabout", lifespan=lifespan)
    app.add_middleware(BodyLimit)
    if cfg.shards > 1:  # a worker of serve --workers: the front routes each request by its own line
        app.add_middleware(OneRequestPerConnection)
    install_error_handlers(app)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(LimitReached)
    async def limit_reached(request: Request, exc: LimitReached) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=429)

    @app.exception_handler(KnockaboutError)
    async def game_error(request: Request, exc: KnockaboutError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        not_json = any(e.get("type") == "json_invalid" for e in exc.errors())
        return JSONResponse({"error": f"bad request: {_first_problem(exc)}"}, status_code=400 if not_json else 422)

    def address(request: Request | WebSocket) -> str:
        return request.client.host if request.client is not None else "unknown"

    def manager(request: Request | WebSocket) -> Manager:
        m: Manager = request.app.state.manager
        return m

    def live_table(request: Request | WebSocket, table_id: str) -> LiveTable:
        live = manager(request).get(table_id)
        if live is None:
            raise ApiError(404, f"no live table {table_id!r}")
        return live

    # -- lobby
    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        out = []
        for g in all_games():
            schema = g.config_model.model_json_schema()
            hidden = local_only_options(g) | {"players"}
            options = {k: v for k, v in schema.get("properties", {}).items() if k not in hidden}
            info = g.lobby()
            out.append({"id": g.id, "name": g.name, "min_players": g.min_players, "max_players": g.max_players,
                        "default_players": g.facts.default_players, "options": options,
                        "lobby": None if info is None else info.to_dict()})
        return {"games": out, "bots": list(LEVELS)}

    @app.get("/api/games/{game_id}/rules")
    async def rules(game_id: str) -> dict[str, Any]:
        try:
            game = get_game(game_id)
            return {"game": game.id, "name": game.name, "html": rules_html(game)}
        except KnockaboutError as exc:
            raise ApiError(404, str(exc)) from None

    @app.post("/api/tables")
    async def create(body: CreateTable, request: Request) -> dict[str, Any]:
        quotas.check_create(address(request))
        live, seat, token = await manager(request).create(body.game, body.seats, body.config, body.name, body.seed,
                                                    listed=body.listed)
        invites = [{"seat": i, "url": f"/t/{live.id}#invite={code}"} for i, code in sorted(live.new_invites.items())]
        live.new_invites = {}  # the codes are stored hashed; only this answer ever holds them
        return {"id": live.id, "seat": seat, "token": token, "url": f"/t/{live.id}", "invites": invites,
                "table": live.info()}

    @app.get("/api/tables")
    async def tables(request: Request) -> dict[str, Any]:
        m = manager(request)
        out = []
        for st in await asyncio.to_thread(m.store.recent, 50, listed_only=True):
            live = m.get(st.id)
            if live is not None:
                out.append(live.info())
            else:  # finished and let go, or (serve --workers) another worker's: as stored
                free = [i for i, s in enumerate(st.seats) if s["kind"] == "empty" and not s.get("invite")]
                out.append({"id": st.id, "game": st.game, "status": st.status, "seats": [
                    {"kind": s["kind"], "name": s["name"], "level": s.get("level"), "reserved": bool(s.get("invite"))}
                    for s in st.seats],
                    "outcome": st.result, "free_seats": free if st.status != "finished" else [],
                    "created_at": st.created_at})
        return {"tables": out}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        live = manager(request).get(table_id)
        if live is not None:
            return live.info()
        st = await asyncio.to_thread(manager(request).store.get, table_id)
        if st is None:
            raise ApiError(404, f"no table {table_id!r}")
        return {"id": st.id, "game": st.game, "status": st.status, "seats": [
            {"kind": s["kind"], "name": s["name"], "level": s.get("level")} for s in st.seats],
            "outcome": st.result, "free_seats": [], "steps": len(st.actions),
            "version": len(st.actions)}  # (as a live table's: the number of actions taken)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        live = live_table(request, table_id)
        if live.table.over:
            raise ApiError(409, "this game is over; watch its replay instead")
        try:
            seat, token = await manager(request).join(live, body.name, body.seat, body.invite)
        except KnockaboutError as exc:
            raise ApiError(409, str(exc)) from None
        return {"id": live.id, "seat": seat, "token": token, "url": f"/t/{live.id}"}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: Rematch, request: Request) -> dict[str, Any]:
        live = live_table(request, table_id)
        try:
            again, seat, token = await manager(request).rematch(live, body.token)
        except KnockaboutError as exc:
            raise ApiError(409, str(exc)) from None
        return {"id": again.id, "seat": seat, "token": token, "url": f"/t/{again.id}"}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request) -> JSONResponse:
        """A finished game's replay record (``knockabout replay FILE`` reads it)."""
        st = await asyncio.to_thread(manager(request).store.get, table_id)
        if st is None:
            raise ApiError(404, f"no table {table_id!r}")
        if st.status != "finished":
            raise ApiError(409, "only finished games can be downloaded (the record holds the seed)")
        rec = GameRecord(game=st.game, rules_version=st.rules_version, config=st.config, seed=st.seed,
                         content_hash=st.content_hash, actions=st.actions)
        return JSONResponse(rec.to_dict(), headers={
            "content-disposition": f'attachment; filename="{st.game}-{st.id}.json"'})

    @app.get("/api/tables/{table_id}/replay/{step}")
    async def replay_step(table_id: str, step: int, request: Request) -> dict[str, Any]:
        return await asyncio.to_thread(replay_at, manager(request).store, table_id, step)

    def replay_at(store: Store, table_id: str, step: int) -> dict[str, Any]:
        """One step of a finished game, read and replayed on a worker thread."""
        st = store.get(table_id)
        if st is None:
            raise ApiError(404, f"no table {table_id!r}")
        if st.status != "finished":
            raise ApiError(409, "only finished games can be replayed (no peeking at a live game)")
        if not 0 <= step <= len(st.actions):
            raise ApiError(404, f"step {step} is outside 0-{len(st.actions)}")
        game = get_game(st.game)
        at = replays.step(st, step)
        state, events, actor = at.state, at.events, at.actor
        names = [s["name"] for s in st.seats]
        n = state.num_players
        guide = game.guide()
        said = None  # the action in the words the table used: labelled on the actor's view before it
        if step and actor is not None and guide is not None:
            said = guide.label(replays.step(st, step - 1).state.observe(actor), st.actions[step - 1], names)
        return {
            "id": st.id,
            "game": st.game,
            "step": step,
            "steps": len(st.actions),
            "action": st.actions[step - 1] if step else None,
            "said": said,
            "seat": actor,
            "names": names,
            "view": state.observe(None).to_json(),
            "views": [state.observe(p).to_json() for p in range(n)],
            "events": [{"type": e.type, "data": dict(e.data), "text": game.narrate(e, names)} for e in events],
            "outcome": st.result,
        }

    # -- play
    @app.websocket("/ws/tables/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        try:
            await ws.accept()
            await session(ws, table_id)
        except GONE:
            return  # the client went away mid-way (also while its message waited for the table)

    async def session(ws: WebSocket, table_id: str) -> None:
        live = manager(ws).get(table_id)
        if live is None:
            await send_safely(ws, {"type": "error", "message": f"no live table {table_id!r}"})
            await close_safely(ws, 4404, "no such live table")
            return
        try:
            hello = Hello.model_validate_json(await receive_text(ws))
            seat = live.seat_of(hello.token)
        except (ValidationError, BadFrame) as exc:
            msg = (json_problem(exc) or _first_problem(exc)) if isinstance(exc, ValidationError) else str(exc)
            await send_safely(ws, {"type": "error", "message": f"the first message must be hello: {msg}"})
            await close_safely(ws, 4400, f"the first message must be hello: {msg}")
            return
        except KnockaboutError as exc:
            await send_safely(ws, {"type": "error", "message": str(exc)})
            await close_safely(ws, 4403, str(exc))
            return
        if seat is None and live.spectators() >= cfg.max_spectators:
            why = f"this table has {cfg.max_spectators} spectators already, the most it takes"
            await send_safely(ws, {"type": "error", "message": why})
            await close_safely(ws, TOO_MANY, why)
            return
        conn = Connection(ws, seat)
        await live.connect(conn)
        try:
            while True:
                try:
                    text = await receive_text(ws)
                except BadFrame as exc:
                    await live.send(conn, {"type": "error", "message": f"{exc}; nothing changed"})
                    continue
                refusal = quotas.message_refusal(address(ws))
                if refusal is not None:
                    await live.send(conn, {"type": "error", "message": refusal})
                    continue
                await handle(live, conn, text)
        finally:
            await live.disconnect(conn)

    async def handle(live: LiveTable, conn: Connection, text: str) -> None:
        try:
            msg = ClientMessage.validate_json(text)
        except ValidationError as exc:
            why = json_problem(exc) or _first_problem(exc)
            await live.send(conn, {"type": "error", "message": f"malformed message ({why}); nothing changed"})
            return
        if isinstance(msg, Ping):
            await live.send(conn, {"type": "pong"})
            return
        if isinstance(msg, ChallengeRequest):
            await live.send(conn, live.challenge_message(conn))
            return
        if isinstance(msg, SyncRequest):
            await live.resync(conn)
            return
        try:
            if isinstance(msg, Answer):
                await live.answer(conn, msg.answer, msg.version)
            else:
                await live.act(conn, msg.action, msg.version)
        except KnockaboutError as exc:
            await live.send(conn, {"type": "error", "message": str(exc), "version": live.table.version})

    # -- front end
    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(index)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(index)

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(index)

    @app.get("/games/{game_id}/renderer.js", include_in_schema=False)
    async def game_renderer(game_id: str) -> FileResponse:
        try:
            path = web_renderer_file(get_game(game_id))
        except KnockaboutError as exc:
            raise ApiError(404, str(exc)) from None
        return FileResponse(path, media_type="text/javascript")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
