"""The page on patch frames: after its sync it is sent patches of the last message, and
draws from them exactly what a page that just got the whole table (a fresh sync) draws;
a patch that does not fit its copy makes it ask for a sync and carry on."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from tests.web.conftest import LiveServer
from tests.web.pages import click_some_action, create_table, made_table, record_frames

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

# what a page shows of a table, arrival animations aside (they mark what is new since the
# page's own last redraw, so a fresh page has none, and a finished move animation leaves
# an empty style attribute behind, which draws nothing), and the tooltip under the mouse
SNAPSHOT = """async () => {
  // a move animation clears its inline style two frames after the redraw that started it
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const pick = (sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const copy = el.cloneNode(true);
    copy.querySelectorAll('.arrive').forEach((e) => e.classList.remove('arrive'));
    copy.querySelectorAll('[style=""]').forEach((e) => e.removeAttribute('style'));
    // a tooltip shown under the mouse links its element: the pointer's, not the table's
    copy.querySelectorAll('[aria-describedby="tip"]').forEach((e) => e.removeAttribute('aria-describedby'));
    return copy.innerHTML;
  };
  return { board: pick('#board'), players: pick('#players'), result: pick('#result'),
           decide: pick('#decide'), timer: pick('#timer'), crumb: pick('#crumb') };
}"""


def first_difference(a: dict[str, Any], b: dict[str, Any]) -> str:
    """Where two snapshots first differ, with some of the markup around it."""
    for key in a:
        x, y = a[key] or "", b.get(key) or ""
        if x != y:
            i = next((k for k in range(min(len(x), len(y))) if x[k] != y[k]), min(len(x), len(y)))
            return f"{key}: ...{x[max(0, i - 160):i + 120]}... != ...{y[max(0, i - 160):i + 120]}..."
    return "the same"


def fresh_snapshot(browser: Any, url: str, ctx: Any = None) -> dict[str, Any]:
    """What a page that opens the finished table now (one sync, no patches) draws; in
    ``ctx`` (a context that holds a seat's token) as that seat, else as anyone."""
    own = ctx is None
    context = browser.new_context() if own else ctx
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#outcome")
    shot: dict[str, Any] = page.evaluate(SNAPSHOT)
    page.close()
    if own:
        context.close()
    return shot


SHORT = [("knockdown", {"max_turns": 60}), ("knockback", {"best_of": 1, "max_turns": 30})]


@pytest.mark.parametrize(("game_id", "config"), SHORT)
def test_a_spectator_on_patches_draws_what_a_fresh_sync_draws(
        server: LiveServer, browser: Any, game_id: str, config: dict[str, Any]) -> None:
    made = made_table(server, game_id, ["random", "random"], config=config)
    ctx = browser.new_context()
    page = ctx.new_page()
    raw: list[dict[str, Any]] = []
    record_frames(page, raw)
    page.goto(f"{server.url}/t/{made['id']}")
    page.click("#watch")
    page.wait_for_selector("#outcome", timeout=120_000)
    patched = page.evaluate(SNAPSHOT)
    kinds = [f["type"] for f in raw]
    assert kinds[0] == "sync" and kinds.count("patch") >= 10, kinds[:20]
    assert "sync" not in kinds[1:], "no patch went wrong: the page never asked again"
    fresh = fresh_snapshot(browser, f"{server.url}/t/{made['id']}")  # finished: it opens straight away
    assert patched == fresh, first_difference(patched, fresh)
    ctx.close()


def test_a_person_plays_to_the_end_on_patches_and_a_bad_one_brings_a_fresh_sync(
        server: LiveServer, browser: Any) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    asked: list[dict[str, Any]] = []
    seen = {"patches": 0}

    def route(ws: Any) -> None:
        """Pass frames both ways; spoil the fifth patch's base (as if a frame were lost)."""
        upstream = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "patch":
                seen["patches"] += 1
                if seen["patches"] == 5:
                    frame["base"] -= 1
                    message = json.dumps(frame)
            ws.send(message)

        def from_page(message: str | bytes) -> None:
            asked.append(json.loads(message))
            upstream.send(message)

        upstream.on_message(from_server)
        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    # five players: a live table's deal is secret, and a 2- or 3-player game can end in a
    # handful of moves (3 of 300 seeded 3-player random games took under 5); five needed 16
    # moves at the least, so the spoilt fifth patch always comes, with more after it
    create_table(page, server, name="Ann", players=5, seats={seat: "random" for seat in range(1, 5)})
    url = page.input_value("#invite")
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline and not page.locator("#outcome").count():
        if not click_some_action(page, "last"):
            page.wait_for_timeout(30)
    assert page.locator("#outcome").count(), "the game reached its end on patches"
    assert seen["patches"] >= 6, "the page carried on on patches after the spoilt one"
    kinds = [m["type"] for m in asked]
    assert kinds.count("sync") == 1, "the spoilt patch made the page ask for a sync, once"
    assert kinds.count("act") >= 1, "the person played (a live table's deal is secret, so a game may be short)"
    patched = page.evaluate(SNAPSHOT)
    fresh = fresh_snapshot(browser, url, ctx)  # the same seat (its token is in this context), one sync
    assert "seat 1" in (fresh["crumb"] or "") and patched == fresh, first_difference(patched, fresh)
    ctx.close()
