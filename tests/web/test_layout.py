"""The table's layout at 1280x800 and 390x844: for every kind of decision each game asks, the
prompt, its choices and your hand are on the first screen without scrolling (a timed puzzle in a
view that fits the screen); the log shows at least 8 lines on a desktop and opens from a one-line
strip on a phone; no word is split across lines and nothing is wider than the screen at any
width from 320 to 1920 px; a table opens at its top; axe-core finds nothing serious.

The screens are staged (tests/web/staged.py): a moment of a game reached by fixed moves, shown
with the frame the server sends for it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from knockabout.core.registry import get_game
from tests.web.conftest import LiveServer
from tests.web.pages import SIZES, create_table, made_table, new_page
from tests.web.screen_checks import page_overflow, serious_a11y, split_words
from tests.web.staged import WHERE, Moment, first, frame_of, kind_moment, moment, show

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

GAMES = list(WHERE)


def all_kinds() -> list[tuple[str, str]]:
    return [(g, k) for g in GAMES for k in sorted(get_game(g).facts.decision_kinds)]


# where each part is, relative to the screen, with the page at its top
FIRST_SCREEN = """() => {
  window.scrollTo(0, 0);
  const vw = window.innerWidth, vh = window.innerHeight;
  const box = (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left,
    right: r.right, w: r.width, h: r.height }; };
  const seen = (e) => e && e.getClientRects().length > 0;
  const part = (name) => [...document.querySelectorAll(`[data-part='${name}']`)].find(seen) || null;
  const out = { vw, vh, parts: {} };
  for (const name of ['prompt', 'choices', 'hand', 'timer', 'challenge']) {
    const e = part(name);
    if (e) out.parts[name] = box(e);
  }
  const choices = part('choices');
  const first = choices && [...choices.querySelectorAll('button')].find(seen);
  if (first) out.parts.first_choice = box(first);
  const cubes = [...document.querySelectorAll("[data-part='challenge'] button")].filter(seen);
  out.cubes = cubes.map(box);
  const view = document.querySelector('#challenge-view:not([hidden])');
  if (view) out.view = { scroll: view.scrollHeight, client: view.clientHeight };
  return out;
}"""


def off_screen(found: dict[str, Any]) -> list[str]:
    vw, vh = found["vw"], found["vh"]
    bad = []
    for name, r in found["parts"].items():
        if r["top"] < -1 or r["bottom"] > vh + 1 or r["left"] < -1 or r["right"] > vw + 1:
            bad.append(f"{name} at {r['left']:.0f},{r['top']:.0f}-{r['right']:.0f},{r['bottom']:.0f} ({vw}x{vh})")
    for r in found["cubes"]:
        if r["top"] < 0 or r["bottom"] > vh or r["left"] < 0 or r["right"] > vw:
            bad.append(f"a cube at {r['left']:.0f},{r['top']:.0f}")
    return bad


def test_every_decision_kind_has_a_staged_moment() -> None:
    for game in GAMES:
        for kind in get_game(game).facts.decision_kinds:
            m = kind_moment(game, kind)
            d = m.decision()
            assert d is not None and d.kind == kind and d.player == 0


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_prompt_choices_and_hand_are_on_the_first_screen_in_every_decision(
        server: LiveServer, browser: Any, game: str, size: str) -> None:
    ctx, page = new_page(browser, size, reduced_motion="reduce")
    problems = []
    for g, kind in all_kinds():
        if g != game:
            continue
        show(page, server, frame_of(kind_moment(game, kind)))
        page.wait_for_selector("[data-part='prompt']")
        found = page.evaluate(FIRST_SCREEN)
        parts = set(found["parts"])
        if kind == "tower_challenge":  # a puzzle the table judges: its own view, with the timer and rule
            assert {"prompt", "challenge", "timer"} <= parts, f"{kind}: {parts}"
            assert found["cubes"], "the cubes to pick are shown"
            assert found["view"]["scroll"] <= found["view"]["client"] + 1, "the puzzle's view fits the screen"
        else:
            assert {"prompt", "choices"} <= parts, f"{game} {kind} at {size}: {parts}"
            if game != "knockback" or kind != "place":  # placing is done on the grid (the list folds away)
                assert "first_choice" in parts, f"{game} {kind}: no choice button shows"
        if game in ("nak-muay", "knockdown"):
            assert "hand" in parts, f"{game} {kind}: your hand is not shown"
        problems += [f"{kind}: {p}" for p in off_screen(found)]
    ctx.close()
    assert not problems, f"{game} at {size}, off the first screen:\n" + "\n".join(problems)


LOG_LINES = """() => {
  const log = document.querySelector('#log');
  const r = log.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(log.querySelector('p') || log).lineHeight);
  return { lines: log.clientHeight / line, top: r.top, bottom: r.bottom, vh: window.innerHeight,
           shown: [...log.querySelectorAll('p')].filter((p) => { const q = p.getBoundingClientRect();
             return q.top >= r.top - 1 && q.bottom <= r.bottom + 1; }).length };
}"""


@pytest.mark.parametrize("game", GAMES)
def test_the_log_shows_eight_lines_beside_the_players_on_a_desktop(server: LiveServer, browser: Any, game: str) -> None:
    m = moment(game, *{"nak-muay": (0, 40), "knockdown": (0, 60), "knockback": (0, 60)}[game],
               WHERE[game][""])
    ctx, page = new_page(browser, "desktop", reduced_motion="reduce")
    show(page, server, frame_of(m))
    page.evaluate("() => window.scrollTo(0, 0)")
    got = page.evaluate(LOG_LINES)
    assert got["lines"] >= 8 and got["shown"] >= 6, got
    assert got["top"] >= 0 and got["bottom"] <= got["vh"], f"the log is on the first screen: {got}"
    players = page.locator("#players").bounding_box()
    log = page.locator("#log").bounding_box()
    assert players is not None and log is not None and players["y"] < log["y"], "under the player panel"
    ctx.close()


def test_on_a_phone_a_log_strip_opens_the_whole_log(server: LiveServer, browser: Any) -> None:
    ctx, page = new_page(browser, "phone", reduced_motion="reduce")
    show(page, server, frame_of(moment("nak-muay", 0, 40, WHERE["nak-muay"][""])))
    strip = page.locator("#log-strip")
    last = page.locator("#log p").last.inner_text()
    assert strip.is_visible() and last in strip.inner_text(), "the strip shows the newest line"
    box = strip.bounding_box()
    assert box is not None and box["height"] < 44 and box["y"] + box["height"] <= 844, "one line, on the screen"
    assert not page.locator("#log").is_visible()
    header = page.locator(".topbar").bounding_box()
    assert header is not None and header["height"] < 50, "the header is one line"
    strip.click()
    assert page.locator("#log").is_visible() and strip.get_attribute("aria-expanded") == "true"
    assert page.evaluate(LOG_LINES)["lines"] >= 8
    problems = serious_a11y(page)
    assert not problems, problems
    page.keyboard.press("Escape")
    assert not page.locator("#log").is_visible()
    ctx.close()


WIDTHS = [320, 360, 390, 414, 600, 768, 820, 1024, 1280, 1440, 1920]


def test_no_word_splits_and_nothing_is_wider_than_the_screen(server: LiveServer, browser: Any) -> None:
    ctx, page = new_page(browser, "desktop", reduced_motion="reduce")
    # some tables in the lobby's lists, finished ones (Replay) among them
    create_table(page, server, game="knockback", name="Ann", seats={1: "random"})
    page.goto(server.url + "/")
    page.wait_for_selector(".table-card")
    frames = {g: frame_of(moment(g, 0, 40, WHERE[g][""])) for g in GAMES}
    frames["end"] = frame_of(first("knockback", lambda m, d: d is None, {"max_turns": 12}, range(5)))
    problems = []
    for w in WIDTHS:
        page.set_viewport_size({"width": w, "height": 800})
        page.goto(server.url + "/")
        page.wait_for_selector(".table-card")
        problems += [f"lobby at {w}: {p}" for p in split_words(page)]
        if page_overflow(page) > 0:
            problems.append(f"lobby at {w}: {page_overflow(page)} px wider than the screen")
        for name, frame in frames.items():
            show(page, server, frame)
            problems += [f"{name} at {w}: {p}" for p in split_words(page)]
            if page_overflow(page) > 0:
                problems.append(f"{name} at {w}: {page_overflow(page)} px wider than the screen")
    ctx.close()
    assert not problems, "\n".join(problems)


def test_the_lobby_lists_become_cards_on_a_phone(server: LiveServer, browser: Any) -> None:
    made_table(server, "knockback", ["me", "random"])  # (a listed table, whatever ran before)
    ctx, page = new_page(browser, "phone")
    page.goto(server.url + "/")
    page.wait_for_selector(".table-card")
    card = page.locator(".table-card").first
    game = card.locator(".tc-game").bounding_box()
    link = card.locator(".btn").bounding_box()
    assert game is not None and link is not None
    assert link["height"] < 48 and link["width"] > 40, "the link is one word on one line"
    assert card.evaluate("e => getComputedStyle(e).borderRadius") != "0px", "a card of its own"
    ctx.close()


def test_a_table_opens_at_its_top(server: LiveServer, browser: Any) -> None:
    ctx, page = new_page(browser, "desktop")
    page.goto(server.url + "/")
    page.wait_for_selector(".game-card")
    page.click(".game-card[data-game='nak-muay'] .setup")  # scrolls down to the form
    page.select_option("select[data-seat='1']", "random")
    page.select_option("select[data-seat='2']", "random")
    page.wait_for_function("window.scrollY > 100")
    page.click("#create-btn")
    page.wait_for_selector("#board > *")
    assert page.evaluate("window.scrollY") == 0
    ctx.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_axe_finds_nothing_serious_on_the_staged_tables(server: LiveServer, browser: Any, size: str) -> None:
    ctx, page = new_page(browser, size, reduced_motion="reduce")
    problems = []
    for name, m in [("nak-muay countdown", kind_moment("nak-muay", "countdown_response")),
                    ("knockdown turn", kind_moment("knockdown", "turn")),
                    ("knockdown tower", kind_moment("knockdown", "tower_challenge")),
                    ("knockback symbol", kind_moment("knockback", "symbol")),
                    ("knockback draft", kind_moment("knockback", "draft"))]:
        show(page, server, frame_of(m))
        problems += [f"{name}: {p}" for p in serious_a11y(page)]
    ctx.close()
    assert not problems, "\n".join(problems)


# the Knockdown arena on the first screen: its bottom, the turn line and how large it is drawn
ARENA = """() => {
  window.scrollTo(0, 0);
  const dock = document.querySelector('#dock').getBoundingClientRect();
  const arena = document.querySelector('#arena svg').getBoundingClientRect();
  const line = document.querySelector('.kd-pending')?.getBoundingClientRect() || null;
  const [, , w, h] = document.querySelector('#arena svg').getAttribute('viewBox').split(' ').map(parseFloat);
  const scale = Math.min(arena.width / w, arena.height / h);  // the drawing's own scale (it keeps its shape)
  const font = (sel) => scale
    * Math.min(...[...document.querySelectorAll(sel)].map((t) => parseFloat(t.getAttribute('font-size'))));
  return { dockTop: dock.top, arenaBottom: arena.bottom, lineBottom: line && line.bottom, scale,
           coord: font('#arena text.kd-coord'), initials: font('#arena text[data-follows]'),
           wider: document.scrollingElement.scrollWidth - window.innerWidth };
}"""


def later_decision(game: str, kind: str, after: int) -> Moment:
    """The first staged moment where seat 0 makes a decision of ``kind`` after ``after`` moves."""
    return first(game, lambda m, d: d is not None and d.player == 0 and d.kind == kind and len(m.actions) >= after,
                 {}, range(40))


def staged_problems(browser: Any, server: LiveServer, size: str, moments: dict[str, Moment], js: str,
                    check: Callable[[dict[str, Any]], list[str]]) -> list[str]:
    """What ``check`` finds wrong in what ``js`` measures on each staged moment."""
    ctx, page = new_page(browser, size, reduced_motion="reduce")
    found = []
    for name, m in moments.items():
        show(page, server, frame_of(m))
        page.wait_for_timeout(100)  # boxes sized from the dock's height settle once it is known
        got = page.evaluate(js)
        found += [f"{name}: {p}: {got}" for p in check(got)]
    ctx.close()
    return found


@pytest.mark.parametrize("size", list(SIZES))
def test_the_knockdown_arena_and_the_turn_line_are_above_the_dock_and_readable(
        server: LiveServer, browser: Any, size: str) -> None:
    """Issue 38, item 6: at 1280x800 the arena and whose turn it is need no scrolling (the dock
    used to cover the turn line), and on a phone the arena stays readable. Above a tall dock the
    arena is drawn smaller, never below 0.7 of its size (its labels 7 px, the fighters' 10.5 px)."""
    coord, initials = (8, 12) if size == "phone" else (7, 10.5)

    def check(got: dict[str, Any]) -> list[str]:
        bad = []
        if got["lineBottom"] is None or max(got["arenaBottom"], got["lineBottom"]) > got["dockTop"] + 1:
            bad.append("the arena or the turn line is under the dock")
        if got["coord"] < coord or got["initials"] < initials:
            bad.append("the arena's text is drawn too small to read")
        if got["wider"] > 0:
            bad.append("the page is wider than the screen")
        return bad

    moments = {"turn": kind_moment("knockdown", "turn"), "middle": later_decision("knockdown", "turn", 50)}
    problems = staged_problems(browser, server, size, moments, ARENA, check)
    assert not problems, "\n".join(problems)


ACTIVE_TILE = """() => {
  window.scrollTo(0, 0);
  const dock = document.querySelector('#dock').getBoundingClientRect();
  const grid = document.querySelector('#grid').getBoundingClientRect();
  const t = document.querySelector('#grid .kb-card.active').getBoundingClientRect();
  return { dockTop: dock.top, gridBottom: grid.bottom, top: t.top, bottom: t.bottom, left: t.left, right: t.right,
           vw: window.innerWidth };
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_knockback_card_in_play_is_on_the_first_screen(server: LiveServer, browser: Any, size: str) -> None:
    """A card taking its symbols is in view above the dock, however large the grid: the grid's
    box ends above the dock and keeps the active card in its middle (it used to lie under the
    dock, a page's scroll away)."""

    def check(got: dict[str, Any]) -> list[str]:
        bad = []
        if got["top"] < 0 or got["bottom"] > got["dockTop"] + 1 or got["left"] < 0 or got["right"] > got["vw"]:
            bad.append("the active card is off the first screen")
        if got["gridBottom"] > got["dockTop"] + 1:
            bad.append("the grid runs under the dock")
        return bad

    moments = {"symbol": kind_moment("knockback", "symbol"), "middle": later_decision("knockback", "symbol", 40)}
    problems = staged_problems(browser, server, size, moments, ACTIVE_TILE, check)
    assert not problems, "\n".join(problems)
