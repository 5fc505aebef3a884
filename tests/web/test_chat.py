"""Chat at the table in Chromium: two players and a spectator talk, a quick phrase, a mute
for one reader only, the spectators' channel the players never see; and script and HTML
payloads in names and lines stay text everywhere they are shown (the table's seats and chat,
the lobby's lists, the replay's chat): no dialog opens, no element is made from them."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.conftest import LiveServer, browser, server  # noqa: F401 - pytest fixtures
from tests.web.pages import click_some_action, made_table, new_page, sit, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

NAME = "<svg onload=alert(1)>"  # 21 characters: names keep 24
OTHER = "<b>Bo</b>&amp;"
LINE = '<script>alert("line")</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">x</a>'


def guarded(page: Any, dialogs: list[str]) -> Any:
    """A page that records any dialog a payload might open (and closes it)."""
    def on_dialog(d: Any) -> None:
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    return page


def no_markup_made(page: Any) -> None:
    """None of the payloads became an element of the page."""
    made = page.evaluate("""() => ({
        svg: [...document.querySelectorAll('svg[onload]')].length,
        img: [...document.querySelectorAll('img[onerror], img[src="x"]')].length,
        script: [...document.querySelectorAll('script')].filter(s => s.textContent.includes('alert')).length,
        bold: [...document.querySelectorAll('.chat-name b, .seatline b, .table-card b')].length,
        link: [...document.querySelectorAll('a[href^="javascript"]')].length })""")
    assert made == {"svg": 0, "img": 0, "script": 0, "bold": 0, "link": 0}, made


def chat_texts(page: Any) -> list[str]:
    return page.locator("#chat-lines .chat-line:not([hidden]) .chat-text").all_inner_texts()  # type: ignore[no-any-return]


def test_players_and_a_spectator_chat_and_payloads_stay_text(server: LiveServer, browser: Any) -> None:  # noqa: F811
    dialogs: list[str] = []
    made = made_table(server, "nak-muay", ["me", "open"], name=NAME)
    joined = httpx.post(f"{server.url}/api/tables/{made['id']}/join", json={"name": OTHER}, timeout=30).json()
    ann_ctx, ann = new_page(browser)
    bo_ctx, bo = new_page(browser, "phone")
    cy_ctx, cy = new_page(browser)
    for p in (ann, bo, cy):
        guarded(p, dialogs)
    sit(ann, server, made["id"], made["token"], 0)
    sit(bo, server, made["id"], joined["token"], 1)
    cy.goto(f"{server.url}/t/{made['id']}")
    cy.click("#watch")
    for p in (ann, bo, cy):
        p.wait_for_selector("#chat summary")
        assert not p.locator("#chat-input").is_visible(), "closed until someone speaks"
    ann.click("#chat summary")
    ann.wait_for_selector(".chat-phrase")
    # a line with every payload, from a player whose name is one
    ann.fill("#chat-input", LINE)
    ann.press("#chat-input", "Enter")
    for p in (ann, bo, cy):
        p.wait_for_function("document.querySelectorAll('#chat-lines .chat-line').length >= 1")
        p.wait_for_selector(".chat-phrase")  # the first words opened everyone's chat
        assert chat_texts(p) == [LINE] and p.locator("#chat-input").is_visible()
        assert p.locator("#chat-lines .chat-name").first.inner_text() == NAME
        assert NAME in p.inner_text("#players") and OTHER in p.inner_text("#players")
    # a quick phrase, from the phone
    bo.click(".chat-phrase[data-phrase='good-luck']")
    wait_until(lambda: chat_texts(ann) == [LINE, "Good luck!"])
    # the spectators' channel: Cy's line reaches no player
    cy.fill("#chat-input", "Ann should scout")
    cy.click("#chat-send")
    wait_until(lambda: "Ann should scout" in chat_texts(cy))
    # Bo mutes Ann: Ann's next line is hidden for Bo alone
    bo.locator(".chat-line[data-sender='seat:0'] .chat-mute").first.click()
    wait_until(lambda: chat_texts(bo) == ["Good luck!"])
    ann.fill("#chat-input", "can you hear me")
    ann.press("#chat-input", "Enter")
    wait_until(lambda: chat_texts(cy)[-1:] == ["can you hear me"])
    assert chat_texts(ann) == [LINE, "Good luck!", "can you hear me"], "no spectator line for a player"
    bo.wait_for_timeout(300)
    assert chat_texts(bo) == ["Good luck!"], "muted for Bo"
    assert NAME in bo.inner_text("#chat-muted")
    # the mute is remembered: after a reload Bo still reads none of Ann's lines
    bo.reload()
    bo.wait_for_selector("#chat-lines .chat-line")
    wait_until(lambda: chat_texts(bo) == ["Good luck!"])
    # too long a line is refused in words (the field stops at 200; the server says why beyond)
    ann.evaluate("() => { document.querySelector('#chat-input').removeAttribute('maxlength'); }")
    ann.fill("#chat-input", "x" * 230)
    ann.press("#chat-input", "Enter")
    ann.wait_for_function("document.querySelector('#toast') && !document.querySelector('#toast').hidden")
    assert "at most 200 characters" in ann.inner_text("#toast")
    # the lobby's lists show the names as text
    cy.goto(server.url + "/")
    cy.wait_for_selector(f"[data-table='{made['id']}']")
    assert NAME in cy.inner_text(f"[data-table='{made['id']}']")
    for p in (ann, bo, cy):
        no_markup_made(p)
    assert dialogs == []
    for c in (ann_ctx, bo_ctx, cy_ctx):
        c.close()


def test_a_replay_shows_the_chat_as_text_at_its_steps(server: LiveServer, browser: Any) -> None:  # noqa: F811
    dialogs: list[str] = []
    made = made_table(server, "nak-muay", ["me", "random"], name=NAME, seed=11)
    ctx, page = new_page(browser)
    guarded(page, dialogs)
    sit(page, server, made["id"], made["token"])
    page.click("#chat summary")
    page.fill("#chat-input", LINE)
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#chat-lines .chat-line")
    for _ in range(3000):
        if page.locator("#outcome").count():
            break
        if not click_some_action(page):
            page.wait_for_timeout(30)
    page.wait_for_selector("#outcome")
    page.click(".chat-phrase[data-phrase='good-game']")
    wait_until(lambda: "Good game" in chat_texts(page))
    page.click("#replay-link")
    page.wait_for_selector("#replay-chat")
    page.click("#last")
    page.wait_for_function("document.querySelectorAll('#replay-chat .chat-line').length === 2")
    assert page.locator("#replay-chat .chat-text").all_inner_texts() == [LINE, "Good game"]
    assert page.locator("#replay-chat .chat-name").first.inner_text() == NAME
    said = httpx.get(f"{server.url}/api/tables/{made['id']}/chat", timeout=30).json()["lines"]
    for step, shown in ((said[0]["step"], 1), (said[0]["step"] - 1, 0)):  # each line from the step it was said
        page.fill("#step-slider", str(step))
        page.dispatch_event("#step-slider", "input")
        page.wait_for_function(f"document.querySelectorAll('#replay-chat .chat-line').length === {shown}")
    no_markup_made(page)
    assert dialogs == []
    ctx.close()
