"""Quick match and ratings.

  POST   /api/quickmatch {game, players?, name?}
                                        start waiting for a table of that game and number of
                                        players -> {ticket, status: "waiting", rating, ...}
  GET    /api/quickmatch/{ticket}       how the wait goes: "waiting" (with the seconds
                                        waited), "seated" (table, seat, token: go and play)
                                        or "failed" (why)
  DELETE /api/quickmatch/{ticket}       stop waiting

The ticket is a secret (~144 bits): only its holder learns the seat it gets. See
:mod:`knockabout.server.quickmatch` and :mod:`knockabout.ladder`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from knockabout.core.errors import KnockaboutError
from knockabout.ladder.ratings import SHOWN_START
from knockabout.server.app_state import ApiError, Server
from knockabout.server.live import clean_name

router = APIRouter()


class QuickMatchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=64)
    players: int | None = Field(None, ge=2, le=16)
    name: str = Field("", max_length=64)


@router.post("/api/quickmatch")
async def quick_match(body: QuickMatchRequest, server: Server) -> dict[str, Any]:
    try:
        ticket = server.quickmatch.join(body.game, body.players, clean_name(body.name) or "Player", None,
                                        float(SHOWN_START))
    except KnockaboutError as exc:
        raise ApiError(409, str(exc)) from None
    return server.quickmatch.status(ticket.id)


@router.get("/api/quickmatch/{ticket}")
async def quick_match_status(ticket: str, server: Server) -> dict[str, Any]:
    try:
        return server.quickmatch.status(ticket)
    except KnockaboutError as exc:
        raise ApiError(404, str(exc)) from None


@router.delete("/api/quickmatch/{ticket}")
async def quick_match_leave(ticket: str, server: Server) -> dict[str, Any]:
    if not server.quickmatch.leave(ticket):
        raise ApiError(404, "this ticket is not waiting (it was seated, left, or never was)")
    return {"ticket": ticket, "status": "left"}
