"""A whole game of each game, played by clicking only, at desktop and phone size; every
screen on the way passes the screen checks (tests/web/screen_checks.py) and is kept as a
screenshot (the folder is printed; set KNOCKABOUT_SCREENSHOTS to choose it)."""

from __future__ import annotations

import contextlib
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import LiveServer
from tests.web.pages import SIZES, click_tower, create_table, new_page
from tests.web.screen_checks import check_screen

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

# short settings: a whole game in seconds against a random bot
SHORT = {
    "nak-muay": {"countdown_seconds": "3"},
    "knockdown": {"max_turns": "12"},
    "knockback": {"max_turns": "20"},
}


def play_to_the_end(page: Any, rng: random.Random, at_decision: Any, seconds: float = 150) -> None:
    checked = False
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.locator("#outcome").count():
            return
        if page.locator("#tower-field button:not([disabled])").count():
            click_tower(page)
            continue
        # what the board offers itself (KNOCKBACK: a highlighted cell, then the card; a punch target)
        board = page.locator("#kb-choose button[data-place], #grid button.kb-cell.spot, #grid .kb-card.target")
        if board.count() and rng.random() < 0.7:
            with contextlib.suppress(Exception):  # redrawn under the click: look again
                board.nth(rng.randrange(board.count())).click(timeout=500)
            continue
        buttons = page.locator("#actions button:not([disabled])")
        n = buttons.count()
        if not n:
            page.wait_for_timeout(40)
            continue
        labels = buttons.evaluate_all("els => els.map(e => e.textContent)")
        assert len(labels) == len(set(labels)), f"two buttons say the same for different actions: {labels}"
        if not checked:
            at_decision()
            checked = True
        try:
            buttons.nth(rng.randrange(n)).click(timeout=500)
        except Exception:  # the page redrew under the click; look again
            continue
    raise AssertionError("the game did not end in time: " + page.inner_text("#log")[-600:])


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["nak-muay", "knockdown", "knockback"])
def test_a_whole_game_by_clicking_only(server: LiveServer, browser: Any, shots: Path, game: str, size: str) -> None:
    ctx, page = new_page(browser, size, reduced_motion="reduce")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector(".game-card")
    if game == "nak-muay":
        check_screen(page, shots, f"lobby-{size}")
    page.click(f".game-card[data-game='{game}'] .rules-btn")
    page.wait_for_selector("#rules-body h1")
    if game == "knockdown":
        check_screen(page, shots, f"rules-{size}", keyboard=False)
    page.click("#rules-close")
    create_table(page, server, game=game, name="Ann", seats={1: "random"}, options=SHORT[game])

    def first_decision() -> None:
        page.click("#legend summary")  # the legend open too: it is part of what is checked
        assert page.locator("#legend dt").count() >= 5
        check_screen(page, shots, f"{game}-{size}-decision")

    play_to_the_end(page, random.Random(f"{game}{size}"), first_decision)
    page.wait_for_selector("#outcome .winner")
    assert page.locator("#outcome-how").inner_text(), "the end says how the game was won"
    assert page.locator("#rematch").count() == 1 and page.locator("#replay-link").count() == 1
    check_screen(page, shots, f"{game}-{size}-end")
    page.click("#replay-link")
    page.wait_for_selector("#step-slider")
    page.click("#next")
    page.wait_for_function("document.querySelector('#step-label').textContent.startsWith('step 1 ')")
    label = page.inner_text("#step-label").split("·", 1)[-1]
    assert not re.search(r"[a-z0-9-]:[a-z0-9+-]", label), f"the replay label is in words, not an action id: {label!r}"
    check_screen(page, shots, f"{game}-{size}-replay")
    if size == "desktop":  # back at the finished table: a rematch seats everyone again, new seed
        old = page.url.replace("/replay/", "/t/")
        page.goto(old)
        page.click("#rematch")
        page.wait_for_function(f"location.pathname.startsWith('/t/') && location.href !== {old!r}")
        page.wait_for_selector("#invite", state="attached")
        new_id = page.url.rsplit("/", 1)[1]
        again = server.app.state.manager.get(new_id).table
        before = server.app.state.manager.get(old.rsplit("/", 1)[1]).table
        assert [(s.kind, s.level) for s in again.seats] == [(s.kind, s.level) for s in before.seats]
        assert again.record.config == before.record.config and again.seed != before.seed
    assert not errors, errors
    ctx.close()
