"""Quick match and the leaderboard in Chromium: two people press *Quick match* on the same
game and land at the same new table, one at each seat; the leaderboard page lists the bot
levels' ratings, with names as text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import LiveServer, browser, server  # noqa: F401 - pytest fixtures
from tests.web.pages import new_page, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_two_people_meet_through_quick_match(server: LiveServer, browser: Any) -> None:  # noqa: F811
    pages = []
    for name, size in (("Ann", "desktop"), ("Bo", "phone")):
        ctx, page = new_page(browser, size)
        page.goto(server.url + "/")
        page.evaluate("(n) => localStorage.setItem('knockabout:name', n)", name)
        page.goto(server.url + "/")
        page.wait_for_selector(".game-card[data-game='knockback'] .quickmatch-btn")
        pages.append((ctx, page))
    ann, bo = pages[0][1], pages[1][1]
    ann.click(".game-card[data-game='knockback'] .quickmatch-btn")
    ann.wait_for_selector("#quickmatch")
    assert "Looking for players" in ann.inner_text("#quickmatch")
    bo.click(".game-card[data-game='knockback'] .quickmatch-btn")
    for p in (ann, bo):
        p.wait_for_url("**/t/*")
        p.wait_for_selector("#players .seatline")
    assert ann.url == bo.url, "the same table"
    wait_until(lambda: "Ann" in bo.inner_text("#players") and "Bo" in ann.inner_text("#players"))
    assert ann.locator("#quickmatch").count() == 0
    for ctx, _ in pages:
        ctx.close()


def test_cancel_stops_the_wait(server: LiveServer, browser: Any) -> None:  # noqa: F811
    ctx, page = new_page(browser)
    page.goto(server.url + "/")
    page.click(".game-card[data-game='knockdown'] .quickmatch-btn")
    page.wait_for_selector("#quickmatch")
    page.click("#quickmatch-cancel")
    page.wait_for_selector("#quickmatch", state="detached")
    assert "/t/" not in page.url
    ctx.close()


def test_the_leaderboard_page_shows_the_bot_levels(server: LiveServer, browser: Any) -> None:  # noqa: F811
    ctx, page = new_page(browser)
    page.goto(server.url + "/")
    page.click(".game-card[data-game='nak-muay'] .leaderboard-link")
    page.wait_for_selector("#leaderboard")
    assert page.url.endswith("/leaderboard/nak-muay")
    bots = page.locator("tr[data-player^='bot:']").all_inner_texts()
    assert len(bots) == 4 and "Bot (hard)" in bots[-1]
    page.goto(server.url + "/leaderboard/chess")
    page.wait_for_selector("text=Back to the lobby")
    ctx.close()
