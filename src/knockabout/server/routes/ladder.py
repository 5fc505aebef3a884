"""Quick match and ratings.

  POST   /api/quickmatch {game, players?, name?}
                                        start waiting for a table of that game and number of
                                        players -> {ticket, status: "waiting", rating, ...}
                                        (logged in: as the account, by its name and rating)
  GET    /api/quickmatch/{ticket}       how the wait goes: "waiting" (with the seconds
                                        waited), "seated" (table, seat, token: go and play)
                                        or "failed" (why)
  DELETE /api/quickmatch/{ticket}       stop waiting
  GET    /api/games/{game}/leaderboard  the game's rated players (best first, by the
                                        cautious estimate) and its bot levels' ratings
  GET    /api/tables/{id}/ratings       what a finished table did to its seats' ratings

The ticket is a secret (~144 bits): only its holder learns the seat it gets. See
:mod:`knockabout.server.quickmatch` and :mod:`knockabout.ladder`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from knockabout.core.errors import KnockaboutError
from knockabout.core.registry import get_game
from knockabout.ladder.ratings import SHOWN_START, account_key, bot_key
from knockabout.server.app_state import ApiError, Server
from knockabout.server.live import clean_name
from knockabout.server.quickmatch import BOT_LEVELS
from knockabout.server.ratings import account_rating, bot_ratings, change_json, rating_json
from knockabout.server.sessions import Me

router = APIRouter()


class QuickMatchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=64)
    players: int | None = Field(None, ge=2, le=16)
    name: str = Field("", max_length=64)


@router.post("/api/quickmatch")
async def quick_match(body: QuickMatchRequest, server: Server, me: Me) -> dict[str, Any]:
    """A logged-in person waits as their account (by its name and its rating at the game,
    their seat then linked to it, so the table can be rated); a guest as a new player."""
    try:
        game = get_game(body.game)
        if me.account is not None:
            rating = await account_rating(server.store, game.id, me.account.id)
            ticket = await server.quickmatch.join(game.id, body.players, me.account.name, account_key(me.account.id),
                                                  float(rating.shown), me.account.id)
        else:
            ticket = await server.quickmatch.join(game.id, body.players, clean_name(body.name) or "Player", None,
                                                  float(SHOWN_START))
    except KnockaboutError as exc:
        raise ApiError(409, str(exc)) from None
    return await server.quickmatch.status(ticket.id)


@router.get("/api/quickmatch/{ticket}")
async def quick_match_status(ticket: str, server: Server) -> dict[str, Any]:
    try:
        return await server.quickmatch.status(ticket)
    except KnockaboutError as exc:
        raise ApiError(404, str(exc)) from None


@router.delete("/api/quickmatch/{ticket}")
async def quick_match_leave(ticket: str, server: Server) -> dict[str, Any]:
    if not await server.quickmatch.leave(ticket):
        raise ApiError(404, "this ticket is not waiting (it was seated, left, or never was)")
    return {"ticket": ticket, "status": "left"}


@router.get("/api/games/{game_id}/leaderboard")
async def leaderboard(game_id: str, server: Server) -> dict[str, Any]:
    try:
        game = get_game(game_id)
    except KnockaboutError as exc:
        raise ApiError(404, str(exc)) from None
    top = await asyncio.to_thread(server.store.ratings.top, game.id, "account:", 100)
    names = await server.names_of([r.player for r in top])
    people = []
    for rank, r in enumerate((r for r in top if r.player in names), start=1):
        people.append({"rank": rank, "name": names[r.player], **rating_json(r, r.player)})
    bots = await bot_ratings(server.store, game.id, BOT_LEVELS)
    return {"game": game.id, "name": game.name, "people": people,
            "bots": [{"level": level, "name": f"Bot ({level})", **rating_json(bots[bot_key(level)], bot_key(level))}
                     for level in BOT_LEVELS]}


@router.get("/api/tables/{table_id}/ratings")
async def table_ratings(table_id: str, server: Server) -> dict[str, Any]:
    st = await asyncio.to_thread(server.store.get, table_id)
    if st is None:
        raise ApiError(404, f"no table {table_id!r}")
    changes = await asyncio.to_thread(server.store.ratings.changes, table_id)
    names = [str(s.get("name") or f"Seat {i + 1}") for i, s in enumerate(st.seats)]
    return {"id": table_id, "rated": bool(changes), "changes": [change_json(c, names) for c in changes]}
