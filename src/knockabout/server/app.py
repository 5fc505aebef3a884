"""The web server: the application that ``knockabout serve`` runs.

``create_app`` puts together one FastAPI router per concern (``server/routes/``):

  lobby     GET /api/games, /api/games/{game}/rules, /api/tables (the public list)
  tables    POST /api/tables, GET /api/tables/{id}, POST .../join, .../rematch
  play      WS /ws/tables/{id} (a seat's or a spectator's connection)
  replays   GET /api/tables/{id}/replay/{step}, /api/tables/{id}/record
  learn     GET /learn/{game}, POST /api/learn/{game} (a game's tutorial, one input at a time)
  studio    GET/POST /api/studio/... (the content editor: schema, shipped documents, checks,
            previews, TOML files)
  accounts  GET /api/account, POST /api/account/{signup,login,logout,password,delete,claim},
            GET /api/accounts/{name} (a profile), and their pages (optional accounts)
  pages     GET /, /t/{id}, /replay/{id}, /studio, /games/{game}/renderer.js (and /static)
  host      GET /healthz (a load balancer's health check), /api/host (this host's leases)

Each route's own module lists what it takes and answers. The routers share the running
server's :class:`~knockabout.server.app_state.ServerState` (settings, quotas, replay cache,
store, table manager, sessions, passwords, log-in limits) through a dependency; the
lifespan below makes it. Who is asking (a logged-in account or a guest) is another
dependency, :data:`~knockabout.server.sessions.Me`.

Input guards (:mod:`.guards`): every refusal is ``{"error": ...}``, request bodies stop at
64 KiB, WebSocket messages at 16 Ki characters; bad frames get one error and change nothing.
Limits (:mod:`.quotas`, set in :class:`ServerSettings`): new tables and messages per
address, new tables on the whole server, live tables and live bot-only tables, spectators
per table; a refusal is HTTP 429, a WebSocket
error message, or a close with code 4429.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from knockabout.core import content_versions
from knockabout.core.errors import KnockaboutError
from knockabout.core.registry import game_ids
from knockabout.ladder.matching import MatchPolicy
from knockabout.server.app_state import ApiError, ServerState
from knockabout.server.bus import make_bus
from knockabout.server.collector import CollectorSchedule
from knockabout.server.guards import BodyLimit, first_problem, install_error_handlers
from knockabout.server.live import Manager
from knockabout.server.lobby_feed import LobbyFeed
from knockabout.server.match_tickets import ticket_store
from knockabout.server.memory_probe import MemoryProbe
from knockabout.server.passwords import Passwords
from knockabout.server.quickmatch import BOT_LEVELS, QuickMatch
from knockabout.server.quotas import LimitReached, LoginLimits, Quotas
from knockabout.server.ratings import bot_ratings, end_hook
from knockabout.server.replays import ReplayCache
from knockabout.server.routes import accounts, chat, host, ladder, learn, lobby, pages, play, replays, studio, tables
from knockabout.server.sessions import Sessions
from knockabout.server.settings import ServerSettings
from knockabout.server.shards import OneRequestPerConnection
from knockabout.server.studio_jobs import StudioJobs
from knockabout.store import Store


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """The application. ``settings`` pick the database and the table timings."""
    cfg = settings or ServerSettings()
    # a bad rate fails here, before serving
    quotas = Quotas(cfg.create_rate, cfg.message_rate, cfg.shards, cfg.server_create_rate, storage=cfg.redis_url)
    replay_cache = ReplayCache()
    logins = LoginLimits(cfg.login_rate, cfg.account_login_rate, cfg.signup_rate, cfg.shards, storage=cfg.redis_url)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(cfg.db_url, Path(cfg.data_dir) if cfg.data_dir else None, writer=cfg.store_writer,
                      idle_transaction_seconds=cfg.lease_seconds)
        # a table naming an uploaded content version this process has not written to disk
        # reads its files from the database (a resumed table, a replay, another worker's upload)
        forget_content = content_versions.add_fetcher(store.content.fetch)
        bus = make_bus(cfg.redis_url)  # what the hosts tell each other (Redis; in memory for a server alone)
        lobby_feed = LobbyFeed(bus)
        manager = Manager(cfg, store, quotas, bus=bus, lobby=lobby_feed)
        manager.on_end = end_hook(store, store.accounts.account_ids_at)  # a finished table is rated, its people told
        quickmatch = QuickMatch(manager, MatchPolicy(bot_after=cfg.bot_fill_after),
                                bot_ratings=lambda game: bot_ratings(store, game, BOT_LEVELS),
                                store=ticket_store(cfg.redis_url, manager.holder), bus=bus)
        studio_jobs = StudioJobs(cfg.studio_workers, cfg.studio_jobs, shard=cfg.shard, shards=cfg.shards)
        key = store.accounts.secret("session-key", lambda: secrets.token_urlsafe(48))  # one per database
        store.accounts.end_expired_sessions()
        server = ServerState(settings=cfg, quotas=quotas, replays=replay_cache, store=store, manager=manager,
                             quickmatch=quickmatch, studio=studio_jobs, sessions=Sessions(key, cfg.secure_cookies),
                             passwords=Passwords(), logins=logins)
        quickmatch.on_seated = server.link_ticket  # a logged-in person's quick-match seat is their account's
        app.state.server = server
        app.state.store = store  # (the parts tests and tools reach for by name)
        app.state.manager = manager
        app.state.replays = server.replays
        app.state.resumed = manager.resume_all()
        app.state.lobby_feed = lobby_feed
        await bus.start()
        store.open_writer()
        manager.ownership.start()  # renew this server's leases, take the tables nobody holds
        if cfg.warm_bots:
            manager.thinkers.warm_all(game_ids())
        collector = CollectorSchedule(cfg.full_gc_every)  # full collections on a schedule (see .collector)
        collector.start()
        app.state.collector = collector
        probe = MemoryProbe.from_environment()  # (KNOCKABOUT_TRACE_MEMORY: snapshots for finding what grows)
        if probe is not None:
            probe.start()
        try:
            yield
        finally:
            await collector.stop()
            await quickmatch.close()
            studio_jobs.close()
            if probe is not None:
                await probe.stop()
            await manager.close()
            forget_content()
            await lobby_feed.close()
            await bus.close()
            store.close_writer()  # what was queued is written, then the leases go (other servers take them at once)
            with contextlib.suppress(Exception):
                manager.ownership.release_all()
            store.close()

    app = FastAPI(title="knockabout", lifespan=lifespan)
    app.add_middleware(BodyLimit)
    if cfg.shards > 1:  # a worker of serve --workers: the front routes each request by its own line
        app.add_middleware(OneRequestPerConnection)
    install_error_handlers(app)
    install_refusals(app)
    for routes in (lobby, tables, play, chat, ladder, replays, learn, studio, accounts, pages, host):
        app.include_router(routes.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    return app


def install_refusals(app: FastAPI) -> None:
    """How the routes' own refusals answer: ``{"error": ...}`` with their status."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(LimitReached)
    async def limit_reached(request: Request, exc: LimitReached) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=429)

    @app.exception_handler(KnockaboutError)
    async def game_error(request: Request, exc: KnockaboutError) -> JSONResponse:
        return JSONResponse({"error": exc.plain}, status_code=400)  # a person reads it: in the game's words

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        not_json = any(e.get("type") == "json_invalid" for e in exc.errors())
        return JSONResponse({"error": f"bad request: {first_problem(exc)}"}, status_code=400 if not_json else 422)
