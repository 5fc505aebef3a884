"""The lobby form offers private tables: unlisted, and a seat kept for its invite link."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.conftest import LiveServer
from tests.web.pages import create_table

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_an_unlisted_table_with_an_invited_seat_made_and_joined_in_the_browser(
        server: LiveServer, browser: Any) -> None:
    ctx_a, ctx_b, ctx_c = browser.new_context(), browser.new_context(), browser.new_context()
    a, b, stranger = ctx_a.new_page(), ctx_b.new_page(), ctx_c.new_page()
    table_id = create_table(a, server, name="Ann", players=2, seats={1: "invite"}, listed=False)
    table_url = a.input_value("#invite")
    invite = a.input_value(".invite-link[data-seat='1']")
    assert invite.startswith(table_url + "#invite=")

    lobby = httpx.get(server.url + "/api/tables").json()["tables"]
    assert table_id not in [t["id"] for t in lobby], "the creator chose not to list it"

    stranger.goto(table_url)  # the table's link without the invite: watching only
    stranger.wait_for_selector("#watch")
    assert stranger.locator("button[data-seat]").count() == 0

    b.goto(invite)
    b.fill("#join-name", "Bo")
    b.click("button[data-seat='invite']")
    b.wait_for_selector("#board")
    assert "#invite=" not in b.url, "the used invite leaves the address bar"
    info = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert info["status"] == "playing" and info["seats"][1]["name"] == "Bo"
    for ctx in (ctx_a, ctx_b, ctx_c):
        ctx.close()
