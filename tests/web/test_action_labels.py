"""Action buttons say what they do, and two different actions never say the same."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import LiveServer, browser, server  # noqa: F401 - pytest fixtures


def test_scouting_two_alike_cards_says_which_one_is_taken(server: LiveServer, browser: Any) -> None:  # noqa: F811
    page = browser.new_page()
    page.goto(server.url + "/")
    labels = page.evaluate("""async () => {
      const r = await import("/games/nak-muay/renderer.js");
      const view = { seat: 0, pending: { seen: ["block", "block", "dodge"] }, decision: { kind: "scout_take" } };
      const ctx = { names: ["Ann", "Bot"] };
      return ["scout-take:0", "scout-take:1", "scout-take:2"].map((t) => r.actionLabel(t, view, ctx));
    }""")
    page.close()
    assert labels == ["Take Block (card 1 from the top)", "Take Block (card 2 from the top)", "Take Dodge"]
