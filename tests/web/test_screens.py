"""Screenshots of every game at its start, in the middle, in a reaction window and at the
end, at 1280x800 and 390x844 (and the lobby), compared with the approved images in
tests/web/screens/. The screens are staged (tests/web/staged.py: fixed seeds, fixed moves,
the server's own frames), the page's clock is stopped, animations are off and the font is
fixed, so the same code draws the same pixels. How to look at a difference and approve a
new image: tests/web/README.md."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import LiveServer
from tests.web.pages import SIZES, new_page
from tests.web.staged import FIXED_LOOK, Moment, at_end, first, frame_of, mine, show

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SCREENS = Path(__file__).parent / "screens"
DOCS = Path(__file__).parents[2] / "docs" / "img"
APPROVE = os.environ.get("KNOCKABOUT_APPROVE_SCREENS") == "1"
TOLERANCE = 40  # a pixel differs when a colour channel moved more than this (of 255)
THRESHOLD = 0.003  # a screen matches when at most this share of its pixels differ
CLOCK = 1_767_225_600  # the page's clock, stopped: 2026-01-01 00:00 UTC (seconds)

TOWER = {"knockdown_test": "tower"}
# (game, moment) -> how to reach it: a config and what must hold there
MOMENTS: dict[tuple[str, str], tuple[dict[str, Any], Any]] = {
    ("nak-muay", "start"): ({"players": 3}, mine()),
    ("nak-muay", "middle"): ({"players": 3}, lambda m, d: mine("action")(m, d) and len(m.actions) >= 30),
    ("nak-muay", "reaction"): ({"players": 3}, mine("countdown_response")),
    ("nak-muay", "end"): ({"players": 3}, at_end),
    ("knockdown", "start"): ({}, mine()),
    ("knockdown", "middle"): ({}, lambda m, d: mine("turn")(m, d) and len(m.actions) >= 50),
    ("knockdown", "reaction"): (TOWER, mine("tower_challenge")),
    ("knockdown", "end"): ({"max_turns": 40}, at_end),
    ("knockback", "start"): ({}, mine()),
    ("knockback", "middle"): ({}, lambda m, d: mine("symbol")(m, d) and len(m.actions) >= 40),
    ("knockback", "reaction"): ({}, mine("punch_edge")),
    ("knockback", "end"): ({"max_turns": 30}, at_end),
}
# the images docs/live-play.md shows, refreshed with the approved ones: name -> (screen, size)
FOR_DOCS = {
    "web-lobby.png": ("lobby", "desktop"),
    "web-nak-muay.png": ("nak-muay-middle", "desktop"),
    "web-nak-muay-phone.png": ("nak-muay-reaction", "phone"),
    "web-knockdown.png": ("knockdown-middle", "desktop"),
    "web-knockdown-tower-phone.png": ("knockdown-reaction", "phone"),
    "web-knockback.png": ("knockback-middle", "desktop"),
    "web-knockback-phone.png": ("knockback-start", "phone"),
    "web-end.png": ("knockdown-end", "desktop"),
}
# the lobby's lists, fixed (the live server's own tables change from run to run)
LOBBY_TABLES = [
    {"id": "aaaa1111", "game": "knockback", "status": "finished", "created_at": CLOCK - 3600, "free_seats": [],
     "seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "name": "Bot 2"}],
     "outcome": {"winners": [0], "draw": False, "reason": "won with the score token"}},
    {"id": "bbbb2222", "game": "knockdown", "status": "playing", "created_at": CLOCK - 300, "free_seats": [],
     "seats": [{"kind": "person", "name": "Bo"}, {"kind": "bot", "name": "Bot 2"}], "outcome": None},
    {"id": "cccc3333", "game": "nak-muay", "status": "waiting", "created_at": CLOCK - 20, "free_seats": [1],
     "seats": [{"kind": "person", "name": "Cy"}, {"kind": "empty", "name": None}, {"kind": "bot", "name": "Bot 3"}],
     "outcome": None},
]


def moment_of(game: str, name: str) -> Moment:
    config, pred = MOMENTS[(game, name)]
    return first(game, pred, config, seeds=range(40))


def small(png: bytes) -> Any:
    """A screenshot as it is kept: half size, 256 colours (a few tens of KB)."""
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    half = img.resize((img.width // 2, img.height // 2), Image.Resampling.BOX)
    return half.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def differing(a: Any, b: Any) -> tuple[float, Any]:
    """The share of pixels that differ between two kept images, and a picture of where."""
    from PIL import Image, ImageChops

    if a.size != b.size:
        return 1.0, None
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    r, g, bl = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), bl)
    mask = worst.point(lambda v: 255 if v > TOLERANCE else 0)
    share = mask.histogram()[255] / (a.width * a.height)
    marked = Image.composite(Image.new("RGB", a.size, (255, 0, 255)), a.convert("RGB"), mask)
    return share, marked


def keep(png: bytes, name: str, out: Path) -> None:
    """Compare a screenshot with its approved image (or approve it)."""
    fresh = small(png)
    approved = SCREENS / f"{name}.png"
    if APPROVE:
        SCREENS.mkdir(exist_ok=True)
        fresh.save(approved, optimize=True)
        return
    assert approved.exists(), f"no approved image {approved}: see tests/web/README.md to approve one"
    from PIL import Image

    share, marked = differing(fresh, Image.open(approved))
    if share > THRESHOLD:
        fresh.save(out / f"{name}.png")
        if marked is not None:
            marked.save(out / f"{name}-diff.png")
        raise AssertionError(f"{name}: {share:.2%} of the pixels differ from {approved} "
                             f"(the new image and the difference are in {out})")


def for_docs(png: bytes, screen: str, size: str) -> None:
    """Refresh the docs' copy of an approved screen (full size, 256 colours)."""
    from PIL import Image

    for doc, (want, want_size) in FOR_DOCS.items():
        if (want, want_size) == (screen, size):
            img = Image.open(io.BytesIO(png)).convert("RGB")
            img.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(DOCS / doc, optimize=True)


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("screens")


def shoot(page: Any) -> bytes:
    page.mouse.move(0, 0)
    page.evaluate("() => { document.activeElement && document.activeElement.blur && document.activeElement.blur(); "
                  "window.scrollTo(0, 0); }")
    page.wait_for_timeout(50)
    png: bytes = page.screenshot(animations="disabled", caret="hide")
    return png


def test_every_game_has_its_four_moments() -> None:
    for (game, name), _ in MOMENTS.items():
        m = moment_of(game, name)
        d = m.decision()
        assert (d is None) == (name == "end"), f"{game} {name}"


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["nak-muay", "knockdown", "knockback"])
def test_the_game_looks_as_approved(server: LiveServer, browser: Any, out: Path, game: str, size: str) -> None:
    problems = []
    for name in ("start", "middle", "reaction", "end"):
        ctx, page = new_page(browser, size, reduced_motion="reduce")
        page.clock.install(time=CLOCK - 60)
        page.clock.pause_at(CLOCK)
        show(page, server, frame_of(moment_of(game, name)))
        png = shoot(page)
        ctx.close()
        if APPROVE:
            for_docs(png, f"{game}-{name}", size)
        try:
            keep(png, f"{game}-{name}-{size}", out)
        except AssertionError as e:
            problems.append(str(e))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby_looks_as_approved(server: LiveServer, browser: Any, out: Path, size: str) -> None:
    ctx, page = new_page(browser, size, reduced_motion="reduce")
    page.clock.install(time=CLOCK - 60)
    page.clock.pause_at(CLOCK)
    page.route("**/api/tables", lambda route: route.fulfill(json={"tables": LOBBY_TABLES}))
    page.goto(server.url + "/")
    page.wait_for_selector(".table-card")
    page.add_style_tag(content=FIXED_LOOK)
    png = shoot(page)
    ctx.close()
    if APPROVE:
        for_docs(png, "lobby", size)
    keep(png, f"lobby-{size}", out)
