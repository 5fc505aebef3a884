"""Chat at a table: the WebSocket messages and a finished game's chat for its replay.

Over the table's WebSocket (:mod:`.play` reads them with its other messages):

  {"type": "chat", "text": TEXT}        a line (at most 200 characters) or
  {"type": "chat", "phrase": KEY}       a quick phrase ("good-game", "well-played", "oops", ...)
  {"type": "mute", "who": SENDER, "muted": true|false}
                                        hide a sender's lines from yourself only

The server sends ``{"type": "chat", "lines": [...]}`` for new lines (and once after the
sync, the lines so far with ``muted`` and ``you``, the sender this connection speaks as);
a refusal is one ``{"type": "error"}``. Players write the players' channel (read by
everyone at the table), spectators the spectators' (read by spectators only); see
:mod:`knockabout.server.chat`.

  GET  /api/chat/phrases                the quick phrases, by key
  GET  /api/tables/{id}/chat            a finished game's players' chat (its replay shows it)
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from knockabout.server.app_state import ApiError, Server
from knockabout.server.chat import MAX_CHARS, PHRASES

router = APIRouter()


class ChatMessage(BaseModel):
    """A line said at the table: ``text`` or a quick ``phrase``'s key."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["chat"]
    text: str | None = Field(None, max_length=4 * MAX_CHARS)  # cleaned and measured by the room
    phrase: str | None = Field(None, max_length=40)


class Mute(BaseModel):
    """Hide (``muted``: true) or show again one sender's lines, for this reader only."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["mute"]
    who: str = Field(min_length=1, max_length=64)
    muted: bool = True


@router.get("/api/chat/phrases")
async def phrases() -> dict[str, Any]:
    return {"phrases": [{"key": k, "text": v} for k, v in PHRASES.items()], "max_chars": MAX_CHARS}


@router.get("/api/tables/{table_id}/chat")
async def finished_chat(table_id: str, server: Server) -> dict[str, Any]:
    """The players' chat of a finished game (a live game's chat goes only to those at it)."""
    st = await asyncio.to_thread(server.store.get, table_id)
    if st is None:
        raise ApiError(404, f"no table {table_id!r}")
    if st.status != "finished":
        raise ApiError(409, "a live game's chat is for those at the table; it is shown with the replay")
    return {"id": st.id, "lines": await asyncio.to_thread(server.store.chat, table_id, "players")}
