"""The studio in a browser (issue 40, item 1): edit a KNOCKBACK card and a Knockdown fighter
in the form made from the content models' schema, see them drawn by the table's renderer
as you type and an error at its field; download the TOML `content validate` accepts;
upload a file to edit it; a name with markup stays text."""

from __future__ import annotations

import contextlib
import random
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from knockabout.core.registry import get_game
from tests.web.conftest import LiveServer
from tests.web.pages import new_page

NORTH_ATTACK = "[name='root[cards][0][edges][north][attack]']"


def _studio(browser: Any, server: LiveServer, size: str = "desktop") -> tuple[Any, Any]:
    ctx, page = new_page(browser, size, accept_downloads=True)
    page.goto(server.url + "/studio")
    page.wait_for_selector("#studio-status[data-valid]")
    return ctx, page


def _valid(page: Any, yes: bool) -> None:
    page.wait_for_selector(f"#studio-status[data-valid={'yes' if yes else 'no'}]")


def _type(page: Any, selector: str, value: str) -> None:
    page.fill(selector, value)
    page.dispatch_event(selector, "change")


def test_edit_a_knockback_card_see_it_drawn_and_an_error_at_its_field(browser: Any, server: LiveServer,
                                                                       tmp_path: Path) -> None:
    ctx, page = _studio(browser, server)
    try:
        assert page.input_value("#studio-doc") == "new"  # a new pack, from the template
        _valid(page, True)
        first = page.locator(".studio-preview .kb-preview").first
        assert first.get_attribute("data-card") == "Copper Hare"
        _type(page, NORTH_ATTACK, "7")
        page.wait_for_function("document.querySelector('.studio-preview .kb-e.n b')?.textContent === '7'")
        page.screenshot(path=str(tmp_path / "studio-knockback.png"))
        _type(page, NORTH_ATTACK, "12")  # above what an edge may hold
        _valid(page, False)
        field = page.locator(NORTH_ATTACK).locator("xpath=ancestor::div[contains(@class,'form-control')][1]")
        assert re.search(r"less than or equal to 9|at most 9|9", field.inner_text())
        assert "cards › #1 › edges › north › attack" in page.inner_text("#studio-problems")
        _type(page, NORTH_ATTACK, "4")
        _valid(page, True)
        page.click("#studio-download")
        link = page.locator("#studio-files a").first
        with page.expect_download() as got:
            link.click()
        saved = tmp_path / "my-pack.toml"
        got.value.save_as(saved)
        assert "edges.north = {attack = 4, heart = 2}" in saved.read_text()
        assert get_game("knockback").validate_content(saved) == []
    finally:
        ctx.close()


def test_upload_a_pack_file_to_edit_it_and_markup_stays_text(browser: Any, server: LiveServer, tmp_path: Path) -> None:
    ctx, page = _studio(browser, server)
    try:
        _valid(page, True)
        pack = tmp_path / "mine.toml"
        text = (Path(__file__).parents[2] / "src/knockabout/games/knockback/templates/pack/my-pack.toml").read_text()
        evil = "<img src=x onerror=__p=1><i>B"  # within a card name's 32 characters
        pack.write_text(text.replace('name = "Copper Hare"', f'name = "{evil}"').replace('"my-pack"', '"uploaded"'))
        page.set_input_files("#studio-upload", str(pack))
        page.wait_for_function("document.querySelector(\"[name='root[id]']\")?.value === 'uploaded'")
        _valid(page, True)
        card = page.locator(".studio-preview .kb-preview").first
        assert card.get_attribute("data-card") == evil  # kept exactly as written
        assert evil in card.inner_text()  # and shown as text
        assert page.input_value("[name='root[cards][0][name]']") == evil
        assert page.locator(".studio-preview img, .studio-form img").count() == 0  # no element made from it
        assert page.evaluate("window.__p") is None  # nothing in it ran (json-editor's own clean-up would)
    finally:
        ctx.close()


def test_edit_a_knockdown_fighter_see_the_sheet_and_an_error(browser: Any, server: LiveServer, tmp_path: Path) -> None:
    ctx, page = _studio(browser, server, "phone")
    try:
        page.select_option("#studio-game", "knockdown")
        page.wait_for_selector("[name='root[fighter][0][special][0][heavy]']")
        _valid(page, True)
        sheet = page.locator(".studio-preview .kd-preview").first
        name = sheet.get_attribute("data-fighter")
        assert name
        heavy = "[name='root[fighter][0][special][0][heavy]']"
        _type(page, heavy, "3")
        page.wait_for_function("document.querySelector('.studio-preview .kd-preview li')?.textContent"
                               ".includes('3 heavy')")
        page.screenshot(path=str(tmp_path / "studio-knockdown.png"))
        fighter_name = "[name='root[fighter][0][name]']"
        _type(page, fighter_name, "")
        _valid(page, False)
        assert "fighter › #1 › name" in page.inner_text("#studio-problems")
        _type(page, fighter_name, "Renamed")
        _valid(page, True)
        assert page.locator(".studio-preview .kd-preview").first.get_attribute("data-fighter") == "Renamed"
    finally:
        ctx.close()


def test_a_designers_cards_get_the_table_s_card_face(browser: Any, server: LiveServer, tmp_path: Path) -> None:
    """A card made in the studio is drawn with the face the shipped cards have (issue 38, item 6):
    the colour of its ability kind or type, its large figures and its name, from what was typed."""
    ctx, page = _studio(browser, server)
    try:
        _valid(page, True)
        _type(page, "[name='root[cards][0][name]']", "Studio Made Hare")
        _type(page, NORTH_ATTACK, "6")
        page.wait_for_function("document.querySelector('.studio-preview .kb-card .nm')?.textContent"
                               " === 'Studio Made Hare'")
        tiles = page.locator(".studio-preview .kb-card")
        tile = tiles.first
        assert tile.locator(".kb-e.n b").inner_text() == "6"
        assert tile.locator(".band .act").all_inner_texts() == ["➜", "➜", "✸"], "its actions on the band, in order"
        # the template's three cards: a moving, a passive and a punching ability, each its colour
        kinds = tiles.evaluate_all("ts => ts.map(t => [t.dataset.kind, t.className,"
                                   " getComputedStyle(t.querySelector('.band')).backgroundColor])")
        assert [k for k, _, _ in kinds] == ["moving", "passive", "punching"]
        assert all(f"k-{k}" in cls.split() for k, cls, _ in kinds)
        assert len({colour for _, _, colour in kinds}) == 3
        page.screenshot(path=str(tmp_path / "studio-knockback-face.png"))

        page.select_option("#studio-game", "knockdown")
        page.wait_for_selector("[name='root[card][0][heavy]']")
        _valid(page, True)
        _type(page, "[name='root[card][0][name]']", "Studio Made Uppercut")
        _type(page, "[name='root[card][0][heavy]']", "3")
        page.wait_for_function("document.querySelector(\".studio-preview .kd-card[data-card='Studio Made Uppercut'] "
                               ".fig.heavy\")?.textContent === '3'")
        face = page.locator(".studio-preview .kd-card[data-card='Studio Made Uppercut']")
        kind = face.get_attribute("data-type")
        assert kind and f"t-{kind}" in (face.get_attribute("class") or "").split()
        assert face.locator(".nm").inner_text() == "Studio Made Uppercut"
        assert face.locator(".foot").inner_text().lower().startswith(kind)
        big = face.locator(".fig.heavy").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert big >= 18, "the wound pool in large figures"
        page.screenshot(path=str(tmp_path / "studio-knockdown-face.png"))
    finally:
        ctx.close()


def test_test_it_fills_the_matrix_live(browser: Any, server: LiveServer, tmp_path: Path) -> None:
    ctx, page = _studio(browser, server)
    try:
        _valid(page, True)
        page.select_option("#studio-bot", "random")
        page.fill("#studio-games", "3")
        page.click("#studio-test-it")
        page.wait_for_selector("#studio-progress")
        page.wait_for_selector("#studio-job-state[data-state=done]", timeout=120_000)
        filled = page.locator(".studio-matrix td[data-n='6']")  # 3 matches each way: 6 a cell
        assert filled.count() == 7 * 6  # the new pack and the six shipped ones, every pairing
        row = page.locator(".studio-matrix tr[data-entrant='my-pack']")
        assert re.fullmatch(r"\d+%\s+\d+–\d+%", row.locator("td.field").inner_text().strip())  # rate, interval
        assert page.evaluate("(() => { const m = document.querySelector('.studio-matrix');"
                             " return m.scrollWidth <= m.clientWidth; })()"), "the matrix fits beside the form"
        assert page.get_attribute(".topbar .topnav[href='/studio']", "aria-current") == "page"
        assert page.inner_text("#crumb") == "", "the bar's studio link says where you are, once"
        assert page.get_attribute("#studio-progress", "value") == page.get_attribute("#studio-progress", "max")
        assert page.locator("#studio-stop").count() == 0 and "null" not in page.inner_text("#studio-test")
        page.screenshot(path=str(tmp_path / "studio-test-it.png"))
    finally:
        ctx.close()


def test_measure_shows_each_card_effect_beside_its_usage(browser: Any, server: LiveServer, tmp_path: Path) -> None:
    ctx, page = _studio(browser, server)
    try:
        _valid(page, True)
        page.select_option("#studio-bot", "random")
        page.fill("#studio-games", "2")
        page.click("#studio-measure")
        page.wait_for_selector("#studio-job-state[data-state=done]", timeout=180_000)
        rows = page.locator("#studio-cards tbody tr")
        names = rows.evaluate_all("rs => rs.map(r => r.dataset.card)")
        assert sorted(names) == ["Brass Mantis", "Copper Hare", "Slate Tortoise"]  # the pack's own three
        head = page.inner_text("#studio-cards thead")
        assert "usage says" in head and "effect" in head
        for i in range(3):
            cells = rows.nth(i).locator("td").all_inner_texts()
            assert re.fullmatch(r"[+-]\d+\.\d\s+\([+-]\d+\.\d … [+-]\d+\.\d\)", cells[-1]), cells  # effect, interval
        page.screenshot(path=str(tmp_path / "studio-measure.png"), full_page=True)
    finally:
        ctx.close()


def _both_play_to_the_end(pages: list[Any], rng: random.Random, seconds: float = 300) -> None:
    """Two people at one table click what their page offers (the board's own targets, or an
    action button) until both pages show the end."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(p.locator("#outcome").count() for p in pages):
            return
        for p in pages:
            if p.locator("#outcome").count():
                continue
            board = p.locator("#kb-choose button[data-place], #grid button.kb-cell.spot, #grid .kb-card.target")
            buttons = p.locator("#actions button:not([disabled])")
            target = board if board.count() and rng.random() < 0.7 else buttons
            n = target.count()
            if n:
                with contextlib.suppress(Exception):  # redrawn under the click: look again
                    target.nth(rng.randrange(n)).click(timeout=500)
        pages[0].wait_for_timeout(30)
    raise AssertionError("the playtest did not end in time: " + pages[0].inner_text("#log")[-600:])


@pytest.mark.timeout(420)
def test_save_a_version_playtest_it_by_invite_link_and_play_it(browser: Any, server: LiveServer,
                                                                tmp_path: Path) -> None:
    ctx, page = _studio(browser, server)
    ctx_b, tester = new_page(browser, "phone")
    try:
        _valid(page, True)
        _type(page, "[name='root[id]']", "studio-playtest")
        _type(page, "[name='root[name]']", "Playtest <b>Pack</b>")
        _type(page, "[name='root[cards][0][name]']", "Stone <i>Crab")
        _valid(page, True)
        page.click("#studio-save")
        page.wait_for_selector("#studio-saved[data-version]")
        ident = page.get_attribute("#studio-saved", "data-version")
        item = page.locator(f"#studio-versions li[data-version='{ident}']")
        item.wait_for()
        assert "Playtest <b>Pack</b>" in item.inner_text() and item.locator("b b").count() == 0  # markup as text
        page.click("#studio-save")  # the same document again: the same version, listed once
        page.wait_for_function("document.querySelector('#studio-saved').textContent.includes('saved before')")
        assert page.locator("#studio-versions li[data-version]").count() == 1
        page.screenshot(path=str(tmp_path / "studio-versions.png"), full_page=True)
        ctx_p, phone = _studio(browser, server, "phone")  # the same list on a phone (the same address)
        phone.locator(f"#studio-versions li[data-version='{ident}']").scroll_into_view_if_needed()
        phone.screenshot(path=str(tmp_path / "studio-versions-phone.png"))
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, "nothing wider than the phone"
        ctx_p.close()
        page.click("details:has(> #studio-playtest-options) > summary")
        if page.locator("#studio-playtest-options #advanced-options:not([open])").count():
            page.click("#studio-playtest-options #advanced-options summary")
        assert page.locator("#studio-playtest-options [data-option='packs']").count() == 0, "the version sets it"
        page.fill("#studio-playtest-options [name='max_turns']", "10")  # a short playtest
        page.fill("#studio-playtest-options [name='max_rounds']", "2")
        offered = page.locator("#studio-against option").evaluate_all("os => os.map(o => o.value)")
        assert offered[:2] == ["invite", "open"] and "easy" in offered and "learned" not in offered  # its levels
        page.select_option("#studio-against", "invite")
        item.locator("button.playtest").click()
        page.wait_for_selector("#invite", state="attached")
        table_id = page.url.rsplit("/", 1)[1]
        invite = page.input_value(".invite-link[data-seat='1']")
        assert invite.startswith(f"{server.url}/t/{table_id}#invite=")
        # the uploaded pack's card is dealt, its name as text
        page.wait_for_function("document.querySelector('#app').innerText.includes('Stone <i>Crab')")

        tester.goto(invite)  # the playtester, on a phone, by the link alone
        tester.fill("#join-name", "Bo")
        tester.click("button[data-seat='invite']")
        tester.wait_for_selector("#board")
        _both_play_to_the_end([page, tester], random.Random(7))
        page.screenshot(path=str(tmp_path / "playtest-designer.png"))
        tester.screenshot(path=str(tmp_path / "playtest-tester.png"))
        record = httpx.get(f"{server.url}/api/tables/{table_id}/record").json()
        assert record["config"]["content"] == ident and record["config"]["packs"][0] == "studio-playtest"
        assert (record["config"]["max_turns"], record["config"]["max_rounds"]) == (10, 2)
        for p in (page, tester):  # no element was made from a name
            assert p.evaluate("[...document.querySelectorAll('i, b')].filter(e => /Crab|Pack/.test(e.textContent)"
                              " && !/[<>]/.test(e.textContent)).length") == 0
    finally:
        ctx.close()
        ctx_b.close()
