"""The web app in headless Chromium, played the way people play it."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from knockabout.table import Seat, Table
from tests.table.conftest import all_events
from tests.web.conftest import LiveServer
from tests.web.pages import click_some_action, create_table, made_table, record_frames, sit, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def live_table(server: LiveServer, table_id: str) -> Table:
    live = server.app.state.manager.get(table_id)
    assert live is not None
    table: Table = live.table
    return table


def test_two_people_and_a_bot_finish_a_game_and_never_see_each_others_hand(server: LiveServer, browser: Any) -> None:
    ctx_a, ctx_b = browser.new_context(), browser.new_context(viewport={"width": 390, "height": 844})
    a, b = ctx_a.new_page(), ctx_b.new_page()
    frames_a, frames_b = record_frames(a), record_frames(b)
    table_id = create_table(a, server, name="Ann", players=3, seats={1: "open", 2: "random"},
                            options={"countdown_seconds": "2"})
    invite = a.input_value("#invite")
    assert invite.endswith(f"/t/{table_id}")

    b.goto(invite)
    b.fill("#join-name", "Bo")
    b.click("button[data-seat='1']")
    b.wait_for_selector("#board .nm-fighter")

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if a.locator("#outcome").count() and b.locator("#outcome").count():
            break
        acted = click_some_action(a, "last") or click_some_action(b, "first")
        if not acted:
            a.wait_for_timeout(30)
    assert a.locator("#outcome").count() and b.locator("#outcome").count(), "both people see the end"
    assert "win" in a.inner_text("#outcome .winner") or "Draw" in a.inner_text("#outcome .winner")

    # nothing private of one seat ever reached the other: views and events, frame by frame
    table = live_table(server, table_id)
    visible = {
        seat: {(step, ev.type, json.dumps(dict(ev.data), sort_keys=True)) for step, ev in all_events(table)
               if ev.visible(seat)}
        for seat in (0, 1)
    }
    for seat, frames in ((0, frames_a), (1, frames_b)):
        states = [f for f in frames if f.get("type") in ("sync", "update")]
        assert states, "the page got its seat's view"
        for f in states:
            assert f["seat"] == seat and f["view"]["seat"] == seat
            assert f["table"]["seed"] is None or f["table"]["status"] == "finished", "the seed gives away the deal"
            for e in f["events"]:
                if e["type"] == "start":  # the page's opening line, not a game event
                    assert e["text"].endswith("goes first.")
                    continue
                assert (e["step"], e["type"], json.dumps(e["data"], sort_keys=True)) in visible[seat]
    # Bo had something private (the deal always, draws most games), else the test proves nothing;
    # a short game can end before Bo ever draws, so the dealt hand counts too
    private_events = [ev for _, ev in all_events(table) if ev.visible_to == frozenset({1})]
    bo_hands = [f["view"]["hand"] for f in frames_b if f.get("type") in ("sync", "update") and f["view"].get("hand")]
    assert private_events or bo_hands, "Bo had private cards or events"
    for f in frames_a:  # Ann's frames carry her own hand only, never anyone else's
        if f.get("type") in ("sync", "update"):
            assert "hands" not in f["view"] and f["view"]["seat"] == 0
    # the DOM shows no face-up card for the other fighter, and Ann's hand is Ann's
    assert a.locator("#board .nm-fighter[data-seat='1'] .card").count() == 0
    last_a = [f for f in frames_a if f.get("type") in ("sync", "update")][-1]
    shown = sorted(a.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert shown == sorted(last_a["view"].get("hand", []))

    # the finished game replays step by step
    a.click("#replay-link")
    a.wait_for_selector("#step-slider")
    a.click("#next")
    a.wait_for_function("document.querySelector('#step-label').textContent.startsWith('step 1 ')")
    a.click("#last")
    a.wait_for_function("!document.querySelector('#step-label').textContent.startsWith('step 1 ')")
    steps = table.version
    final = httpx.get(f"{server.url}/api/tables/{table_id}/replay/{steps}").json()
    assert a.inner_text("#step-label").startswith(f"step {steps} / {steps}")
    revealed = sum(len(v.get("hand", [])) for v in final["views"])
    assert a.locator("#board .nm-fighter .card").count() == revealed, "a replay shows every hand"
    ctx_a.close()
    ctx_b.close()


def test_a_reconnect_resumes_the_same_seat(server: LiveServer, browser: Any) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    table_id = create_table(page, server, name="Cy", players=2, seats={1: "random"})
    page.wait_for_selector("#hand")
    for _ in range(200):
        if click_some_action(page):
            break
        page.wait_for_timeout(30)
    table = live_table(server, table_id)
    wait_until(lambda: any(e.seat == 0 and e.by == "person" for e in table.log))
    before = table.version
    ended_before = table.over  # (rarely, the person's first action or the bot's answer ends the game)
    page.close()  # the connection drops
    deadline = time.monotonic() + 5
    live = server.app.state.manager.get(table_id)
    while live.connected(0) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not live.connected(0)
    page = ctx.new_page()  # same browser profile: the seat token is remembered
    page.goto(f"{server.url}/t/{table_id}")
    page.wait_for_selector("#hand")
    assert "seat 1" in page.inner_text("#crumb")
    assert live.connected(0)
    mine = sum(1 for e in table.log if e.seat == 0 and e.by == "person")
    for _ in range(300):
        if click_some_action(page) or table.over:
            break
        page.wait_for_timeout(30)
    if not table.over:
        wait_until(lambda: sum(1 for e in table.log if e.seat == 0 and e.by == "person") > mine)
    assert table.version > before or ended_before, "the person plays on after reconnecting"
    ctx.close()


def _seed_where_the_bot_counts_down_on_me() -> int:
    for seed in range(300):
        t = Table("nak-muay", [Seat("person", "me"), Seat("bot", "b", "random")], {"players": 2}, seed)
        while not t.over:
            d = t.decision()
            assert d is not None
            if d.player == 1:
                t.tick()
            elif d.kind == "countdown_response":
                return seed
            else:
                t.act(0, t.updates_for(0).legal[0], t.version)
    raise AssertionError("no seed found")


def test_the_countdown_is_a_visible_timer_that_runs_out(server: LiveServer, browser: Any) -> None:
    seed = _seed_where_the_bot_counts_down_on_me()
    made = made_table(server, "nak-muay", ["me", "random"], name="Di", seed=seed, config={"countdown_seconds": 3})
    ctx = browser.new_context()
    page = ctx.new_page()
    sit(page, server, made["id"], made["token"])
    for _ in range(600):
        if page.locator("#timer .timer").count():
            break
        click_some_action(page, avoid="countdown_response")
        page.wait_for_timeout(30)
    timer = page.locator("#timer .timer")
    assert timer.count() == 1 and "You have" in timer.inner_text(), page.inner_text("#log")
    answers = page.locator("#actions button").evaluate_all("els => els.map(e => e.dataset.action)")
    assert answers[-1] == "no-response", f"real answers come first, giving up last: {answers}"
    first = int(page.inner_text("#secs"))
    page.wait_for_timeout(1200)
    assert int(page.inner_text("#secs")) < first, "the timer ticks down"
    page.wait_for_function("document.querySelector('#log').textContent.includes('does not answer the Countdown')",
                           timeout=6000)
    assert page.locator("#timer .timer").count() == 0
    ctx.close()
