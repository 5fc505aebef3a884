"""Finished games: step by step, and as a record to download.

  GET  /api/tables/{id}/replay/{step}   a finished game, step by step
  GET  /api/tables/{id}/record          a finished game's replay record (JSON)

A live game is never replayed (its record holds the seed).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from knockabout.core.content_versions import CONTENT_OPTION
from knockabout.core.registry import get_game
from knockabout.core.replay import GameRecord
from knockabout.server.app_state import ApiError, Server, ServerState

router = APIRouter()


@router.get("/api/tables/{table_id}/record")
async def record(table_id: str, server: Server) -> JSONResponse:
    """A finished game's replay record (``knockabout replay FILE`` reads it)."""
    st = await asyncio.to_thread(server.store.get, table_id)
    if st is None:
        raise ApiError(404, f"no table {table_id!r}")
    if st.status != "finished":
        raise ApiError(409, "only finished games can be downloaded (the record holds the seed)")
    # the names the table showed go with it, so a replay says "Alice wins", not "Player 1 wins"
    # a playtest's content version goes with it, so the record replays where it was never uploaded
    version = str(st.config.get(CONTENT_OPTION) or "")
    found = await asyncio.to_thread(server.store.content.fetch, version) if version else None
    rec = GameRecord(game=st.game, rules_version=st.rules_version, config=st.config, seed=st.seed,
                     content_hash=st.content_hash, actions=st.actions, names=[s["name"] for s in st.seats],
                     content_files=found[1] if found is not None and found[0] == st.game else None)
    return JSONResponse(rec.to_dict(), headers={
        "content-disposition": f'attachment; filename="{st.game}-{st.id}.json"'})


@router.get("/api/tables/{table_id}/replay/{step}")
async def replay_step(table_id: str, step: int, server: Server) -> dict[str, Any]:
    return await asyncio.to_thread(replay_at, server, table_id, step)


def replay_at(server: ServerState, table_id: str, step: int) -> dict[str, Any]:
    """One step of a finished game, read and replayed on a worker thread."""
    st = server.store.get(table_id)
    if st is None:
        raise ApiError(404, f"no table {table_id!r}")
    if st.status != "finished":
        raise ApiError(409, "only finished games can be replayed (no peeking at a live game)")
    if not 0 <= step <= len(st.actions):
        raise ApiError(404, f"step {step} is outside 0-{len(st.actions)}")
    game = get_game(st.game)
    at = server.replays.step(st, step)
    state, events, actor = at.state, at.events, at.actor
    names = [s["name"] for s in st.seats]
    n = state.num_players
    guide = game.guide()
    said = None  # the action in the words the table used: labelled on the actor's view before it
    if step and actor is not None and guide is not None:
        said = guide.label(server.replays.step(st, step - 1).state.observe(actor), st.actions[step - 1], names)
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
