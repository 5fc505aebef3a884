"""Turn alerts in Chromium: when a decision opens for you while the table's tab is hidden,
the title and the tab's icon change, the turn sound plays (sound on), and a notification
shows if this browser allowed them; nothing of it while the tab is shown, and no
notification where the browser did not allow them. The tab's visibility is emulated
(document.visibilityState and the visibilitychange event)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.conftest import LiveServer
from tests.web.pages import made_table, my_move, new_page, play_first, sit, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

# before the page's own scripts: a switchable visibility, notifications and oscillators counted
WATCH = """(() => {
  let hidden = false;
  Object.defineProperty(Document.prototype, "visibilityState", { configurable: true,
    get() { return hidden ? "hidden" : "visible"; } });
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get() { return hidden; } });
  window.__setHidden = (h) => { hidden = h; document.dispatchEvent(new Event("visibilitychange")); };
  window.__notes = [];
  const Real = window.Notification;
  if (Real) {
    window.Notification = class extends Real {
      constructor(title, opts) { window.__notes.push({ title, body: (opts || {}).body }); super(title, opts); }
    };
  }
  window.__tones = [];  // the frequencies the sounds' oscillators were set to (the turn's: 660 then 880 Hz)
  const set = AudioParam.prototype.setValueAtTime;
  AudioParam.prototype.setValueAtTime = function (v, t) {
    if (v > 20) window.__tones.push(Math.round(v));
    return set.call(this, v, t);
  };
  try { localStorage.setItem("knockabout:sound", "on"); localStorage.setItem("knockabout:notify", "on"); } catch {}
})()"""

STATE = """async () => {
  const { ICONS } = await import("/static/alerts.js");
  const href = document.querySelector("link[rel~='icon']").getAttribute("href");
  return { title: document.title, icon: href === ICONS.alert ? "alert" : href === ICONS.plain ? "plain" : href,
           notes: window.__notes, tones: window.__tones };
}"""


def until_turn_of(mover: Any, other: Any) -> None:
    """Both play their first choices until ``mover`` decides and ``other`` waits."""
    for _ in range(100):
        wait_until(lambda: my_move(mover) or my_move(other), 30)
        if my_move(mover) and not my_move(other):
            return
        play_first(other if my_move(other) else mover)
        mover.wait_for_timeout(200)
    raise AssertionError("the turn never came")


def alerted(page: Any) -> bool:
    return str(page.evaluate("document.title")).startswith("▶ Your move!")


def play_until_alerted(mover: Any, watcher: Any) -> None:
    """``mover`` plays their turn (one decision or more) until ``watcher``'s tab shows the alert."""
    for _ in range(100):
        if alerted(watcher):
            return
        if my_move(mover):
            play_first(mover)
        mover.wait_for_timeout(200)
    raise AssertionError("the tab was never alerted")


def test_a_decision_opening_in_a_hidden_tab_changes_title_and_icon_sounds_and_notifies(
        server: LiveServer, browser: Any) -> None:
    made = made_table(server, "knockback", ["me", "open"], name="Ann")
    joined = httpx.post(f"{server.url}/api/tables/{made['id']}/join", json={"name": "Bo"}, timeout=30).json()
    actx, ann = new_page(browser, permissions=["notifications"])  # Ann allowed notifications
    bctx, bo = new_page(browser, "phone")  # Bo's browser was never asked
    for page in (ann, bo):
        page.add_init_script(WATCH)
    sit(ann, server, made["id"], made["token"], 0)
    sit(bo, server, made["id"], joined["token"], 1)
    ann.wait_for_selector("#board")
    bo.wait_for_selector("#board")
    assert ann.is_checked("#notify-on") and not bo.is_checked("#notify-on")
    for page in (ann, bo):
        page.click("#players")  # a click on the page lets its sounds start (the browser's rule)

    until_turn_of(bo, ann)  # Bo to move, Ann waits...
    ann.evaluate("__setHidden(true)")  # ...in a tab in the background
    before = ann.evaluate(STATE)
    assert before["title"] == "knockabout" and before["icon"] == "plain" and before["notes"] == []
    play_until_alerted(bo, ann)
    now = ann.evaluate(STATE)
    assert now["title"] == "▶ Your move! · KNOCKBACK 'til they croak · knockabout"
    assert now["icon"] == "alert"
    assert len(now["notes"]) == 1 and now["notes"][0]["title"] == "Your move · KNOCKBACK 'til they croak"
    assert now["notes"][0]["body"] == ann.evaluate("document.querySelector('#prompt-title').textContent")
    assert 880 in now["tones"] and 880 not in before["tones"], "the turn sound played"

    ann.evaluate("__setHidden(false)")  # Ann looks: the alert is over, the move is still hers
    seen = ann.evaluate(STATE)
    assert seen["title"] == "● Your move · knockabout" and seen["icon"] == "plain"

    # Bo, whose browser allows no notifications, gets the title and the icon in his hidden tab
    bo.evaluate("__setHidden(true)")
    play_until_alerted(ann, bo)
    b = bo.evaluate(STATE)
    assert b["notes"] == [] and b["icon"] == "alert" and 880 in b["tones"]
    # and a decision opening in a shown tab alerts nothing
    turns = ann.evaluate("__tones").count(880)
    until_turn_of(ann, bo)
    shown = ann.evaluate(STATE)
    assert len(shown["notes"]) == 1 and shown["icon"] == "plain" and shown["title"] == "● Your move · knockabout"
    assert shown["tones"].count(880) == turns
    actx.close()
    bctx.close()
