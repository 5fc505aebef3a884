"""What the server's routers share: one :class:`ServerState` per application, reached
through FastAPI dependencies (never through closures over ``create_app``'s locals).

``create_app`` builds the parts that need no database (the settings, the per-address
quotas, the replay cache); its lifespan opens the store and the table manager and puts the
whole state on ``app.state.server``. A route asks for it with a parameter typed
:data:`Server` (or for the live table it names with :func:`live_table`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, ParamSpec, TypeVar

from fastapi import Depends
from starlette.requests import HTTPConnection

from knockabout.server.live import LiveTable, Manager
from knockabout.server.ownership import TableMoving
from knockabout.server.passwords import Passwords
from knockabout.server.quickmatch import QuickMatch, Ticket
from knockabout.server.quotas import LoginLimits, Quotas
from knockabout.server.replays import ReplayCache
from knockabout.server.settings import ServerSettings
from knockabout.server.studio_jobs import StudioJobs
from knockabout.store import Store

if TYPE_CHECKING:
    from knockabout.server.sessions import Sessions

P = ParamSpec("P")
T = TypeVar("T")


class ApiError(Exception):
    """A refusal by a route: HTTP ``status`` and ``{"error": message}``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class ServerState:
    """Everything one running server's routes share."""

    settings: ServerSettings
    quotas: Quotas
    replays: ReplayCache
    store: Store
    manager: Manager
    quickmatch: QuickMatch
    studio: StudioJobs
    sessions: Sessions  # session cookies and CSRF tokens (see .sessions)
    passwords: Passwords
    logins: LoginLimits  # log-in and sign-up rates

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args)`` on a worker thread (the store's reads and account writes)."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def names_of(self, players: Sequence[str]) -> dict[str, str]:
        """The names of the ladder players (``account:ID`` keys) that are living accounts,
        by key (a deleted account is left out of every ladder)."""
        ids = {p.partition(":")[2]: p for p in players if p.startswith("account:")}
        names = await self.run(self.store.accounts.names, list(ids))
        return {ids[i]: name for i, name in names.items()}

    async def link_ticket(self, ticket: Ticket, table_id: str, seat: int) -> None:
        """A quick-match seat taken by a logged-in person is their account's."""
        if ticket.account is not None:
            await self.run(self.store.accounts.link_seat, table_id, seat, ticket.account)


def server_state(conn: HTTPConnection) -> ServerState:
    """The running application's :class:`ServerState` (for a request or a WebSocket)."""
    state: ServerState = conn.app.state.server
    return state


Server = Annotated[ServerState, Depends(server_state)]
"""A route parameter typed ``Server`` receives the application's :class:`ServerState`."""


def client_address(conn: HTTPConnection) -> str:
    """The address the per-address limits count a request or a WebSocket under."""
    return conn.client.host if conn.client is not None else "unknown"


def owner_of(conn: HTTPConnection) -> str:
    """Whose a request's own things are (a content version it uploads, the tables made with
    it) when no account is logged in: a guest is known by their address
    (``guest:ADDRESS``); the studio's routes give a logged-in account's own key instead."""
    return f"guest:{client_address(conn)}"


async def live_table(server: ServerState, table_id: str) -> LiveTable:
    """The live table ``table_id`` (taken from the server that held it, if another did:
    :meth:`Manager.acquire`); a 404 refusal when there is none, a 503 when it is still
    moving from another server."""
    try:
        live = await server.manager.acquire(table_id)
    except TableMoving as exc:
        raise ApiError(503, exc.plain) from None
    if live is None:
        live = server.manager.get(table_id)  # (a finished table may stay live a while)
    if live is None:
        raise ApiError(404, f"no live table {table_id!r}")
    return live
