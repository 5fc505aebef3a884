"""The front end: the shell's pages (static files, no build step) and each game's renderer.

  GET  /, /t/{id}, /replay/{id}, /studio, /leaderboard/{game}
                                        the front end's one page (it reads the path)
  GET  /games/{game}/renderer.js        the game's own web renderer (its declared
                                        ``web_renderer`` file), else the generic one

The shell's other files are under ``/static`` (mounted by ``create_app``).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse

from knockabout.core.errors import KnockaboutError
from knockabout.core.protocol import Game
from knockabout.core.registry import get_game
from knockabout.server.app_state import ApiError
from knockabout.server.rules import package_file

STATIC = Path(str(resources.files("knockabout.web"))) / "static"
GENERIC_RENDERER = STATIC / "generic.js"
INDEX = STATIC / "index.html"

router = APIRouter(include_in_schema=False)


def web_renderer_file(game: Game[Any]) -> Path:
    """The ES module that draws ``game``'s views in the browser: the file the game declares
    in ``web_renderer``, inside its own package (wherever that is installed), or the
    generic renderer when it declares none."""
    if game.web_renderer is None:
        return GENERIC_RENDERER
    return package_file(game, game.web_renderer)


PAGES = ("/", "/t/{table_id}", "/studio", "/replay/{table_id}", "/leaderboard/{game_id}")
"""The paths the front end's one page answers: it reads the path and draws that screen."""


async def front_page() -> FileResponse:
    return FileResponse(INDEX)


for _path in PAGES:
    router.add_api_route(_path, front_page, methods=["GET"])


@router.get("/games/{game_id}/renderer.js")
async def game_renderer(game_id: str) -> FileResponse:
    try:
        path = web_renderer_file(get_game(game_id))
    except KnockaboutError as exc:
        raise ApiError(404, str(exc)) from None
    return FileResponse(path, media_type="text/javascript")
