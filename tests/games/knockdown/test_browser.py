"""Knockdown in headless Chromium: the arena, fighters and Attack Row are drawn, actions read as words,
and the tower challenge shows the table's 10-second timer."""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.table import Seat, Table
from tests.web.conftest import LiveServer, browser, server  # noqa: F401 - pytest fixtures
from tests.web.pages import click_some_action, made_table, new_page, sit

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def _click_first(page: Any, avoid: str = "") -> bool:
    return click_some_action(page, "first", avoid)


def _open(server: LiveServer, browser: Any, config: dict[str, Any], seed: int) -> tuple[Any, Any]:  # noqa: F811
    made = made_table(server, "knockdown", ["me", "random"], name="Kim", seed=seed, config=config)
    ctx, page = new_page(browser, (390, 900))
    sit(page, server, made["id"], made["token"])
    return ctx, page


def test_the_board_draws_arena_fighters_row_and_labels(server: LiveServer, browser: Any) -> None:  # noqa: F811
    ctx, page = _open(server, browser, {"fighters": ["mistbearer", "maggot"]}, 4)
    page.wait_for_selector("#arena svg")
    assert page.locator("#arena svg circle").count() == 2
    assert page.locator("#attack-row .kd-card").count() == 4
    assert page.locator(".kd-fighter").count() == 2
    assert "Mistbearer" in page.inner_text("#arena").replace("\n", " ") or page.locator(
        "circle[data-fighter='mistbearer']").count() == 1
    page.wait_for_selector("#actions button")
    labels = [b.inner_text() for b in page.locator("#actions button").all()]
    assert labels and all(not lab.startswith("skill:") for lab in labels), labels
    for _ in range(40):
        _click_first(page)
        page.wait_for_timeout(40)
    assert page.locator("#arena svg rect").count() == 23
    coords = page.locator("#arena svg text.kd-coord").all_text_contents()
    assert len(coords) == 23 and "a2" in coords and "d1" in coords, "each space shows the coordinate the log uses"
    ctx.close()


def _seed_with_a_tower_for_me() -> int:
    for seed in range(200):
        t = Table("knockdown", [Seat("person", "me"), Seat("bot", "b", "random")], {"knockdown_test": "tower"}, seed)
        steps = 0
        while not t.over and steps < 3000:
            d = t.decision()
            assert d is not None
            if d.player == 1:
                t.tick()
            elif d.kind == "tower_challenge":
                return seed
            else:
                t.act(0, t.updates_for(0).legal[0], t.version)
            steps += 1
    raise AssertionError("no seed found")


def test_the_tower_challenge_shows_a_ticking_ten_second_timer(server: LiveServer, browser: Any) -> None:  # noqa: F811
    seed = _seed_with_a_tower_for_me()
    ctx, page = _open(server, browser, {"knockdown_test": "tower"}, seed)
    for _ in range(3000):
        if page.locator("#tower").count() and page.locator("#timer .timer").count():
            break
        _click_first(page, avoid="tower_challenge")
        page.wait_for_timeout(20)
    assert page.locator("#tower").count() == 1, page.inner_text("#log")
    timer = page.locator("#timer .timer")
    assert timer.count() == 1 and "You have" in timer.inner_text()
    first = int(page.inner_text("#secs"))
    assert first <= 10
    page.wait_for_timeout(1200)
    assert int(page.inner_text("#secs")) < first, "the timer ticks down"
    assert page.locator("#actions").count() == 0, "no button may claim a pass: the server judges the tower"
    assert page.locator("#tower-field button").count() >= 1
    ctx.close()
