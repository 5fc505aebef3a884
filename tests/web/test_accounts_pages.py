"""Accounts in the browser: a guest signs up from the top bar and keeps their table; the
profile, account and log-in pages; and names full of markup shown as text everywhere a
name appears (the lobby, a table, a replay, a profile). Screenshots at both sizes."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import LiveServer
from tests.web.pages import create_table, new_page, wait_until

pytestmark = pytest.mark.timeout(240)

# markup that would run if a page put a name in as HTML (each within the 24 characters a seat
# name keeps), setting window.X
PAYLOADS = ["<img src=x onerror=X=1>", "<script>X=2</script>", '"><svg onload=X=3>']
SHOTS = Path(os.environ.get("KNOCKABOUT_SCREENSHOTS") or "/tmp/knockabout-screens")


def no_markup_ran(page: Any) -> None:
    """Nothing a name carried ran or became an element."""
    assert page.evaluate("window.X") is None
    assert page.locator("#app img[src='x'], #app script, #app svg[onload]").count() == 0


def finished_game(server: LiveServer, names: list[str]) -> str:
    """A finished game (bots played it) whose seats then show ``names``."""
    made = httpx.post(f"{server.url}/api/tables", json={"game": "nak-muay", "seats": ["random", "random"]}).json()
    store = server.app.state.store
    deadline = time.monotonic() + 120
    while (st := store.get(made["id"])).status != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    store.update_seats(made["id"], [{**s, "name": n} for s, n in zip(st.seats, names, strict=True)], "finished")
    live = server.app.state.manager.get(made["id"])
    if live is not None:  # still in memory (the lobby shows it from there)
        for seat, n in zip(live.table.seats, names, strict=True):
            seat.name = n
    return str(made["id"])


def test_a_guest_signs_up_keeps_their_table_and_finds_it_on_their_profile(browser: Any, server: LiveServer) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    ctx, page = new_page(browser)
    try:
        table_id = create_table(page, server, name=PAYLOADS[0], seats={1: "random"})
        page.wait_for_selector(".seatline")
        no_markup_ran(page)
        assert PAYLOADS[0] in page.inner_text("#app"), "the name shows, as text"
        page.click("#account a[href='/signup']")
        page.wait_for_selector("#su-name")
        assert page.is_checked("#claim"), "the table this browser sits at is offered to the new account"
        page.fill("#su-name", "Pat_01")
        page.fill("#su-pass", "short")
        page.click("form button[type=submit]")
        assert page.locator("#su-pass:invalid").count() == 1, "the form asks for 8 characters first"
        page.fill("#su-pass", "a long enough secret")
        page.screenshot(path=str(SHOTS / "signup-desktop.png"))
        page.click("form button[type=submit]")
        page.wait_for_selector("#profile-name")
        assert page.inner_text("#account #me") == "Pat_01"
        assert page.locator(f"#recent tr[data-table='{table_id}']").count() == 1, "the claimed table"
        # a finished game against players named with markup: profile, replay and lobby show text
        done = finished_game(server, ["Pat_01", PAYLOADS[1]])
        account = server.app.state.store.accounts.by_name("Pat_01")
        server.app.state.store.accounts.link_seat(done, 0, account.id)
        page.goto(f"{server.url}/u/Pat_01")
        page.wait_for_selector(f"#recent tr[data-table='{done}']")
        assert PAYLOADS[1] in page.inner_text("#recent")
        assert page.locator("#stats tr[data-game='nak-muay']").count() == 1
        no_markup_ran(page)
        page.screenshot(path=str(SHOTS / "profile-desktop.png"), full_page=True)
        page.click(f"#recent tr[data-table='{done}'] a")
        page.wait_for_url(f"**/replay/{done}")
        page.wait_for_selector("#app h2")
        wait_until(lambda: PAYLOADS[1] in page.inner_text("#app"))
        no_markup_ran(page)
        page.goto(server.url + "/")
        page.wait_for_selector(f"[data-table='{done}']")
        assert page.is_disabled("#name") and page.input_value("#name") == "Pat_01", "you play by your account's name"
        assert PAYLOADS[1] in page.inner_text("#tables") and PAYLOADS[0] in page.inner_text("#tables")
        no_markup_ran(page)
    finally:
        ctx.close()


def test_logging_in_changing_the_password_and_logging_out(browser: Any, server: LiveServer) -> None:
    ctx, page = new_page(browser, "phone")
    try:
        page.goto(server.url + "/signup")
        page.fill("#su-name", "Quinn")
        page.fill("#su-pass", "first secret!")
        page.click("form button[type=submit]")
        page.wait_for_selector("#profile-name")
        page.screenshot(path=str(SHOTS / "profile-phone.png"), full_page=True)
        page.click("#account a[href='/account']")
        page.wait_for_selector("#change-password")
        page.screenshot(path=str(SHOTS / "account-phone.png"), full_page=True)
        page.fill("#pw-old", "wrong one!")
        page.fill("#pw-new", "second secret!")
        page.click("#change-password button")
        page.wait_for_selector("#change-password .form-problem:not([hidden])")
        assert "wrong password" in page.inner_text("#change-password .form-problem")
        page.fill("#pw-old", "first secret!")
        page.click("#change-password button")
        wait_until(lambda: page.input_value("#pw-old") == "")
        page.click("#logout")
        page.wait_for_selector("#account #login-link")
        page.click("#account #login-link")
        page.wait_for_selector("#li-name")
        page.fill("#li-name", "quinn")
        page.fill("#li-pass", "first secret!")
        page.click("form button[type=submit]")
        page.wait_for_selector(".form-problem:not([hidden])")
        assert page.inner_text(".form-problem") == "wrong name or password"
        page.screenshot(path=str(SHOTS / "login-phone.png"))
        page.fill("#li-pass", "second secret!")
        page.click("form button[type=submit]")
        page.wait_for_selector(".game-card")
        assert page.inner_text("#account #me") == "Quinn"
    finally:
        ctx.close()


def test_a_table_with_markup_in_every_seat_name_shows_them_as_text(browser: Any, server: LiveServer) -> None:
    made = httpx.post(f"{server.url}/api/tables", json={"game": "nak-muay", "seats": ["me", "open"],
                                                       "name": PAYLOADS[2]}).json()
    ctx, page = new_page(browser)
    try:
        page.goto(f"{server.url}/t/{made['id']}")
        page.wait_for_selector("#join-name")
        page.fill("#join-name", PAYLOADS[0])
        page.click("button[data-seat='1']")
        page.wait_for_selector(".seatline")
        text = page.inner_text("#app")
        assert PAYLOADS[2] in text and PAYLOADS[0] in text
        no_markup_ran(page)
    finally:
        ctx.close()
