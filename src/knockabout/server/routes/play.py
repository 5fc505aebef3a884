"""Playing and watching: one WebSocket per seat or spectator.

  WS   /ws/tables/{id}                  first message {"type": "hello", "token": ...}
                                        (no token: spectator); then
                                        {"type": "act", "action": TEXT, "version": N},
                                        {"type": "answer", "answer": [ID, ...], "version": N}
                                        (a judged decision's challenge), {"type": "challenge"}
                                        ({"open": true, "version": N}: open a closed one),
                                        {"type": "sync"} (a fresh sync), {"type": "ping"},
                                        {"type": "undo", "version": N} (take back your
                                        last move), {"type": "undo_answer", "id": K,
                                        "accept": BOOL} (see server/undo.py),
                                        and the chat's {"type": "chat"}, {"type": "mute"}
                                        (see .chat);
                                        the server sends a sync, then on each change a
                                        patch of the last message (see server/frames.py)

Bad frames get one error message and change nothing (:mod:`..guards`); messages over the
per-address rate too; a table with all its spectators closes a new one with code 4429.
A table another server holds is taken from it first (:mod:`..ownership`); a table that
moves to another server meanwhile closes its connections with code 1012 (connect again).
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from knockabout.core.errors import KnockaboutError
from knockabout.server.app_state import Server, ServerState, client_address
from knockabout.server.guards import (
    GONE,
    BadFrame,
    close_safely,
    first_problem,
    json_problem,
    receive_text,
    send_safely,
)
from knockabout.server.live import Connection, LiveTable, clean_name
from knockabout.server.ownership import MOVED, TRY_AGAIN, TableMoved, TableMoving
from knockabout.server.quotas import TOO_MANY
from knockabout.server.routes.chat import ChatMessage, Mute

router = APIRouter()


Version = Annotated[int, Field(strict=True)]
"""The table version a client acts on: a JSON integer only (not ``true``, ``"1"`` or ``1.0``,
which pydantic's lax mode would read as 1)."""


class Hello(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["hello"]
    token: str | None = Field(None, max_length=200)
    name: str | None = Field(None, max_length=64, description="a spectator's name in the chat")


class Act(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["act"]
    action: str = Field(min_length=1, max_length=200)
    version: Version


class Answer(BaseModel):
    """An answer to the seat's open challenge (e.g. the tower's cube ids, bottom first)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["answer"]
    answer: list[Annotated[str, Field(min_length=1, max_length=32)]] = Field(max_length=64)
    version: Version


class ChallengeRequest(BaseModel):
    """Ask again for the seat's open challenge (it also comes with each update); with
    ``open``, open a closed one (a turn-based table's: its seconds start now)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["challenge"]
    open: bool = False
    version: Version | None = None


class Ping(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["ping"]


class SyncRequest(BaseModel):
    """Ask for a fresh sync (a client whose copy a patch did not fit)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["sync"]


class UndoAsk(BaseModel):
    """Take back your last move and everything after it, as seen at ``version``: at once
    against bots, else a request the other people answer (see :mod:`...undo`)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["undo"]
    version: Version


class UndoAnswer(BaseModel):
    """Accept or refuse the open request ``id`` to take back a move."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["undo_answer"]
    id: Annotated[int, Field(strict=True, ge=0, lt=2**53)]
    accept: Annotated[bool, Field(strict=True)]


Message = Act | Answer | ChallengeRequest | Ping | SyncRequest | ChatMessage | Mute | UndoAsk | UndoAnswer
ClientMessage: TypeAdapter[Message] = TypeAdapter(Annotated[Message, Field(discriminator="type")])


@router.websocket("/ws/tables/{table_id}")
async def play(ws: WebSocket, table_id: str, server: Server) -> None:
    try:
        await ws.accept()
        await session(server, ws, table_id)
    except GONE:
        return  # the client went away mid-way (also while its message waited for the table)


async def session(server: ServerState, ws: WebSocket, table_id: str) -> None:
    try:
        live = await server.manager.acquire(table_id)  # (from the server that held it, if another did)
    except TableMoving as exc:
        await send_safely(ws, {"type": "error", "message": exc.plain})
        await close_safely(ws, TRY_AGAIN, exc.plain[:120])
        return
    if live is None:  # a table that ended (maybe on another server while its player was away): its end
        live = await server.manager.ended(table_id)
    if live is None:
        await send_safely(ws, {"type": "error", "message": f"no live table {table_id!r}"})
        await close_safely(ws, 4404, "no such live table")
        return
    try:
        hello = Hello.model_validate_json(await receive_text(ws))
        seat = live.seat_of(hello.token)
    except (ValidationError, BadFrame) as exc:
        msg = (json_problem(exc) or first_problem(exc)) if isinstance(exc, ValidationError) else str(exc)
        await send_safely(ws, {"type": "error", "message": f"the first message must be hello: {msg}"})
        await close_safely(ws, 4400, f"the first message must be hello: {msg}")
        return
    except KnockaboutError as exc:
        await send_safely(ws, {"type": "error", "message": str(exc)})
        await close_safely(ws, 4403, str(exc))
        return
    most = server.settings.max_spectators
    if seat is None and live.spectators() >= most:
        why = f"this table has {most} spectators already, the most it takes"
        await send_safely(ws, {"type": "error", "message": why})
        await close_safely(ws, TOO_MANY, why)
        return
    conn = Connection(ws, seat, name=clean_name(hello.name or "") if seat is None else "")
    try:
        await live.connect(conn)
    except TableMoved as exc:  # let go meanwhile: connecting again reaches the table where it is now
        await close_safely(ws, MOVED, exc.plain[:120])
        return
    address = client_address(ws)
    try:
        while True:
            try:
                text = await receive_text(ws)
            except BadFrame as exc:
                await live.send(conn, {"type": "error", "message": f"{exc}; nothing changed"})
                continue
            refusal = await server.quotas.message_refusal(address)
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
        why = json_problem(exc) or first_problem(exc)
        await live.send(conn, {"type": "error", "message": f"malformed message ({why}); nothing changed"})
        return
    if isinstance(msg, Ping):
        await live.send(conn, {"type": "pong"})
        return
    if isinstance(msg, SyncRequest):
        await live.resync(conn)
        return
    try:
        if isinstance(msg, ChallengeRequest):
            if msg.open:
                await live.open_challenge(conn, msg.version)
            else:
                await live.send(conn, live.challenge_message(conn))
        elif isinstance(msg, ChatMessage):
            await live.say(conn, msg.text, msg.phrase)
        elif isinstance(msg, Mute):
            await live.mute(conn, msg.who, msg.muted)
        elif isinstance(msg, Answer):
            await live.answer(conn, msg.answer, msg.version)
        elif isinstance(msg, UndoAsk):
            await live.ask_undo(conn, msg.version)
        elif isinstance(msg, UndoAnswer):
            await live.answer_undo(conn, msg.id, msg.accept)
        else:
            await live.act(conn, msg.action, msg.version)
    except KnockaboutError as exc:
        await live.send(conn, {"type": "error", "message": exc.plain, "version": live.table.version})
