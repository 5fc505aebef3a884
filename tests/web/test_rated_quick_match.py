"""Two accounts on the ladder in Chromium, as two people would do it: each signs up, presses
*Quick match* on the same game and lands at the same new table; they chat (a typed line and
a quick phrase); they play the game to its end by clicking; both then see what it did to
their ratings on the end panel, on their profiles and on the game's leaderboard."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import LiveServer, browser, server  # noqa: F401 - pytest fixtures
from tests.web.pages import click_some_action, new_page, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

GAME = "nak-muay"
SHOTS = Path(os.environ.get("KNOCKABOUT_SCREENSHOTS") or "/tmp/knockabout-screens")


def sign_up(page: Any, server: LiveServer, name: str) -> None:  # noqa: F811
    page.goto(server.url + "/")
    page.click("#account a[href='/signup']")
    page.fill("#su-name", name)
    page.fill("#su-pass", f"{name} plays for keeps")
    page.click("form button[type=submit]")
    page.wait_for_selector("#profile-name")
    assert page.inner_text("#account #me") == name


def play_to_the_end(pages: list[Any], within: float = 300.0) -> None:
    """Whoever has a move makes one (their first choice), until both pages show the end."""
    deadline = time.monotonic() + within
    while not all(p.locator("#outcome").count() for p in pages):
        assert time.monotonic() < deadline, "the game did not end"
        moved = False
        for p in pages:
            if not p.locator("#outcome").count() and click_some_action(p):
                moved = True
                p.wait_for_timeout(150)
        if not moved:
            pages[0].wait_for_timeout(60)


def shown_rating(page: Any) -> str:
    return page.inner_text(f"#stats tr[data-game='{GAME}'] td.rating")  # type: ignore[no-any-return]


def test_two_accounts_match_chat_finish_a_rated_game_and_see_their_ratings(
        server: LiveServer, browser: Any) -> None:  # noqa: F811
    names = ["Ann_rated", "Bo_rated"]
    contexts, pages = [], []
    for name, size in zip(names, ("desktop", "phone"), strict=True):
        ctx, page = new_page(browser, size)
        sign_up(page, server, name)
        assert page.locator("#stats").count() == 0, "no games yet"
        contexts.append(ctx)
        pages.append(page)
    ann, bo = pages
    # quick match: the two accounts land at one new table, each under the account's name
    for p in pages:
        p.goto(server.url + "/")
        p.click(f".game-card[data-game='{GAME}'] .quickmatch-btn")
        p.wait_for_selector("#quickmatch, #players .seatline")
    for p in pages:
        p.wait_for_url("**/t/*", timeout=60_000)
        p.wait_for_selector("#players .seatline")
    assert ann.url == bo.url, "the same table"
    table_id = ann.url.rsplit("/", 1)[1]
    wait_until(lambda: all(n in p.inner_text("#players") for n in names for p in pages))
    at = server.app.state.store.accounts.accounts_at(table_id)
    assert sorted(a.name for a in at.values()) == sorted(names), "both seats are the accounts'"
    # chat: a typed line, then a quick phrase from the phone
    ann.click("#chat summary")
    ann.wait_for_selector("#chat-input")
    ann.fill("#chat-input", "good luck, have fun")
    ann.press("#chat-input", "Enter")
    bo.wait_for_selector(".chat-phrase")  # the first words opened Bo's chat
    wait_until(lambda: "good luck, have fun" in bo.inner_text("#chat-lines"))
    assert names[0] in bo.inner_text("#chat-lines")
    bo.click(".chat-phrase[data-phrase='good-luck']")
    wait_until(lambda: "Good luck!" in ann.inner_text("#chat-lines"))
    # the game, played to its end by clicking
    play_to_the_end(pages)
    # the end panel of each says what the game did to their rating
    for p in pages:
        p.wait_for_selector("#rating-changes .rating-change.mine", timeout=30_000)
    rated = server.app.state.store.ratings.changes(table_id)
    assert len(rated) == 2, "the table was rated"
    after: dict[str, int] = {}
    for p, name in zip(pages, names, strict=True):
        mine = p.inner_text("#rating-changes .rating-change.mine")
        assert mine.startswith("Your rating: 1500 → "), mine
        after[name] = int(mine.split("→ ")[1].split(" ")[0])
        other = next(n for n in names if n != name)
        assert other in p.inner_text("#rating-changes"), "and the rival's"
    outcome = server.app.state.store.get(table_id).result
    if not outcome["draw"]:
        winner = server.app.state.store.get(table_id).seats[outcome["winners"][0]]["name"]
        assert after[winner] > 1500 > after[next(n for n in names if n != winner)]
    # "good game", said at the end
    bo.click(".chat-phrase[data-phrase='good-game']")
    wait_until(lambda: "Good game" in ann.inner_text("#chat-lines"))
    # each profile shows the new rating beside the win rate, and the game with its change
    for p, name in zip(pages, names, strict=True):
        p.click("#account #me")
        p.wait_for_selector(f"#stats tr[data-game='{GAME}']")
        assert shown_rating(p).startswith(str(after[name])), shown_rating(p)
        row = p.inner_text(f"#recent tr[data-table='{table_id}']")
        diff = after[name] - 1500
        assert f"({'+' if diff >= 0 else '−'}{abs(diff)})" in row, row
        SHOTS.mkdir(parents=True, exist_ok=True)
        p.screenshot(path=str(SHOTS / f"rated-profile-{'desktop' if p is ann else 'phone'}.png"), full_page=True)
    # and the game's leaderboard lists both, by name, each a link to the profile
    ann.goto(f"{server.url}/leaderboard/{GAME}")
    ann.wait_for_selector("#leaderboard")
    for name in names:
        row = ann.locator("#leaderboard tr", has=ann.locator(f"a[href='/u/{name}']"))
        assert row.count() == 1, name
        assert str(after[name]) in row.inner_text()
    ann.screenshot(path=str(SHOTS / "leaderboard-desktop.png"), full_page=True)
    bo.goto(f"{server.url}/leaderboard/{GAME}")
    bo.wait_for_selector("#leaderboard")
    bo.screenshot(path=str(SHOTS / "leaderboard-phone.png"), full_page=True)
    ann.locator(f"#leaderboard a[href='/u/{names[1]}']").click()
    ann.wait_for_selector("#profile-name")
    assert ann.inner_text("#profile-name") == names[1]
    for ctx in contexts:
        ctx.close()
