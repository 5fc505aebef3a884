"""Help at the table: tooltips with a card's full text (from the seat's own view), the legend,
the hint line, and the rules drawer that gives the focus back when it closes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import LiveServer
from tests.web.pages import made_table, sit

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_cards_explain_themselves_and_the_rules_are_one_click_away(server: LiveServer, browser: Any) -> None:
    made = made_table(server, "nak-muay", ["me", "random"], name="Ann", seed=3)
    ctx = browser.new_context()
    page = ctx.new_page()
    sit(page, server, made["id"], made["token"])
    page.wait_for_selector("#hand .card")
    card = page.locator("#hand .card").first
    name = card.get_attribute("data-card")
    card.scroll_into_view_if_needed()  # (a scroll hides a tip: scroll first, as a person would)
    page.wait_for_timeout(150)
    card.hover()
    page.wait_for_selector("#tip:not([hidden])")
    tip = page.inner_text("#tip .tip-text")
    assert page.locator("#tip .zoom [data-card]").count() == 1, "the card, zoomed, above its text"
    assert tip == card.get_attribute("data-tip") and len(tip) > 20, "the full text, not just the name"
    own = set(page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert name in own
    # the keyboard gets the same text: focusing a card shows its tip and links it
    page.locator("#hand .card").nth(1).focus()
    assert page.locator("#hand .card").nth(1).get_attribute("aria-describedby") == "tip"
    # the legend lists the cards and marks; the hint line says what the decision means
    page.click("#legend summary")
    assert "KO" in page.inner_text("#legend") and "said no to" in page.inner_text("#legend")
    page.wait_for_selector("#hint")
    assert page.inner_text("#hint").startswith("Hint:")
    page.uncheck("#hints-on")
    page.wait_for_selector("#hint", state="detached")
    page.check("#hints-on")
    # the rules open in a drawer over the table, and Escape gives the focus back
    page.click("#rules-open")
    page.wait_for_selector("#rules-body h1")
    assert "Nak Muay" in page.inner_text("#rules-title")
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules-drawer", state="hidden")
    assert page.evaluate("document.activeElement.id") == "rules-open"
    ctx.close()
