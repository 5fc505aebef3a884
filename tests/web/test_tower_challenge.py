"""Knockdown's tower in Chromium: the tested person stacks the numbered cubes by clicking them
in order and the server judges the pass; when the table's 10 seconds run out the test fails."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.table.towers import store_tower_table
from tests.web.conftest import LiveServer, browser  # noqa: F401 - pytest fixture
from tests.web.pages import sit

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
    sit(page, server, table_id, token)
    page.wait_for_selector("#tower-field button")
    return ctx, page


def test_a_person_passes_the_tower_by_clicking_the_cubes_in_order(tower: Any, browser: Any) -> None:  # noqa: F811
    server, table_id, token, shots = tower
    ctx, page = _open(server, browser, table_id, token)
    assert page.locator("#actions").count() == 0, "no button may claim a pass"
    # the frame offers no actions (only the challenge), and the page still says it is this seat's move
    assert page.locator("#challenge").count() == 1 and page.title().startswith("● Your move")
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


def test_a_big_tower_moves_its_lying_cubes_in_the_browser_and_answers_the_picks(
        tmp_path: Path, browser: Any) -> None:  # noqa: F811
    """The server sends only where the cubes lie now; from 4 cubes on the page moves the
    cubes still lying after each correct pick (to free spots of the field) by itself."""
    with LiveServer(tmp_path) as server:
        got = _big_tower(server, browser)
    seen: list[dict[str, str]] = got["seen"]
    assert sorted(seen[0]) == [str(k) for k in range(1, 7)]
    for k, shown in enumerate(seen):
        assert sorted(shown) == [str(p) for p in range(k + 1, 7)], "a picked cube leaves the field"
        assert len(set(shown.values())) == len(shown), "two cubes on one spot"
    moved = [any(after[p] != before[p] for p in after) for before, after in itertools.pairwise(seen)]
    assert any(moved), "the cubes still lying move after a correct pick"
    assert got["answers"] == [[f"a{k}" for k in range(6)]]


def _big_tower(server: LiveServer, browser: Any) -> Any:  # noqa: F811
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.url + "/")
    cubes = [{"id": f"a{k}", "weight": "heavy" if k < 2 else "light", "place": k + 1} for k in range(6)]
    challenge = {"id": "big", "kind": "tower", "cubes": cubes[::-1], "grid": [6, 4],
                 "layout": [[k, 0] for k in range(6)], "reshuffle": True, "rule": "stack them"}
    got = page.evaluate("""async (ch) => {
      const r = await import("/games/knockdown/renderer.js");
      const root = document.createElement("div");
      document.body.append(root);
      const answers = [];
      root.append(r.towerGame(ch, { answer: (ids) => answers.push(ids) }));
      const field = () => Object.fromEntries([...root.querySelectorAll("#tower-field button")].map(
        (b) => [b.dataset.place, `${b.style.left} ${b.style.top}`]));
      const seen = [];
      for (let place = 1; place <= ch.cubes.length; place++) {
        seen.push(field());
        root.querySelector(`#tower-field button[data-place='${place}']`).click();
      }
      return { seen, answers };
    }""", challenge)
    ctx.close()
    return got
