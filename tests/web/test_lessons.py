"""Every game's tutorial in the browser, from the lobby's "Learn to play" to the last step,
at desktop and phone size, as a learner clicks it: each step marks the part of the screen
it speaks about, its panel never covers that part, a wrong move gets the step's correction
and changes nothing, and the lesson ends on its finish. The first and middle steps of each
lesson are kept as screenshots (set KNOCKABOUT_LESSON_SHOTS to a folder, e.g. docs/img)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx
import pytest

from knockabout.core.registry import all_games, get_game
from knockabout.tutorial import PARTS, load_scenario
from tests.web.conftest import LiveServer
from tests.web.pages import SIZES, new_page
from tests.web.screen_checks import check_screen

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

GAMES = [g.id for g in all_games() if g.tutorial is not None]

COVERED = """() => {
  const el = document.querySelector('.lesson-focus'); const p = document.getElementById('lesson');
  if (!el || !p) return null;
  const a = el.getBoundingClientRect(); const b = p.getBoundingClientRect();
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return { covered: w > 1 && h > 1, top: a.top, bottom: a.bottom, inView: a.bottom > 0 && a.top < innerHeight,
           part: el.dataset.part };
}"""


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("KNOCKABOUT_LESSON_SHOTS") or tmp_path_factory.mktemp("lessons"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def click_move(page: Any, action: str) -> None:
    """Click the move's button (in the list the board folds its moves into, if it is there)."""
    button = page.locator(f"button[data-action='{action}']").first
    if not button.is_visible():
        page.evaluate("() => document.querySelectorAll('details.board-list').forEach((d) => { d.open = true; })")
    button.click()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game_id", GAMES)
def test_the_lesson_plays_to_the_end_in_the_browser(browser: Any, server: LiveServer, shots: Path,
                                                    game_id: str, size: str) -> None:
    scenario = load_scenario(get_game(game_id))
    steps = scenario.steps
    middle = len(steps) // 2 + 1
    ctx, page = new_page(browser, size, reduced_motion="reduce")  # screens checked at rest, not mid-animation
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + "/")
        page.click(f".game-card[data-game='{game_id}'] button.learn")
        page.wait_for_url(f"**/learn/{game_id}")
        wrong_tried = False
        for i, step in enumerate(steps, 1):
            page.wait_for_selector(f"#lesson-count:text-is('step {i} of {len(steps)}')")
            assert page.inner_text("#lesson-title") == step.title
            assert page.inner_text("#lesson-text") == step.text
            seen = page.evaluate(COVERED)
            assert seen is not None, f"step {i} marks nothing"
            drawn = step.highlight in PARTS or page.locator(f"[data-part='{step.highlight}']").count()
            wanted = step.highlight if drawn else "board"  # a part the board does not draw: the board
            assert seen["part"] == wanted, f"step {i} marks {seen['part']}, not {wanted}"
            assert seen["inView"] and not seen["covered"], f"step {i} ({size}): the panel covers its part: {seen}"
            if i in (1, middle):
                name = f"lesson-{game_id}-{'first' if i == 1 else 'middle'}-{size}"
                check_screen(page, shots, name, keyboard=False)
                page.screenshot(path=str(shots / f"{name}.png"))  # what the learner sees (the window)
            if step.expect is None:
                page.click("#lesson-next")
                continue
            if not wrong_tried:  # another move on the list: the correction, and the same step again
                other = page.locator(f"button[data-action]:not([data-action='{step.expect}'])").first
                if other.count() and other.is_visible():
                    before = page.inner_text("#board")
                    other.click()
                    page.wait_for_selector("#lesson-feedback.correction")
                    said = step.corrections.get(other.get_attribute("data-action") or "", step.wrong)
                    assert page.inner_text("#lesson-feedback") == f"Not quite: {said}"
                    assert page.inner_text("#lesson-count") == f"step {i} of {len(steps)}"
                    assert page.inner_text("#board") == before
                    wrong_tried = True
            click_move(page, step.expect)
        page.wait_for_selector("#lesson-again")
        assert page.inner_text("#lesson-title") == scenario.finish.title
        assert wrong_tried
        assert not errors
    finally:
        ctx.close()


def test_a_game_without_a_lesson_says_so_with_the_way_back(browser: Any, server: LiveServer) -> None:
    ctx, page = new_page(browser)
    try:
        page.goto(server.url + "/learn/no-such-game")
        page.wait_for_selector("#lesson-missing")
        assert "no-such-game" in page.inner_text("#lesson-missing")
        page.click("#lesson-missing a")
        page.wait_for_selector(".game-card")
    finally:
        ctx.close()


def test_the_lesson_api_keeps_nothing_and_refuses_inputs_that_do_not_replay(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as c:
        first = c.post("/api/learn/nak-muay", json={}).json()
        assert first["tutorial"]["index"] == 0 and first["tutorial"]["inputs"] == []
        assert first["table"]["lesson"] and first["legal"]
        two = c.post("/api/learn/nak-muay", json={"inputs": [], "input": "next"}).json()
        assert two["tutorial"]["inputs"] == ["next"] and two["tutorial"]["index"] == 1
        wrong = c.post("/api/learn/nak-muay", json={"inputs": ["next", "next"], "input": "dodge"}).json()
        assert wrong["tutorial"]["feedback"]["kind"] == "correction" and wrong["tutorial"]["index"] == 2
        assert wrong["view"] == c.post("/api/learn/nak-muay", json={"inputs": ["next", "next"]}).json()["view"]
        bad = c.post("/api/learn/nak-muay", json={"inputs": ["next", "dodge"]})
        assert bad.status_code == 400 and "does not replay" in bad.json()["error"]
        assert c.post("/api/learn/no-such-game", json={}).status_code == 404
        assert c.post("/api/learn/nak-muay", json={"inputs": ["next"] * 31}).status_code == 422
        games = c.get("/api/games").json()["games"]
        assert {g["id"]: g["tutorial"] for g in games} == {g: True for g in GAMES} | {
            g["id"]: False for g in games if g["id"] not in GAMES}
