"""Tutorials in the browser: a game's lesson, one input at a time.

  GET  /learn/{game}                    the front end's page (it reads the path)
  POST /api/learn/{game}                ``{"inputs": [...], "input": "..."}``: the lesson after
                                        the inputs accepted so far and the new one

The server keeps nothing: a lesson is its scenario and the learner's accepted inputs (moves
and ``next``), which the browser sends back each time; replaying them gives the very table
again (the scenario's arrangement and seed fix everything), so a lesson survives a restart
and any worker of ``serve --workers`` can answer. The answer is the message a table's
WebSocket sends (:func:`~knockabout.server.frames.update_message`, built from the learner's
:meth:`~knockabout.table.Table.updates_for` like any seat's) with the step panel in
``tutorial``: the step, its highlight, the feedback, and the accepted inputs to send next time.
A refused input is a correction in the panel, never an error, and changes nothing.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from knockabout.core.errors import KnockaboutError
from knockabout.core.events import Event
from knockabout.core.registry import get_game
from knockabout.server.app_state import ApiError
from knockabout.server.frames import update_message
from knockabout.server.routes.pages import INDEX
from knockabout.tutorial import MAX_STEPS, Lesson

router = APIRouter()


class LessonInput(BaseModel):
    model_config = ConfigDict(extra="forbid")
    inputs: list[str] = Field(default_factory=list, max_length=MAX_STEPS,
                              description="the inputs the lesson accepted so far, in order")
    input: str | None = Field(None, max_length=200, description="the learner's new input: a move's text, or next")


@router.get("/learn/{game_id}", include_in_schema=False)
async def learn_page(game_id: str) -> FileResponse:
    return FileResponse(INDEX)


@router.post("/api/learn/{game_id}")
async def learn(game_id: str, body: LessonInput) -> dict[str, Any]:
    try:
        lesson = Lesson(get_game(game_id))
    except KnockaboutError as exc:
        raise ApiError(404, str(exc)) from None
    for i, given in enumerate(body.inputs):
        fb = lesson.give(given)
        if fb is not None and fb.kind == "correction":
            raise ApiError(400, f"the lesson's input {i + 1} ({given[:40]!r}) does not replay: start the lesson again")
    if body.input is not None:
        lesson.give(body.input)
    return lesson_message(lesson)


def lesson_message(lesson: Lesson) -> dict[str, Any]:
    """The learner's table as a WebSocket sync message, with the step panel in ``tutorial``."""
    table = lesson.table
    names = table.names()
    up = lesson.update()
    d = up.decision
    seats = [{"kind": "person", "name": names[i], "connected": True} if i == lesson.learner
             else {"kind": "bot", "level": "plays the lesson's moves", "name": names[i]} for i in range(len(names))]
    info = {"id": None, "game": lesson.game.id, "game_name": lesson.game.name, "seats": seats,
            "status": "finished" if table.over else "playing", "version": table.version, "lesson": True}
    # the lesson's clock waits: a timed decision shows its whole time, standing still
    clock = None if d is None or d.time_limit is None else {
        "seat": d.player, "left": d.time_limit, "limit": d.time_limit, "paused": True}

    def event_json(step: int, ev: Event) -> dict[str, Any]:
        return {"step": step, "type": ev.type, "data": dict(ev.data), "text": lesson.game.narrate(ev, names)}

    msg = update_message(up, "sync", info, clock, event_json)
    msg["tutorial"] = {**lesson.panel(), "inputs": list(lesson.inputs)}
    return msg
