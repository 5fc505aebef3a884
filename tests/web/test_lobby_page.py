"""The lobby in the browser: pickers built from each game's choices, a quick game, your tables
remembered, the invite link from the address the browser used, and the page's weight."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_pickers_offer_the_real_choices_and_the_table_gets_them(server: LiveServer, browser: Any) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.click(".game-card[data-game='knockdown'] .setup")
    fighters = "select[name='fighters.0'] option"
    only_grail = page.locator(fighters).evaluate_all("els => els.map(e => e.value)")
    assert "random" in only_grail and all(v == "random" or v.startswith("tainted_grail:") for v in only_grail)
    page.check("input[name='boxes'][value='nemesis']")
    both = page.locator(fighters).evaluate_all("els => els.map(e => e.value)")
    assert any(v.startswith("nemesis:") for v in both), "checking a box offers its fighters"
    pick = next(v for v in both if v.startswith("nemesis:"))
    page.select_option("select[name='fighters.0']", pick)
    assert page.locator("[data-option='fighters'] .choice-detail").count() >= 1, "the fighter sheet is one tap away"
    page.select_option("select[name='knockdown_test']", "tower")
    page.click("#create-btn")
    page.wait_for_selector("#invite", state="attached")
    table_id = page.input_value("#invite").rsplit("/", 1)[1]
    live = server.app.state.manager.get(table_id)
    cfg = live.table.record.config
    assert cfg["boxes"] == ["tainted_grail", "nemesis"] and cfg["fighters"][0] == pick
    assert cfg["knockdown_test"] == "tower"
    # the invite is the address this browser used, with a note when that is this computer only
    page.wait_for_selector("#board > *")
    if not page.locator("#invite-note").is_visible():  # folded once the table is playing
        page.click("#invite-box summary")
    assert page.input_value("#invite") == page.evaluate("location.origin") + f"/t/{table_id}"
    assert "--host 0.0.0.0" in page.inner_text("#invite-note")
    # back in the lobby, the table is among yours
    page.goto(server.url + "/")
    page.wait_for_selector(f"#my-tables [data-table='{table_id}']")
    assert page.locator(f"#all-tables [data-table='{table_id}']").count() == 0
    assert page.locator(f"#my-tables [data-table='{table_id}'] time").count() == 1, "with its created time"
    ctx.close()


def test_the_seat_pickers_offer_the_levels_each_game_has(server: LiveServer, browser: Any) -> None:
    """``learned`` is a seat choice only for a game that ships a trained network."""
    from knockabout.bots.levels import levels_for

    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.url + "/")
    seat = "#seats select[data-seat='1']"
    for game in ("knockback", "knockdown", "nak-muay"):
        page.click(f".game-card[data-game='{game}'] .setup")
        values = page.locator(f"{seat} option").evaluate_all("els => els.map(e => e.value)")
        assert values == ["open", "invite", *levels_for(game)], game
    assert "learned" in levels_for("nak-muay")
    page.select_option(seat, "learned")
    page.click(".game-card[data-game='nak-muay'] .setup")  # drawn again: the choice is kept
    assert page.input_value(seat) == "learned"
    without = next(g for g in ("knockback", "knockdown") if "learned" not in levels_for(g))
    page.click(f".game-card[data-game='{without}'] .setup")  # a game without it: the default level
    assert page.input_value(seat) == "easy"
    page.click(".game-card[data-game='nak-muay'] .setup")
    page.select_option(seat, "learned")
    page.click("#create-btn")
    page.wait_for_selector("#invite", state="attached")
    table_id = page.input_value("#invite").rsplit("/", 1)[1]
    assert server.app.state.manager.get(table_id).table.seats[1].level == "learned"
    ctx.close()


def test_a_quick_game_starts_against_a_bot_in_one_click(server: LiveServer, browser: Any) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.click(".game-card[data-game='knockback'] .quick")
    page.wait_for_selector("#board .kb-top")
    table_id = page.input_value("#invite").rsplit("/", 1)[1]
    table = server.app.state.manager.get(table_id).table
    assert [s.kind for s in table.seats] == ["person", "bot"] and table.seats[1].level == "easy"
    assert table.undo_allowed, "a guest's quick game lets them take back moves"
    ctx.close()


def test_a_signed_in_players_quick_game_is_rated_so_it_has_no_undo(server: LiveServer, browser: Any) -> None:
    """A table that allows undo rates nobody, so a signed-in player's quick game leaves it
    off: it counts for their rating and the bot's."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.url + "/signup")
    page.fill("#su-name", "Quickly")
    page.fill("#su-pass", "quick secret!")
    page.click("form button[type=submit]")
    page.wait_for_selector("#profile-name")
    page.goto(server.url + "/")
    button = page.locator(".game-card[data-game='knockback'] .quick")
    assert "rated" in (button.get_attribute("title") or "")
    button.click()
    page.wait_for_selector("#board .kb-top")
    table_id = page.input_value("#invite").rsplit("/", 1)[1]
    table = server.app.state.manager.get(table_id).table
    assert not table.undo_allowed
    assert page.locator("#undo").count() == 0
    ctx.close()


def test_the_first_page_load_stays_under_300_kb(server: LiveServer, browser: Any) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    sizes: dict[str, int] = {}

    def on_response(r: Any) -> None:
        try:
            sizes[r.url] = len(r.body())
        except Exception:  # a response without a body (a redirect)
            sizes[r.url] = 0

    page.on("response", on_response)
    page.goto(server.url + "/")
    page.wait_for_selector(".game-card")
    page.wait_for_load_state("networkidle")
    total = sum(sizes.values())
    assert all(u.startswith(server.url) for u in sizes), "nothing from a CDN"
    assert total < 300_000, f"first load {total} bytes: {sizes}"
    ctx.close()


@pytest.mark.parametrize("game", ["nak-muay", "knockdown", "knockback"])
def test_the_form_speaks_of_the_game_and_keeps_bot_tuning_under_a_fold(server: LiveServer, browser: Any,
                                                                        game: str) -> None:
    """Options by their names in words, choices by name, bot tuning and safety limits under
    'Advanced'; a choice the game refuses comes back as a sentence about the game."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.click(f".game-card[data-game='{game}'] .setup")
    form = page.inner_text("#options")
    assert "_" not in form, f"an option key or value in the form: {form!r}"
    advanced = page.locator("#advanced-options")
    assert advanced.count() == 1 and not advanced.evaluate("e => e.open")
    hidden = advanced.locator("[data-option]").evaluate_all("els => els.map(e => e.dataset.option)")
    assert "max_turns" in hidden
    if game == "knockdown":
        assert {"tower_skill", "tower_decay"} <= set(hidden)
        assert not page.locator("input[name='tower_skill']").is_visible()
        page.click("#advanced-options summary")
        assert page.locator("input[name='tower_skill']").is_visible()
        for box in page.locator("input[name='boxes']:checked").all():  # (a number past its range the
            box.uncheck()                                              # browser itself refuses)
        page.click("#create-btn")
        page.wait_for_selector("#toast:not([hidden])")
        assert page.inner_text("#toast") == "Boxes: choose at least one."
    if game == "nak-muay":
        assert "Play, then draw" in form and "House rule: everyone starts with a Block" in form
    ctx.close()
