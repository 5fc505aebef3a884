"""A turn-based table in Chromium over two days of a faked clock: the lobby lists the table
under "Your turn" with the count in the tab's title for the person whose move it is (and not
for the other), the timer counts the day per move in days and hours, a player who lets a day
pass gets a bot's move and the table says so, and the other still has the rest of their own
day. The server's clock is a fake one the test moves; it wakes the table's driver after."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from knockabout.table.turn_based import DAY, HOUR
from tests.web.conftest import LiveServer, browser  # noqa: F401 - pytest fixture
from tests.web.pages import click_some_action, new_page, sit, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def wake(server: LiveServer, table_id: str) -> None:
    """The table's driver sleeps in real time until its next due time: wake it after a jump."""
    live = server.app.state.server.manager.get(table_id)
    assert live is not None and live.task is not None
    live.task.get_loop().call_soon_threadsafe(live.wake.set)


def to_move(server: LiveServer, table_id: str) -> int:
    live = server.app.state.server.manager.get(table_id)
    d = live.table.decision()
    assert d is not None
    return int(d.player)


def lobby_turns(page: Any, server: LiveServer) -> list[str]:
    page.goto(server.url + "/")
    page.wait_for_selector(".game-card")
    page.wait_for_function("document.title !== 'Loading…'")
    page.wait_for_timeout(300)  # the turns list is asked for once the lobby is drawn
    return page.locator("#your-turn li").evaluate_all("els => els.map(e => e.dataset.table)")  # type: ignore[no-any-return]


def test_a_turn_based_table_over_two_faked_days(tmp_path: Path, browser: Any) -> None:  # noqa: F811
    clock, wall = Clock(1000.0), Clock(1_800_000_000.0)
    elapsed = 0.0

    def advance(seconds: float) -> None:
        nonlocal elapsed
        clock.now += seconds
        wall.now += seconds
        elapsed += seconds

    with LiveServer(tmp_path, clock=clock, wall_clock=wall) as server:
        made = httpx.post(f"{server.url}/api/tables", json={"game": "nak-muay", "seats": ["me", "open"],
                                                            "name": "Ann", "move_time": DAY}, timeout=30).json()
        tid = made["id"]
        joined = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "Bo"}, timeout=30).json()
        tokens = {0: made["token"], 1: joined["token"]}
        pages = {}
        for seat in (0, 1):
            ctx, page = new_page(browser, "desktop" if seat == 0 else "phone")
            sit(page, server, tid, tokens[seat], seat)
            page.wait_for_selector("#board")
            pages[seat] = (ctx, page)
        first = to_move(server, tid)
        other = 1 - first
        # the lobby: "Your turn" for the one to move, with the count in the tab's title
        mover = pages[first][1]
        assert lobby_turns(mover, server) == [tid]
        assert mover.title() == "(1) Your turn · knockabout"
        assert "1 d left" in mover.inner_text("#turns")
        assert lobby_turns(pages[other][1], server) == []
        assert pages[other][1].title() == "knockabout"
        # five hours later the mover opens the table from the list and moves
        advance(5 * HOUR)
        mover.click(f"#your-turn li[data-table='{tid}'] a")
        mover.wait_for_selector("#actions button")
        assert "19 h to move" in mover.inner_text("#timer")
        live = server.app.state.server.manager.get(tid)
        while to_move(server, tid) == first:  # the mover's whole turn (a draw, or an action and its draw)
            before = live.table.version
            mover.wait_for_selector("#actions button:not([disabled])")
            if click_some_action(mover):
                wait_until(lambda v=before: live.table.version > v)
        late = pages[other][1]
        late.goto(f"{server.url}/t/{tid}")  # (it was showing the lobby)
        late.wait_for_selector("#timer .timer", state="attached")
        assert "You have 1 d to move" in late.inner_text("#timer")
        # the other lets the whole day pass (away from the table: nobody marks them away)
        advance(20 * HOUR)
        wake(server, tid)
        late.wait_for_timeout(200)
        assert not any(s.away for s in live.table.seats) and live.table.log[-1].by == "person"
        advance(4 * HOUR + 1)
        wake(server, tid)
        wait_until(lambda: any(e.by == "out-of-time" for e in live.table.log))
        late.reload()
        late.wait_for_function("document.querySelector('#log') && document.querySelector('#log')"
                               ".innerText.includes('Bo ran out of time (1 day per move)')"
                               if other == 1 else
                               "document.querySelector('#log') && document.querySelector('#log')"
                               ".innerText.includes('Ann ran out of time (1 day per move)')")
        # the game goes on; whoever must move now has a whole day of their own
        wait_until(lambda: live.table.decision() is None or live.table.time_limit() == DAY
                   or live.table.bot_controls(live.table.decision().player))
        nxt = to_move(server, tid)
        page = pages[nxt][1]
        assert lobby_turns(page, server) == [tid]
        advance(22 * HOUR)  # two days (and more) since the table began
        assert elapsed >= 2 * DAY
        page.click(f"#your-turn li[data-table='{tid}'] a")
        page.wait_for_selector("#actions button")
        assert "2 h to move" in page.inner_text("#timer")
        version = live.table.version
        while not click_some_action(page):
            page.wait_for_timeout(50)
        wait_until(lambda: live.table.version > version)
        assert live.table.log[version].by == "person", "a move in time is the person's own"
        stored = server.app.state.server.store.get(tid)
        assert "out-of-time" in [e.by for e in live.table.log] and stored is not None
        for ctx, _ in pages.values():
            ctx.close()
