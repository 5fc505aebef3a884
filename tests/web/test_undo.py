"""Undo in Chromium: against a bot the Undo button takes the move back at once and the page
shows the table as it was before it; between people it is a request the other player
allows or refuses, each seeing who asked and how it ended."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import LiveServer
from tests.web.pages import create_table, my_move, new_page, play_first, record_frames, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SEEN = """() => ({
  actions: [...document.querySelectorAll('#decide button[data-action]')].map((b) => b.dataset.action),
  board: document.querySelector('#board').innerText,
  hand: document.querySelector('#hand-dock').innerText,
  prompt: (document.querySelector('#prompt-title') || {}).textContent || null,
})"""


def last_log_line(page: Any) -> str:
    text: str = page.evaluate("() => (document.querySelector('#log').lastElementChild || {}).textContent || ''")
    return text


def version(frames: list[dict[str, Any]]) -> int:
    """The table's version in the newest sync or update the page received."""
    return int(next(f["version"] for f in reversed(frames) if f["type"] in ("sync", "update")))


def test_against_a_bot_undo_takes_the_move_back_at_once(server: LiveServer, browser: Any) -> None:
    ctx, page = new_page(browser)
    frames = record_frames(page)
    create_table(page, server, game="knockback", seats={1: "random"}, undo=True)
    wait_until(lambda: my_move(page), 30)
    assert page.locator("#undo").count() == 0, "nothing to take back before the first move"
    for _ in range(3):  # a few moves, each answered by the bot
        before = page.evaluate(SEEN)
        v = version(frames)
        play_first(page)
        wait_until(lambda v=v: my_move(page) and version(frames) > v, 30)  # (a page call lets frames in)
        assert page.locator("#undo").inner_text() == "Undo", "no one else to ask"
    syncs = sum(1 for f in frames if f["type"] == "sync")
    page.click("#undo")
    wait_until(lambda: page.title() is not None and sum(1 for f in frames if f["type"] == "sync") > syncs, 30)
    wait_until(lambda: "took back" in last_log_line(page))
    assert last_log_line(page).startswith("Ann took back ")
    wait_until(lambda: page.evaluate(SEEN) == before, 10)  # the table as it was before that move
    sync = next(f for f in reversed(frames) if f["type"] == "sync")
    assert sync["events"][-1]["type"] == "undone" and sync["version"] == version(frames)
    ctx.close()


def join(browser: Any, server: LiveServer, table_id: str, name: str) -> tuple[Any, Any]:
    """A second person opens the table's link and takes its open seat."""
    ctx, page = new_page(browser, "phone")
    page.goto(f"{server.url}/t/{table_id}")
    page.fill("#join-name", name)
    page.click("button[data-seat='1']")
    page.wait_for_selector("#board")
    return ctx, page


def play_until_ann_may_undo(ann: Any, bo: Any) -> dict[str, Any]:
    """Both play their first choices until Ann has moved and may take it back; returns what
    Ann's page showed just before that move."""
    before: dict[str, Any] = {}
    for _ in range(200):
        if ann.locator("#undo").count() and before:
            return before
        if my_move(ann):
            before = ann.evaluate(SEEN)
            play_first(ann)
            ann.wait_for_selector("#undo")
            continue
        elif my_move(bo):
            play_first(bo)
        ann.wait_for_timeout(150)
    raise AssertionError("Ann never got to take back a move")


def test_between_people_undo_is_a_request_the_other_allows_or_refuses(server: LiveServer, browser: Any) -> None:
    actx, ann = new_page(browser)
    table_id = create_table(ann, server, game="knockback", seats={1: "open"}, undo=True)
    bctx, bo = join(browser, server, table_id, "Bo")
    wait_until(lambda: my_move(ann) or my_move(bo), 30)
    before = play_until_ann_may_undo(ann, bo)
    assert ann.locator("#undo").inner_text() == "Ask to undo"
    ann.click("#undo")
    bo.wait_for_selector("#undo-request #undo-accept")
    assert bo.locator("#undo-request p").inner_text().startswith("Ann asks to take back their last move (1 step)")
    ann.wait_for_selector("#undo-request")
    assert ann.locator("#undo-request").inner_text().startswith("You asked to take back your last move (1 step). "
                                                                 "Waiting for Bo…")
    assert ann.locator("#undo-request button").count() == 0 and ann.locator("#undo").count() == 0
    bo.click("#undo-accept")
    for page in (ann, bo):
        wait_until(lambda p=page: "took back 1 step" in last_log_line(p), 30)
        page.wait_for_selector("#undo-request", state="detached")
    wait_until(lambda: ann.evaluate(SEEN) == before, 10)
    assert ann.locator("#toast").inner_text() == "Your last move was taken back."
    assert bo.locator("#toast").inner_text() == "Ann's last move was taken back."

    # again, and this time Bo refuses: nothing changes but the words that say so
    play_first(ann)
    ann.wait_for_selector("#undo")
    shown = ann.evaluate(SEEN)
    ann.click("#undo")
    bo.click("#undo-refuse")
    ann.wait_for_selector("#undo-request", state="detached")
    wait_until(lambda: ann.locator("#toast").inner_text() == "Bo refused to take back your move.", 10)
    assert bo.locator("#toast").inner_text() == "You refused to take back Ann's move."
    assert ann.evaluate(SEEN) == shown
    assert "took back" not in last_log_line(ann)
    actx.close()
    bctx.close()
