"""Knockdown's tower in Chromium: the tested person stacks the numbered cubes by clicking them
in order and the server judges the pass; when the table's 10 seconds run out the test fails."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.table.towers import store_tower_table
from tests.web.conftest import LiveServer, browser  # noqa: F401 - pytest fixture

pytestmark = [pytest.mark.browser, pytest.mark.timeout(90)]


@pytest.fixture
def tower(tmp_path: Path) -> Iterator[tuple[LiveServer, str, str, Path]]:
    """A server that resumes a stored table where the person (seat 0) must build a tower now."""
    table_id, token = store_tower_table(f"sqlite:///{tmp_path / 'web.db'}")
    with LiveServer(tmp_path) as server:
        yield server, table_id, token, tmp_path


def _open(server: LiveServer, browser: Any, table_id: str, token: str) -> tuple[Any, Any]:  # noqa: F811
    ctx = browser.new_context(viewport={"width": 520, "height": 1000})
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.evaluate("([id, tok]) => localStorage.setItem(`knockabout:seat:${id}`, JSON.stringify({seat: 0, token: tok}))",
                  [table_id, token])
    page.goto(f"{server.url}/t/{table_id}")
    page.wait_for_selector("#tower-field button")
    return ctx, page


def test_a_person_passes_the_tower_by_clicking_the_cubes_in_order(tower: Any, browser: Any) -> None:  # noqa: F811
    server, table_id, token, shots = tower
    ctx, page = _open(server, browser, table_id, token)
    assert page.locator("#actions").count() == 0, "no button may claim a pass"
    assert "You have" in page.inner_text("#timer")
    n = page.locator("#tower-field button").count()
    assert n >= 2
    for place in range(1, n + 1):
        page.wait_for_timeout(400)  # a person's pace: the table fails a tower stacked faster than a person could
        page.locator(f"#tower-field button[data-place='{place}']").click()
        if place == 2:
            assert page.locator("#tower-stack i").count() == 2, "the tower grows visibly"
            page.screenshot(path=str(shots / "tower-building.png"), full_page=True)
    page.wait_for_function("document.querySelector('#log').innerText.includes('passes the Knockdown Test')")
    assert page.locator("#tower").count() == 0
    ctx.close()


def test_a_wrong_cube_topples_the_tower_and_fails(tower: Any, browser: Any) -> None:  # noqa: F811
    server, table_id, token, _ = tower
    ctx, page = _open(server, browser, table_id, token)
    page.locator("#tower-field button[data-place='2']").click()
    page.wait_for_function("document.querySelector('#log').innerText.includes('fails the Knockdown Test')")
    ctx.close()


def test_the_tower_fails_when_the_ten_seconds_run_out(tower: Any, browser: Any) -> None:  # noqa: F811
    server, table_id, token, _ = tower
    ctx, page = _open(server, browser, table_id, token)
    page.locator("#tower-field button[data-place='1']").click()  # a start, then nothing: time runs out
    first = int(page.inner_text("#secs"))
    assert 0 < first <= 10
    page.wait_for_function("document.querySelector('#log').innerText.includes('fails the Knockdown Test')",
                           timeout=15000)
    assert page.locator("#tower").count() == 0
    ctx.close()
