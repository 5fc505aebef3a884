"""The steps the browser tests share: a page at a screen size, a table made from the lobby's
form (or straight through the API), sitting at a table with a seat's token, the frames a
page receives, and clicking whatever the table offers."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

import httpx

from knockabout.server.frames import Follower
from tests.web.conftest import LiveServer

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def new_page(browser: Any, size: str | tuple[int, int] = "desktop", **context: Any) -> tuple[Any, Any]:
    """A fresh browser context (its own storage: its own seat tokens) and a page in it."""
    w, h = SIZES[size] if isinstance(size, str) else size
    ctx = browser.new_context(viewport={"width": w, "height": h}, **context)
    return ctx, ctx.new_page()


def create_table(page: Any, server: LiveServer, *, game: str | None = None, name: str = "Ann",
                 players: int | None = None, seats: Mapping[int, str] | None = None,
                 options: Mapping[str, str] | None = None, listed: bool = True, undo: bool = False) -> str:
    """Make a table with the lobby's form, as a person does, and return its id once its page
    is open. ``game`` picks the game by its card's "Set up a table" (else the form's own
    choice); ``seats`` maps a seat number (1 is the second seat) to what the form offers
    ("open", "invite", a bot level); ``options`` fills the game's option fields by name;
    ``undo`` ticks "Allow undo"."""
    page.goto(server.url + "/")
    page.wait_for_selector(".game-card")
    if game is not None:
        page.click(f".game-card[data-game='{game}'] .setup")
    page.fill("#name", name)
    if players is not None:
        page.fill("#players", str(players))
        page.dispatch_event("#players", "change")
    for seat, choice in (seats or {}).items():
        page.select_option(f"select[data-seat='{seat}']", choice)
    for key, value in (options or {}).items():
        field = page.locator(f"#options [name='{key}']").first
        if not field.is_visible() and page.locator("#advanced-options:not([open])").count():
            page.click("#advanced-options summary")  # bot tuning and limits sit under a fold
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    if not listed:
        page.uncheck("#listed")
    if undo:
        page.check("#undo-allowed")
    page.click("#create-btn")
    page.wait_for_selector("#invite", state="attached")
    table_id: str = page.input_value("#invite").rsplit("/", 1)[1]
    return table_id


def made_table(server: LiveServer, game: str, seats: list[str], **body: Any) -> dict[str, Any]:
    """A table made through the API (for a fixed seed or config); the answer holds its id
    and the creator's seat token."""
    made: dict[str, Any] = httpx.post(f"{server.url}/api/tables",
                                      json={"game": game, "seats": seats, **body}, timeout=30).json()
    assert "id" in made, made
    return made


def sit(page: Any, server: LiveServer, table_id: str, token: str, seat: int = 0) -> None:
    """Open a table as the holder of ``token`` (what the lobby's browser remembers after
    making or joining it)."""
    page.goto(server.url + "/")
    page.evaluate("([id, seat, tok]) => localStorage.setItem(`knockabout:seat:${id}`, "
                  "JSON.stringify({seat, token: tok}))", [table_id, seat, token])
    page.goto(f"{server.url}/t/{table_id}")


def record_frames(page: Any, raw: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every WebSocket frame the page receives, parsed, a patch read as the whole update
    it stands for (``raw`` gets the frames as they came)."""
    frames: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        copy = Follower()

        def got(payload: str) -> None:
            frame = json.loads(payload)
            if raw is not None:
                raw.append(frame)
            frames.append(copy.read(frame))

        ws.on("framereceived", got)

    page.on("websocket", on_ws)
    return frames


def click_some_action(page: Any, pick: str = "first", avoid: str = "") -> bool:
    """Click the first (or last) action button on offer; False when there is none (or the
    page redrew under the click)."""
    box = f"#actions:not([data-kind='{avoid}'])" if avoid else "#actions"
    buttons = page.locator(box + " button:not([disabled])")
    n = buttons.count()
    if n == 0:
        return False
    target = buttons.nth(0 if pick == "first" else n - 1)
    try:
        target.click(timeout=500)
    except Exception:  # the page redrew under the click; try again next round
        return False
    return True


def click_tower(page: Any) -> None:
    """Stack Knockdown's tower: click the cubes by their numbers, 1 first, at a person's pace."""
    while page.locator("#tower-field button:not([disabled])").count():
        cubes = page.locator("#tower-field button:not([disabled])")
        places = cubes.evaluate_all("els => els.map(e => Number(e.dataset.place))")
        cubes.nth(places.index(min(places))).click(timeout=1000)
        page.wait_for_timeout(400)


def wait_until(pred: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def my_move(page: Any) -> bool:
    """Whether the page offers this seat a move (a button, or one of the board's in their list)."""
    return bool(page.locator("#decide .your-turn button[data-action]:not([disabled])").count())


def play_first(page: Any) -> None:
    """Choose the first move on offer: a button, or the first of the board's moves in their
    folded list."""
    button = page.locator("#actions button[data-action]")
    if not button.count():
        page.click("#decide .board-list summary")
        button = page.locator("#board-actions button[data-action]")
    button.first.click()
