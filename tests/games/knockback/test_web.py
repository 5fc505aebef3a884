"""KNOCKBACK in headless Chromium: the grid with edges, exhausted cards drawn upright (no
rotation), highlighted cells (placement: the cell, then the card) and punch targets that act
when clicked."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.conftest import LiveServer, browser, server  # noqa: F401 - pytest fixtures
from tests.web.pages import create_table, new_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def _click(page: Any, selector: str) -> bool:
    loc = page.locator(selector)
    if loc.count() == 0:
        return False
    try:
        loc.first.click(timeout=500)
    except Exception:  # the board redrew under the click
        return False
    return True


def test_a_person_plays_knockback_on_the_grid_against_a_bot(server: LiveServer, browser: Any) -> None:  # noqa: F811
    ctx, page = new_page(browser, "phone")
    create_table(page, server, game="knockback", name="Kit", seats={1: "random"},
                 options={"scoring": "speed", "max_turns": "40"})
    page.wait_for_selector("#board .kb-top")

    seen = {"spot": False, "target": False, "exhausted": False, "edges": False, "turned": False}
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline and page.locator("#outcome").count() == 0:
        seen["spot"] |= page.locator("#grid .kb-cell.spot").count() > 0
        seen["target"] |= page.locator("#grid .kb-card.target").count() > 0
        # read in one go: the board may redraw between two separate queries
        transforms = page.locator("#grid .kb-card.exhausted").evaluate_all(
            "els => els.map(e => getComputedStyle(e).transform)"
        )
        if transforms:
            seen["exhausted"] = True
            seen["turned"] |= any("matrix" in t and not t.startswith("matrix(1, 0, 0, 1,") for t in transforms)
        if page.locator("#grid .kb-card").count():
            seen["edges"] |= page.locator("#grid .kb-card .kb-e").count() >= 4
        # act through the board when it offers something, else through the buttons
        if (
            _click(page, "#grid .kb-card.target")
            or _click(page, "#kb-choose button[data-place]")
            or _click(page, "#grid .kb-cell.spot")
            or _click(page, "#actions button:not([disabled])")
        ):
            continue
        page.wait_for_timeout(40)
    assert page.locator("#outcome").count(), "the game reaches its end in the browser"
    assert seen["spot"], "placement and move cells were highlighted"
    assert seen["edges"], "cards show their four edges"
    assert seen["exhausted"] and not seen["turned"], "exhausted cards are marked, never drawn rotated"
    assert seen["target"], "punch targets were highlighted"
    ctx.close()
