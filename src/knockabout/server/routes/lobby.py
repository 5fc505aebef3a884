"""The lobby: the games a server plays (their options, bot levels and rules pages) and the
public list of recent tables.

  GET  /api/games                       games, their options and the bot levels, with each
                                        game's lobby info (summary, length, option choices),
                                        whether it has a tutorial and the bot levels it
                                        offers (``learned`` only where a network ships)
  GET  /api/games/{game}/rules          the game's rules page rendered to HTML
  GET  /api/tables                      recent listed tables
  POST /api/turns {seats: [{table, token}]}
                                        of the seats these tokens open, those whose
                                        decision is pending now ("your turn"), with the
                                        time they have left
  WS   /ws/lobby                        the lobby's updates: ``{"type": "tables", "changed":
                                        [{id, game, status, what}, ...]}`` whenever listed
                                        tables are made, joined, started or finished on any
                                        server of the deployment (see server/lobby_feed.py);
                                        the page then reads /api/tables again
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ConfigDict, Field

from knockabout.bots.levels import LEVELS, levels_for
from knockabout.core.errors import KnockaboutError
from knockabout.core.registry import all_games, get_game
from knockabout.server.app_state import ApiError, Server
from knockabout.server.guards import GONE, BadFrame, close_safely, receive_text
from knockabout.server.live import local_only_options
from knockabout.server.lobby_feed import LobbyFeed
from knockabout.server.quotas import TOO_MANY
from knockabout.server.rules import rules_html
from knockabout.table.turn_based import MOVE_TIMES

router = APIRouter()


@router.get("/api/games")
async def games() -> dict[str, Any]:
    out = []
    for g in all_games():
        schema = g.config_model.model_json_schema()
        hidden = local_only_options(g) | {"players"}
        options = {k: v for k, v in schema.get("properties", {}).items() if k not in hidden}
        info = g.lobby()
        out.append({"id": g.id, "name": g.name, "min_players": g.min_players, "max_players": g.max_players,
                    "default_players": g.facts.default_players, "options": options,
                    "lobby": None if info is None else info.to_dict(), "tutorial": g.tutorial is not None,
                    "turn_based": _turn_based(g), "bots": levels_for(g.id)})
    return {"games": out, "bots": list(LEVELS), "move_times": list(MOVE_TIMES)}


def _turn_based(game: Any) -> dict[str, Any] | None:
    """What a turn-based table of ``game`` sets (None: it cannot be played turn-based)."""
    rules = game.turn_based()
    if rules is None:
        return None if game.facts.timed_decisions else {"options": {}}
    return {"options": dict(rules.options)}


class SeatToken(BaseModel):
    model_config = ConfigDict(extra="forbid")
    table: str = Field(min_length=1, max_length=64)
    token: str = Field(min_length=1, max_length=200)


class Turns(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: list[SeatToken] = Field(max_length=200)


@router.post("/api/turns")
async def turns(body: Turns, server: Server) -> dict[str, Any]:
    """The seats (by their tokens) whose decision is pending: "your turn"."""
    out = []
    for s in body.seats:
        live = server.manager.get(s.table)
        if live is None:
            continue
        try:
            seat = live.seat_of(s.token)
        except KnockaboutError:
            continue
        if seat is not None and live.waits_for(seat):
            out.append(live.turn_info(seat))
    out.sort(key=lambda t: (t["left"] is None, t["left"] or 0.0))
    return {"turns": out}


@router.get("/api/games/{game_id}/rules")
async def rules(game_id: str) -> dict[str, Any]:
    try:
        game = get_game(game_id)
        return {"game": game.id, "name": game.name, "html": rules_html(game)}
    except KnockaboutError as exc:
        raise ApiError(404, str(exc)) from None


@router.get("/api/tables")
async def tables(server: Server) -> dict[str, Any]:
    m = server.manager
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


@router.websocket("/ws/lobby")
async def lobby_updates(ws: WebSocket) -> None:
    feed: LobbyFeed = ws.app.state.lobby_feed
    await ws.accept()
    if feed.full():
        await close_safely(ws, TOO_MANY, "this server keeps as many lobby pages up to date as it can; reload later")
        return
    feed.watchers.add(ws)
    try:
        while True:  # nothing to read: the page only listens (what it sends is dropped)
            try:
                await receive_text(ws)
            except BadFrame:
                continue
    except GONE:
        return
    finally:
        feed.watchers.discard(ws)
