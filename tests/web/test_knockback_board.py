"""The KNOCKBACK board in the browser: a card is placed by clicking a highlighted cell and then
the card (not always the first card in hand), and tiles are big enough for their names."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import LiveServer
from tests.web.pages import made_table, new_page, sit
from tests.web.screen_checks import overflowing, overlapping

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_placing_picks_the_cell_then_the_card(server: LiveServer, browser: Any, size: tuple[int, int]) -> None:
    made = made_table(server, "knockback", ["me", "random"], name="Ann", seed=5)
    ctx, page = new_page(browser, size)
    sit(page, server, made["id"], made["token"])
    page.wait_for_selector("button.kb-cell.spot")
    live = server.app.state.manager.get(made["id"])
    spot = page.locator("button.kb-cell.spot").first
    x, y = int(spot.get_attribute("data-x")), int(spot.get_attribute("data-y"))
    spot.click()
    choices = page.locator("#kb-choose button[data-place]")
    assert choices.count() >= 2, "every card in hand fits a free cell"
    chosen = choices.last.get_attribute("data-place")
    label = chosen.split(":")[1]
    choices.last.click()
    page.wait_for_function("!document.querySelector('#kb-choose')")
    view = live.table.updates_for(0).view
    placed = {c.label: (c.x, c.y) for c in view.cards if c.status == "board"}
    assert placed.get(label) == (x, y), f"{label} went where it was put, not the first card in hand"
    page.wait_for_selector(f"[data-tile='{label}']")
    tile = page.locator(f"[data-tile='{label}']")
    assert "▲" in tile.inner_text(), "the first seat's cards face north, written upright"
    assert "rotate" not in tile.evaluate("e => getComputedStyle(e).transform + e.style.transform").replace("none", "")
    mine = page.locator(".kb-side[data-seat='0'] > strong")
    assert mine.inner_text().startswith("Your cards ▲"), "your own cards are called yours"
    assert page.locator(".kb-side[data-seat='1'] > strong").inner_text().startswith("Bot 2 (random)'s cards ▼")
    assert mine.evaluate("e => e.getBoundingClientRect().width >= e.parentElement.clientWidth - 1"), \
        "the heading has its own line: the cards are listed under it, not beside it"
    assert not overflowing(page) and not overlapping(page)
    ctx.close()
