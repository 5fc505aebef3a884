"""What every screen of the web app must pass, checked in the page itself: card names and
texts fit their boxes, board tiles do not overlap, every interactive element can be reached
with the Tab key, and axe-core finds no serious or critical accessibility problem."""

from __future__ import annotations

from pathlib import Path
from typing import Any

# card names and card texts in every game's renderer
TEXT_BOXES = ".card .band, .card .txt, .kd-card, .kd-card .nm, .kb-card, .kb-card .nm, .game-card h3, #actions button"
# board pieces that must never sit on top of each other
TILES = "#board [data-card], #board [data-tile], #board .kb-card, #board .nm-fighter, #board .kd-fighter"

OVERFLOWS = """(sel) => [...document.querySelectorAll(sel)]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .filter((e) => e.scrollWidth > e.clientWidth + 1)
  .map((e) => `${e.className}: "${e.textContent.trim().slice(0, 40)}" ${e.scrollWidth}>${e.clientWidth}`)"""

OVERLAPS = """(sel) => {
  const boxes = [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length)
    .map((e) => [e, e.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, r] = boxes[i]; const [b, q] = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
    const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
    const name = (e) => `${e.className} "${e.textContent.trim().slice(0, 20)}"`;
    if (w > 1 && h > 1) out.push(`${name(a)} / ${name(b)}`);
  }
  return out;
}"""

MARK_FOCUSABLE = """() => {
  const sel = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, '
    + 'summary, [tabindex]:not([tabindex="-1"])';
  const els = [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length
    && getComputedStyle(e).visibility !== 'hidden' && !e.closest('[hidden], details:not([open]) > :not(summary)'));
  els.forEach((e, i) => { e.dataset.kbd = String(i); });
  return els.length;
}"""


# words the browser broke across two lines: each word of each shown text is measured with a
# Range; a word whose pieces lie on different lines was split mid-word. A break after a hyphen,
# a slash or a dash is a break between words. Text that is cut off with an ellipsis never wraps.
SPLIT_WORDS = r"""() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const host = node.parentElement;
    if (!host || host.closest('select, option, script, style, [hidden], svg')) continue;
    if (!host.getClientRects().length || getComputedStyle(host).visibility === 'hidden') continue;
    const text = node.textContent;
    const re = /[^\s\-\/–—·,]+/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length < 2) continue;
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top));
      if (tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 2) {
        out.push(`${host.tagName.toLowerCase()}.${host.className}: "${m[0]}"`);
      }
    }
  }
  return [...new Set(out)];
}"""

PAGE_OVERFLOW = "() => document.scrollingElement.scrollWidth - window.innerWidth"


def split_words(page: Any) -> list[str]:
    """Words shown broken across two lines (none may be, at any width)."""
    found: list[str] = page.evaluate(SPLIT_WORDS)
    return found


def page_overflow(page: Any) -> int:
    """How many pixels the page is wider than the screen (it must not be)."""
    wider: int = page.evaluate(PAGE_OVERFLOW)
    return wider


def overflowing(page: Any) -> list[str]:
    found: list[str] = page.evaluate(OVERFLOWS, TEXT_BOXES)
    return found


def overlapping(page: Any) -> list[str]:
    found: list[str] = page.evaluate(OVERLAPS, TILES)
    return found


def unreachable(page: Any) -> list[str]:
    """Interactive elements the Tab key never reaches (pressing it from the top of the page)."""
    n = page.evaluate(MARK_FOCUSABLE)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    reached: set[str] = set()
    for _ in range(2 * n + 10):  # scrollable boxes take a Tab stop of their own too
        page.keyboard.press("Tab")
        k = page.evaluate("() => document.activeElement && document.activeElement.dataset.kbd")
        if k is not None:
            reached.add(k)
        if len(reached) == n:
            break
    missing: list[str] = page.evaluate(
        """(reached) => [...document.querySelectorAll('[data-kbd]')].filter((e) => !reached.includes(e.dataset.kbd))
          .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} "${e.textContent.trim().slice(0, 30)}"`)""",
        sorted(reached))
    return missing


def serious_a11y(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
            for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]


def check_screen(page: Any, shots: Path, name: str, keyboard: bool = True) -> None:
    """Screenshot ``name`` and assert the four checks on it."""
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    assert not overflowing(page), f"{name}: text overflows its box: {overflowing(page)}"
    assert not overlapping(page), f"{name}: board tiles overlap: {overlapping(page)}"
    if keyboard:
        missing = unreachable(page)
        assert not missing, f"{name}: not reachable by keyboard: {missing}"
    problems = serious_a11y(page)
    assert not problems, f"{name}: accessibility: {problems}"
