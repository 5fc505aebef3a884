"""Knockdown's and KNOCKBACK's card faces (issue 38, item 6): every shipped card is drawn by
its game's renderer from the data the view carries, with its name, its large figures and the
colour of its type or ability kind; its whole rules text shows when it is zoomed; names fit
their box and the text passes axe at both sizes. A designer's card gets the same face (the
studio's preview: tests/web/test_studio.py)."""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.core.registry import get_game
from tests.web.conftest import LiveServer
from tests.web.pages import SIZES, new_page
from tests.web.screen_checks import overflowing, serious_a11y, split_words
from tests.web.staged import FIXED_LOOK, frame_of, kind_moment, show

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

KNOCKDOWN_BOXES = ("tainted_grail", "nemesis", "siege_storm")


def knockdown_catalog() -> dict[str, Any]:
    """Every shipped Attack card (and Contamination) as the views carry it (``view.cards``)."""
    cards: dict[str, Any] = {}
    for box in KNOCKDOWN_BOXES:
        view = get_game("knockdown").new_state({"boxes": [box]}, 1).observe(0)
        cards.update(view.to_json()["cards"])
    return cards


def knockback_cards() -> list[dict[str, Any]]:
    """Every card of every shipped pack as the views carry it, each pack in both seats (the
    second seat's cards lie turned)."""
    from knockabout.games.knockback.content import builtin_packs

    ids = [p.id for p in builtin_packs()]
    assert len(ids) >= 6
    out: list[dict[str, Any]] = []
    for a, b in zip(ids, ids[1:] + ids[:1], strict=True):
        view = get_game("knockback").new_state({"packs": [a, b]}, 1).observe(0)
        out += view.to_json()["cards"]
    return out


def assert_clean(page: Any) -> None:
    """Every name fits its box whole, no word splits, and axe finds nothing serious."""
    assert not overflowing(page), overflowing(page)
    assert not split_words(page), split_words(page)
    problems = serious_a11y(page)
    assert not problems, problems


def blank(browser: Any, server: LiveServer, size: str) -> tuple[Any, Any]:
    ctx, page = new_page(browser, size, reduced_motion="reduce")
    page.goto(server.url + "/")
    page.wait_for_selector(".game-card")
    page.evaluate("() => { document.querySelector('main').replaceChildren(); }")
    page.add_style_tag(content=FIXED_LOOK)
    return ctx, page


KNOCKDOWN_FACES = """async (cards) => {
  const r = await import('/games/knockdown/renderer.js');
  const main = document.querySelector('main');
  const row = document.createElement('div');
  row.className = 'kd-cards';
  row.id = 'faces';
  main.append(row);
  const view = { cards };
  for (const name of Object.keys(cards)) row.append(r.card(view, name, 2));
  await document.fonts.ready;
  (await import('/static/fit.js')).fitText(main);  // as the table does after drawing
  return [...row.children].map((e) => ({
    name: e.dataset.card, cls: e.className, shown: e.querySelector('.nm').textContent,
    heavy: e.querySelector('.fig.heavy')?.textContent ?? null,
    light: e.querySelector('.fig.light')?.textContent ?? null,
    bigFont: Math.max(...[...e.querySelectorAll('.fig')].map((f) => parseFloat(getComputedStyle(f).fontSize)), 0),
    nameFont: parseFloat(getComputedStyle(e.querySelector('.nm')).fontSize),
    range: e.querySelector('.rng')?.textContent ?? null,
    symbols: [...e.querySelectorAll('.band svg.sym')].map((s) => s.getAttribute('aria-label')),
    ko: !!e.querySelector('.foot .ko'), foot: e.querySelector('.foot').firstChild?.textContent ?? '',
    effect: e.querySelector('.fx')?.textContent ?? '', tip: e.dataset.tip, focusable: e.tabIndex === 0,
    frame: getComputedStyle(e).borderTopColor, band: getComputedStyle(e.querySelector('.band')).backgroundColor,
  }));
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_every_shipped_knockdown_card_has_its_printed_face(server: LiveServer, browser: Any, size: str) -> None:
    cards = knockdown_catalog()
    assert len(cards) >= 30 and any(c["type"] == "ability" for c in cards.values())
    ctx, page = blank(browser, server, size)
    try:
        faces = {f["name"]: f for f in page.evaluate(KNOCKDOWN_FACES, cards)}
        colours: dict[str, set[str]] = {}
        for name, c in cards.items():
            f = faces[name]
            assert f["shown"] == name
            typ = c["type"] if c["type"] != "-" else "none"
            assert f"t-{typ}" in f["cls"].split(), (name, f["cls"])
            assert f["frame"] == f["band"], f"{name}: the frame and the band are the type's colour"
            colours.setdefault(typ, set()).add(f["band"])
            assert f["heavy"] == (str(c["heavy"]) if c["heavy"] else None), name
            assert f["light"] == (str(c["light"]) if c["light"] else None), name
            if c["heavy"] or c["light"]:
                assert f["bigFont"] >= 1.5 * f["nameFont"], f"{name}: the wound pool in large figures"
            if c["range"].startswith("range "):
                assert f["range"] == c["range"].removeprefix("range ").replace("-", "–"), name
            elif c["range"] != "-":
                assert f["range"] in ("any", c["range"]), name
            assert f["symbols"] == c["symbols"], name
            assert f["ko"] == c["ko"], name
            assert f["foot"] == ("" if c["type"] == "-" else c["type"]), name
            assert f["effect"] == c["effect"], name  # its first words shown; all of it zoomed
            assert f["tip"] == f"{name}: {c['text']}" and f["focusable"], f"{name}: the whole text on its tip"
        # one colour per type, and different types look different
        assert all(len(v) == 1 for v in colours.values()), colours
        assert len({next(iter(v)) for v in colours.values()}) == len(colours), colours
        assert {"strike", "ability", "none"} <= set(colours)
        assert_clean(page)
    finally:
        ctx.close()


KNOCKBACK_FACES = """async (cards) => {
  const r = await import('/games/knockback/renderer.js');
  const main = document.querySelector('main');
  const row = document.createElement('div');
  row.className = 'kb-side';
  main.append(row);
  const out = [];
  for (const c of cards) {
    const cell = document.createElement('div');
    cell.className = 'kb-cell';
    const t = r.cardTile(c, { owner: 'x' });
    cell.append(t);
    row.append(cell);
  }
  await document.fonts.ready;
  (await import('/static/fit.js')).fitText(main);
  return [...row.querySelectorAll('.kb-card')].map((t) => {
    const edge = (d) => ({ attack: t.querySelector(`.kb-e.${d} b`).textContent,
      heart: t.querySelector(`.kb-e.${d} span`).textContent,
      attackFont: parseFloat(getComputedStyle(t.querySelector(`.kb-e.${d} b`)).fontSize) });
    return { label: t.dataset.label, cls: t.className, name: t.querySelector('.nm').textContent,
      n: edge('n'), e: edge('e'), s: edge('s'), w: edge('w'),
      band: [...t.querySelectorAll('.band .act')].map((a) => a.textContent),
      bandFits: t.querySelector('.band').scrollWidth <= t.querySelector('.band').clientWidth + 1,
      bandColour: getComputedStyle(t.querySelector('.band')).backgroundColor,
      frame: getComputedStyle(t).borderTopColor, fx: t.querySelector('.kb-fx').textContent,
      fxShown: getComputedStyle(t.querySelector('.kb-fx')).display !== 'none', tip: t.dataset.tip };
  });
}"""

GLYPH = {"move": "➜", "punch": "✸", "move_or_punch": "➜✸"}


@pytest.mark.parametrize("size", list(SIZES))
def test_every_shipped_knockback_card_has_its_printed_face(server: LiveServer, browser: Any, size: str) -> None:
    cards = knockback_cards()
    assert len(cards) >= 18
    ctx, page = blank(browser, server, size)
    try:
        faces = page.evaluate(KNOCKBACK_FACES, cards)
        assert len(faces) == len(cards)
        kinds: dict[str, set[str]] = {}
        seats: dict[int, set[str]] = {}
        for c, f in zip(cards, faces, strict=True):
            name = c["card"]["name"]
            assert f["name"] == name
            kind = c["card"]["ability"]["kind"]
            assert f"k-{kind}" in f["cls"].split() and f"s{c['owner']}" in f["cls"].split(), (name, f["cls"])
            kinds.setdefault(kind, set()).add(f["bandColour"])
            seats.setdefault(c["owner"], set()).add(f["frame"])
            for d in "NESW":
                got = f[d.lower()]
                want = c["board_edges"][d]
                assert (got["attack"], got["heart"]) == (str(want["attack"]), str(want["heart"])), (name, d)
                assert got["attackFont"] >= 10
            assert f["band"] == [GLYPH[a] for a in c["card"]["actions"]], name
            assert f["bandFits"], f"{name}: its actions fit the band on one line"
            assert c["card"]["text"] in f["fx"] and not f["fxShown"], f"{name}: its ability, shown when zoomed"
            assert c["card"]["text"] in f["tip"]
        assert all(len(v) == 1 for v in kinds.values()) and len({next(iter(v)) for v in kinds.values()}) == len(kinds)
        assert set(kinds) == {"punching", "moving", "passive"}
        assert all(len(v) == 1 for v in seats.values()) and seats[0] != seats[1], "each seat's frame its own colour"
        assert_clean(page)
    finally:
        ctx.close()


ZOOMED = """(sel) => {
  const z = document.querySelector('#tip .zoom');
  if (!z) return null;
  const copy = z.firstElementChild;
  const part = copy.querySelector(sel);
  const box = z.getBoundingClientRect();
  const r = part.getBoundingClientRect();
  return { text: part.textContent, shown: getComputedStyle(part).display !== 'none' && r.height > 0,
           inside: r.bottom <= box.bottom + 1 && r.top >= box.top - 1, clamp: getComputedStyle(part).webkitLineClamp };
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_a_zoomed_card_shows_its_whole_rules_text(server: LiveServer, browser: Any, size: str) -> None:
    ctx, page = new_page(browser, size, reduced_motion="reduce")
    try:
        def zoomed(game: str, card: str, part: str) -> tuple[Any, dict[str, Any]]:
            show(page, server, frame_of(kind_moment(game, "turn")))
            held = page.locator(card).first
            held.focus()  # as a hover or a long press does
            page.wait_for_selector("#tip .zoom")
            got = page.evaluate(ZOOMED, part)
            assert got is not None and got["shown"] and got["inside"], (game, got)
            return held, got

        # Knockdown: a card of the Attack Row with an effect; KNOCKBACK: a tile on the grid
        held, got = zoomed("knockdown", "#attack-row .kd-card:has(.fx)", ".fx")
        assert got["clamp"] in ("none", "unset", ""), "no line cut off when zoomed"
        assert got["text"] and got["text"].split("\n")[0] in (held.get_attribute("data-tip") or "")
        zoomed("knockback", "#grid .kb-card", ".kb-fx")
    finally:
        ctx.close()


def test_a_draft_shows_the_cards_of_your_hand_with_their_faces(server: LiveServer, browser: Any) -> None:
    m = kind_moment("knockback", "draft")
    frame = frame_of(m)
    hand = frame["view"]["draft"]["hand"]
    ctx, page = new_page(browser, "desktop", reduced_motion="reduce")
    try:
        show(page, server, frame)
        faces = page.locator("#hand-dock .kb-info.with-face").evaluate_all("""bs => bs.map((b) => {
          const t = b.querySelector('.kb-card');
          return { name: t.querySelector('.nm').textContent, title: b.querySelector('h4').textContent,
                   north: [t.querySelector('.kb-e.n b').textContent, t.querySelector('.kb-e.n span').textContent],
                   onGrid: t.hasAttribute('data-tile') || t.hasAttribute('data-pick'), keep: b.dataset.pick };
        })""")
        assert [f["name"] for f in faces] == [c["name"] for c in hand]
        for i, (f, c) in enumerate(zip(faces, hand, strict=True)):
            assert f["title"] == c["name"] and f["keep"] == f"keep:{i}"  # the box is still what you pick
            assert f["north"] == [str(c["edges"]["north"]["attack"]), str(c["edges"]["north"]["heart"])], "as printed"
            assert not f["onGrid"], "a card of a draft is no tile of the grid"
    finally:
        ctx.close()
