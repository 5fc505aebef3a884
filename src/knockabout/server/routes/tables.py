"""One table: make it, read its public facts, take a seat, play it again.

  POST /api/tables                      create a table -> {id, seat, token, invites}
                                        (``listed``: false keeps it out of the lobby;
                                        a seat ``invite`` is kept for its invite link;
                                        ``undo``: people may take back moves)
  GET  /api/tables/{id}                 one table's public facts
  POST /api/tables/{id}/join            take a free seat, or with ``invite`` the seat
                                        kept for that code -> {seat, token}
  POST /api/tables/{id}/rematch         a finished table again (same seats and options,
                                        a new seed) -> {id, seat, token}

A table of an uploaded content version (its ``content`` option) is made by the version's
uploader in the studio (``POST /api/studio/versions/{id}/tables``), never here.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from knockabout.core.content_versions import CONTENT_OPTION
from knockabout.core.errors import KnockaboutError
from knockabout.server.app_state import ApiError, Server, ServerState, client_address, live_table
from knockabout.server.live import LiveTable
from knockabout.server.ownership import TableMoving
from knockabout.server.sessions import Me, Viewer

router = APIRouter()


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=64)
    seats: list[str] = Field(min_length=1, max_length=16)
    config: dict[str, Any] = Field(default_factory=dict)
    name: str = Field("", max_length=64)
    seed: int | None = Field(None, ge=0, lt=2**63)
    listed: bool = Field(True, description="show the table in the public lobby (else only its link finds it)")
    move_time: float | None = Field(None, description="a turn-based table: seconds per move (1 hour to 14 days)")
    undo: bool = Field(False, description="let people take back moves (public ones only; others at the table "
                                          "must accept)")


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field("", max_length=64)
    seat: int | None = Field(None, ge=0, lt=64, description="0-based seat; the first free one when left out")
    invite: str | None = Field(None, min_length=1, max_length=64, description="the code of an invite link")


class Rematch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)


async def link(server: ServerState, me: Viewer, table_id: str, seat: int | None) -> None:
    """A seat a logged-in person took is their account's (see the accounts' profiles)."""
    if me.account is not None and seat is not None:
        await server.run(server.store.accounts.link_seat, table_id, seat, me.account.id)


@router.post("/api/tables")
async def create(body: CreateTable, request: Request, server: Server, me: Me) -> dict[str, Any]:
    if body.config.get(CONTENT_OPTION):
        raise ApiError(400, "a table of an uploaded content version is made in the studio, by its uploader")
    # (the manager checks the request and the caps first, then counts the table against the rates)
    name = me.account.name if me.account is not None else body.name  # a logged-in person plays by their name
    live, seat, token = await server.manager.create(body.game, body.seats, body.config, name, body.seed,
                                                    listed=body.listed, address=client_address(request),
                                                    move_time=body.move_time, undo=body.undo)
    await link(server, me, live.id, seat)
    return made(live, seat, token)


def made(live: LiveTable, seat: int | None, token: str | None) -> dict[str, Any]:
    """The answer to the creator of a new table: its id, their seat and token, and the
    invite links of its kept seats (given once: the codes are stored hashed)."""
    invites = [{"seat": i, "url": f"/t/{live.id}#invite={code}"} for i, code in sorted(live.new_invites.items())]
    live.new_invites = {}
    return {"id": live.id, "seat": seat, "token": token, "url": f"/t/{live.id}", "invites": invites,
            "table": live.info()}


@router.get("/api/tables/{table_id}")
async def table_info(table_id: str, server: Server) -> dict[str, Any]:
    live = server.manager.get(table_id)
    if live is None:
        try:
            live = await server.manager.acquire(table_id)  # an unfinished table another server held
        except TableMoving as exc:
            raise ApiError(503, exc.plain) from None
    if live is not None:
        return live.info()
    st = await asyncio.to_thread(server.store.get, table_id)
    if st is None:
        raise ApiError(404, f"no table {table_id!r}")
    return {"id": st.id, "game": st.game, "status": st.status, "seats": [
        {"kind": s["kind"], "name": s["name"], "level": s.get("level")} for s in st.seats],
        "outcome": st.result, "free_seats": [], "steps": len(st.actions),
        "version": len(st.actions)}  # (as a live table's: the number of actions taken)


@router.post("/api/tables/{table_id}/join")
async def join(table_id: str, body: JoinTable, server: Server, me: Me) -> dict[str, Any]:
    live = await live_table(server, table_id)
    if live.table.over:
        raise ApiError(409, "this game is over; watch its replay instead")
    try:
        name = me.account.name if me.account is not None else body.name
        seat, token = await server.manager.join(live, name, body.seat, body.invite)
    except KnockaboutError as exc:
        raise ApiError(409, str(exc)) from None
    await link(server, me, live.id, seat)
    return {"id": live.id, "seat": seat, "token": token, "url": f"/t/{live.id}"}


@router.post("/api/tables/{table_id}/rematch")
async def rematch(table_id: str, body: Rematch, server: Server, me: Me) -> dict[str, Any]:
    live = await live_table(server, table_id)
    try:
        again, seat, token = await server.manager.rematch(live, body.token)
    except KnockaboutError as exc:
        raise ApiError(409, str(exc)) from None
    if again.table.record.config.get(CONTENT_OPTION):  # a playtest's rematch is one of its version's tables
        await asyncio.to_thread(server.store.content.link_rematch, live.id, again.id)
    await link(server, me, again.id, seat)
    return {"id": again.id, "seat": seat, "token": token, "url": f"/t/{again.id}"}
