"""Direct play: every action whose parts are drawn (a card of your hand, then its target on the
board) is played by clicking them, at every kind of decision of every game, and sends exactly
that action; the buttons stay. Then a whole game of each, played on the board wherever the
board offers the move, at a live table."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from knockabout.core.registry import get_game
from tests.web.conftest import LiveServer
from tests.web.pages import made_table, new_page, sit
from tests.web.staged import WHERE, Moment, first, frame_of, kind_moment, mine, show

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

GAMES = list(WHERE)
# the actions each game offers on its board (their first word), at least these must be met
ON_THE_BOARD = {
    "nak-muay": {"draw", "attack", "dodge", "scout", "target", "block", "clinch", "scout-take"},
    "knockdown": {"attack", "row", "move", "pay", "card"},
    "knockback": {"place", "activate", "keep", "hit"},
}

PICKS = """async ([game, legal, view, seat]) => {
  const r = await import(`/games/${game}/renderer.js`);
  return legal.map((a) => [a, r.picks ? (r.picks(a, view, { seat }) || []) : []]);
}"""


def play_by_picks(page: Any, action: str, keys: list[str]) -> None:
    """Click the things ``keys`` name, in order, then the pick bar's button if it asks."""
    for i, key in enumerate(keys):
        target = page.locator(f"[data-pick='{key}'].pickable").first
        assert target.count(), f"{action}: step {i + 1} ({key}) is not offered"
        target.click()
    bar = page.locator(f"#pick-bar button[data-pick-action='{action}']")
    if bar.count():
        bar.click()


MAIN = {"nak-muay": "action", "knockdown": "turn", "knockback": "turn"}


def staged_moments(game: str) -> list[Moment]:
    """A moment of every kind of decision, and the game's main decision later on (other hands)."""
    out = [kind_moment(game, k) for k in sorted(get_game(game).facts.decision_kinds) if k != "tower_challenge"]
    for step in (8, 16, 24):
        out.append(first(game, lambda m, d, n=step: mine(MAIN[game])(m, d) and len(m.actions) >= n,
                         WHERE[game][""], range(20)))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_action_with_visible_parts_is_played_by_clicking_them(server: LiveServer, browser: Any,
                                                                    game: str) -> None:
    ctx, page = new_page(browser, "desktop", reduced_motion="reduce")
    played: set[str] = set()
    for m in staged_moments(game):
        d = m.decision()
        assert d is not None
        kind = d.kind
        frame = frame_of(m)
        sent = show(page, server, frame)
        ways = page.evaluate(PICKS, [game, frame["legal"], frame["view"], 0])
        for action, options in ways:
            if not options:
                continue
            before = len(sent)
            play_by_picks(page, action, options[0])
            deadline = time.monotonic() + 3
            while len(sent) == before and time.monotonic() < deadline:
                page.wait_for_timeout(20)
            assert sent[before:] == [{"type": "act", "action": action, "version": frame["version"]}], \
                f"{game} {kind}: picking {options[0]} sent {sent[before:]}, not {action}"
            played.add(action.split(":")[0])
            # the buttons are still there (the keyboard's and screen reader's way)
            assert page.locator(f"#decide button[data-action='{action}'], #board-actions button[data-action='{action}']"
                                ).count(), f"{action} has no button"
    ctx.close()
    missing = ON_THE_BOARD[game] - played
    assert not missing, f"{game}: never played on the board: {sorted(missing)}"


def test_a_picked_card_is_taken_back_and_escape_cancels(server: LiveServer, browser: Any) -> None:
    frame = frame_of(kind_moment("nak-muay", "action"))
    ctx, page = new_page(browser, "desktop", reduced_motion="reduce")
    sent = show(page, server, frame)
    card = page.locator("#hand [data-pick^='hand:'].pickable").first
    key = card.get_attribute("data-pick")
    card.click()
    assert page.locator(f"#hand [data-pick='{key}'].picked").count() == 1
    assert page.locator("#pick-bar").is_visible() and page.locator(".pickable").count() >= 1
    page.locator(f"#hand [data-pick='{key}'].picked").click()  # picked again: taken back
    assert page.locator(".picked").count() == 0 and not page.locator("#pick-bar").is_visible()
    card.click()
    page.keyboard.press("Escape")
    assert page.locator(".picked").count() == 0
    # the keyboard picks too: Enter on a marked card
    page.locator("#hand [data-pick^='hand:'].pickable").first.focus()
    page.keyboard.press("Enter")
    assert page.locator(".picked").count() == 1
    assert not [m for m in sent if m.get("type") == "act"], "nothing was played"
    ctx.close()


def click_board(page: Any, rng: random.Random) -> bool:
    """Play on the board: a marked thing, or the pick bar's first offer; False when nothing is marked."""
    bar = page.locator("#pick-bar button[data-pick-action]")
    if bar.count():
        bar.nth(rng.randrange(bar.count())).click(timeout=1000)
        return True
    marked = page.locator(".pickable")
    if not marked.count():
        return False
    marked.nth(rng.randrange(marked.count())).click(timeout=1000)
    return True


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_played_on_the_board(server: LiveServer, browser: Any, game: str) -> None:
    config = {"nak-muay": {"countdown_seconds": 4}, "knockdown": {"max_turns": 16},
              "knockback": {"max_turns": 24}}[game]
    made = made_table(server, game, ["me", "random"], name="Ann", seed=11, config=config)
    ctx, page = new_page(browser, "desktop", reduced_motion="reduce")
    sit(page, server, made["id"], made["token"])
    rng = random.Random(game)
    on_board = by_button = 0
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not page.locator("#outcome").count():
        try:
            if page.locator("#tower-field button:not([disabled])").count():
                page.locator("#tower-field button:not([disabled])").first.click(timeout=1000)
                page.wait_for_timeout(400)
                continue
            if click_board(page, rng):
                on_board += 1
            else:
                buttons = page.locator("#actions button:not([disabled])")
                if buttons.count():
                    buttons.nth(rng.randrange(buttons.count())).click(timeout=1000)
                    by_button += 1
                else:
                    page.wait_for_timeout(40)
        except Exception:  # the page redrew under the click: look again
            page.wait_for_timeout(40)
            continue
    assert page.locator("#outcome").count(), (
        f"the game did not end ({on_board} moves on the board, {by_button} by buttons): "
        + page.inner_text("#log")[-500:])
    acts = [e for e in server.app.state.manager.get(made["id"]).table.log if e.seat == 0 and e.by == "person"]
    assert on_board >= 3 and acts, f"{on_board} moves on the board, {by_button} by buttons"
    ctx.close()


def test_since_your_last_turn_and_the_last_move(server: LiveServer, browser: Any) -> None:
    # (seed 6 gives the first turn to you: with a bot first, its move might reach the page
    # after it connected, and then rightly be recapped at your first turn)
    made = made_table(server, "nak-muay", ["me", "random", "random"], name="Ann", seed=6)
    ctx, page = new_page(browser, "desktop", reduced_motion="reduce")
    sit(page, server, made["id"], made["token"])
    page.wait_for_selector("#actions button")
    table = server.app.state.manager.get(made["id"]).table
    assert not table.log, "the first turn is yours"
    assert page.locator("#recap").count() == 0, "nothing happened yet since a turn of yours"
    checked = False
    for _ in range(3):  # play until a decision of yours follows the bots' moves
        mine = sum(1 for e in table.log if e.seat == 0)
        page.locator("#actions button[data-action='draw'], #actions button").first.click()
        page.wait_for_function("() => document.querySelectorAll('#actions button:not([disabled])').length > 0 "
                               "|| document.querySelector('#outcome')", timeout=20000)
        if page.locator("#outcome").count():
            break
        others = [e for e in table.log[mine:] if e.seat != 0]
        if others:
            recap = page.locator("#recap li").all_inner_texts()
            log = page.locator("#log p").all_inner_texts()
            assert recap and all(line in log for line in recap), (recap, log[-8:])
            assert any("Bot" in line for line in recap), recap
            assert page.locator("#board .last-move").count() >= 1, "the last move is marked"
            checked = True
            break
    assert checked, "the bots moved between two decisions of yours"
    ctx.close()
