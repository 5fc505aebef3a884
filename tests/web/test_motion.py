"""Motion at the table (static/motion.js): what a frame moved moves on the screen, each
animation within 400 ms, nothing at all under ``prefers-reduced-motion``, and nothing an
animation shows comes from outside the seat's own frames.

The leak test: for each game, two tables that differ only in a card player A holds hidden
(the card A draws, the Skill or draft card A keeps). Player B is sent the same frames by both
(the sync, the update after A's move, and the patch frame built from them), and B's page,
shown those frames, runs the same animations and ends with the same DOM.
"""

from __future__ import annotations

from typing import Any

import pytest

from knockabout.server import ServerSettings
from knockabout.server.frames import Shown, change_frame
from knockabout.server.live import LiveTable
from knockabout.table import Seat, Table
from tests.web.conftest import LiveServer
from tests.web.pages import new_page
from tests.web.staged import Moment, moments, push, show, table_of

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

A, B = 0, 1
HANDS = (("dodge", "block", "attack+1"), ("block", "scout", "sweep"), ("block", "plum", "collar-tie"))


def live_of(game: str, config: dict[str, Any], seed: int, arrangement: dict[str, Any] | None = None) -> LiveTable:
    """A table of two people (and a bot for a third seat) at the deal, on a still clock."""
    players = int(config.get("players", 2))
    seats = [Seat("person", "Ann"), Seat("person", "Bea")] + [Seat("bot", "Cy", "easy")] * (players - 2)
    table = Table(game, seats, config, seed, clock=lambda: 0.0, challenge_seed=1, arrangement=arrangement)
    return LiveTable(id="motion", table=table, tokens=[None] * players, store=None,  # type: ignore[arg-type]
                     settings=ServerSettings(clock=lambda: 0.0, wall_clock=lambda: 0.0), created_at=0.0)


# per game: two tables and A's move on each; they differ only in the hidden card that moves
TWINS: dict[str, list[tuple[LiveTable, str] | Any]] = {
    # A draws the top of the pile: a Dodge on one table, a Scout on the other
    "nak-muay": [lambda top=top: (live_of("nak-muay", {"players": 3}, 3,
                                          {"hands": HANDS, "pile_top": [top], "first": A}), "draw")
                 for top in ("dodge", "scout")],
    # A keeps the first or the second Skill card dealt to it
    "knockdown": [lambda k=k: (live_of("knockdown", {}, 3), f"skill:{k}") for k in (0, 1)],
    # A keeps the first or the second card of its draft hand
    "knockback": [lambda k=k: (live_of("knockback", {"lineup": "draft2"}, 3), f"keep:{k}") for k in (0, 1)],
}


def moment_live(m: Moment) -> LiveTable:
    """The moment as a live table holds it (seat 0 a person, the others bots)."""
    return LiveTable(id="motion", table=table_of(m), tokens=[None] * m.players, store=None,  # type: ignore[arg-type]
                     settings=ServerSettings(clock=lambda: 0.0, wall_clock=lambda: 0.0), created_at=0.0)


def seat0_move(game: str, config: dict[str, Any], want: Any) -> tuple[Moment, str]:
    """The first moment (seeds 0-29, fixed moves) where seat 0 has a move whose events
    satisfy ``want`` (a list of event types -> bool), and that move."""
    for seed in range(30):
        for m, d in moments(game, seed, config):
            if d is None or d.player != 0:
                continue
            s = m.state()
            for a in s.legal_actions():
                if want([e.type for e in s.clone().apply(a.text)]):
                    return m, a.text
    raise AssertionError(f"no {game} move found")


def frames_of(live: LiveTable, seat: int | None, mover: int,
              action: str) -> tuple[dict[str, Any], dict[str, Any], str | None]:
    """What ``seat`` is sent: its sync, then (after ``mover`` plays ``action``) the update and
    the patch frame that carries it."""
    sync, cursor = live._build(seat, 0, "sync")
    shown = Shown.of(sync)
    live.table.act(mover, action)
    update, _ = live._build(seat, cursor, "update")
    return sync, update, change_frame(shown, Shown.of(update), update)


# every animation the page starts, with its target and keyframes, and when it ends
RECORD = """() => {
  window.__anims = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, opts) {
    const a = animate.call(this, frames, opts);
    const t = this;
    const cls = t.className && t.className.baseVal !== undefined ? t.className.baseVal : t.className;
    const what = [t.tagName.toLowerCase(), t.id, cls, t.dataset.pick, t.dataset.mark, t.dataset.card, t.dataset.tile,
      t.dataset.back && 'back'].filter(Boolean).join(' ');
    const rec = { what, frames: JSON.stringify(frames), timing: a.effect.getTiming(), start: performance.now(),
      end: null };
    window.__anims.push(rec);
    a.finished.then(() => { rec.end = performance.now(); }, () => { rec.end = -1; });
    return a;
  };
}"""

SETTLED = """async () => {
  await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
  const mine = document.getAnimations().filter((a) => !(a instanceof CSSAnimation) && !(a instanceof CSSTransition));
  await Promise.all(mine.map((a) => a.finished.catch(() => null)));
  return window.__anims;
}"""

DOM = """() => {
  const copy = document.getElementById('app').cloneNode(true);
  copy.querySelectorAll('[aria-describedby="tip"]').forEach((e) => e.removeAttribute('aria-describedby'));
  return { app: copy.innerHTML, body: [...document.body.children].map((e) => e.tagName + '#' + e.id).join(',') };
}"""


def played(browser: Any, server: LiveServer, frames: list[dict[str, Any]], seat: int,
           size: str = "desktop", reduced: bool = False) -> tuple[list[dict[str, Any]], dict[str, str], Any]:
    """The animations a page showing ``frames`` (a sync, then updates) starts after the sync,
    and its DOM once they are done."""
    ctx, page = new_page(browser, size, reduced_motion="reduce" if reduced else "no-preference")
    page.add_init_script(f"({RECORD})()")
    sockets: list[Any] = []
    show(page, server, frames[0], sockets)
    page.wait_for_timeout(100)
    page.evaluate("() => { window.__anims.length = 0; }")  # the sync's own drawing is not a move
    for f in frames[1:]:
        push(sockets, f)
        said = [e["text"] for e in f["events"] if e.get("text")]
        page.wait_for_function("(t) => document.getElementById('log').textContent.includes(t)", arg=said[-1])
    anims: list[dict[str, Any]] = page.evaluate(SETTLED)
    dom: dict[str, str] = page.evaluate(DOM)
    return anims, dom, ctx


@pytest.mark.parametrize("game", sorted(TWINS))
def test_an_opponent_sees_the_same_frames_and_page_whichever_hidden_card_moved(
        server: LiveServer, browser: Any, game: str) -> None:
    (one, act1), (two, act2) = (make() for make in TWINS[game])
    b1 = frames_of(one, B, A, act1)
    b2 = frames_of(two, B, A, act2)
    assert b1[0] == b2[0], "B's syncs are the same"
    assert b1[1] == b2[1], "B's updates are the same"
    assert b1[2] == b2[2], "B's patch frames are the same"
    a1 = one.table.updates_for(A, 0).view.to_json()
    a2 = two.table.updates_for(A, 0).view.to_json()
    assert a1 != a2, "A's own views differ: the hidden card is really different"
    for size in ("desktop", "phone"):
        anims1, dom1, ctx1 = played(browser, server, [b1[0], b1[1]], B, size)
        anims2, dom2, ctx2 = played(browser, server, [b2[0], b2[1]], B, size)
        ctx1.close()
        ctx2.close()
        strip = [{k: a[k] for k in ("what", "frames", "timing")} for a in anims1]
        assert strip == [{k: a[k] for k in ("what", "frames", "timing")} for a in anims2], "the same animations"
        assert dom1 == dom2, "the same page once they are done"
        if game == "nak-muay":  # A's draw is seen: a card's back flies from the pile to A
            assert any(a["what"] == "i motion-copy" and "translate" in a["frames"] for a in anims1), anims1


# a move of seat 0 seen by seat 0, and what its page must animate (words of an animation's
# target description: its tag, id, classes and keys; and a piece of its keyframes)
MOVES: dict[str, tuple[str, dict[str, Any], Any, str, str]] = {
    "a card drawn flies from the pile into the hand":
        ("nak-muay", {"players": 3}, lambda ev: "drew" in ev and "draw_ko" not in ev, "div card motion-copy",
         "translate"),
    "a card played flies from the hand to the discard pile":
        ("nak-muay", {"players": 3}, lambda ev: "attack" in ev, "div card k-attack motion-copy", "translate"),
    "a tile placed from the hand flies onto the grid":
        ("knockback", {}, lambda ev: "place" in ev, "div kb-card motion-copy", "translate"),
    "a card taken from the Attack Row flies into the hand":
        ("knockdown", {}, lambda ev: "take" in ev and "wounds" not in ev, "div kd-card motion-copy", "translate"),
    "a knockback push slides the pushed tile":
        ("knockback", {}, lambda ev: "knockback" in ev and "knockout" not in ev, "kb-card", "translate"),
    "a card knocked out flashes and fades where it stood":
        ("knockback", {}, lambda ev: "knockout" in ev, "kb-card motion-copy", "rotate"),
    "a wounded fighter's cubes shake":
        ("knockdown", {}, lambda ev: "wounds" in ev, "wounds:0", "translateX"),
}


@pytest.mark.parametrize("case", sorted(MOVES))
def test_a_move_is_animated_within_400_ms_and_not_at_all_for_reduced_motion(
        server: LiveServer, browser: Any, case: str) -> None:
    game, config, want, target, frames_like = MOVES[case]
    m, action = seat0_move(game, config, want)
    sync, update, _ = frames_of(moment_live(m), 0, 0, action)
    for size in ("desktop", "phone"):
        anims, dom, ctx = played(browser, server, [sync, update], 0, size)
        ctx.close()
        assert any(set(target.split()) <= set(a["what"].split()) and frames_like in a["frames"] for a in anims), \
            (case, size, anims)
        for a in anims:  # a correctness bound on what the page asks for, not a speed test
            assert a["timing"]["delay"] + a["timing"]["duration"] <= 400, a
            assert a["timing"]["iterations"] == 1, a
            assert a["end"] is not None and a["end"] > 0, f"an animation never finished: {a}"
        assert "motion-copy" not in dom["app"] + dom["body"], "a flying or fading copy is removed when it is done"
        quiet, _, ctx = played(browser, server, [sync, update], 0, size, reduced=True)
        ctx.close()
        assert quiet == [], f"nothing moves under prefers-reduced-motion: {quiet}"


# how many sounds the page starts (each is made of oscillators and noise sources)
COUNT_SOUNDS = """() => {
  window.__sounds = 0;
  for (const name of ["createOscillator", "createBufferSource"]) {
    const make = AudioContext.prototype[name];
    AudioContext.prototype[name] = function (...args) { window.__sounds++; return make.apply(this, args); };
  }
}"""


def test_sound_is_off_until_turned_on_and_the_choice_is_kept_in_the_browser(server: LiveServer, browser: Any) -> None:
    m, action = seat0_move("nak-muay", {"players": 3}, lambda ev: "attack" in ev)
    for turn_on in (False, True):
        sync, update, _ = frames_of(moment_live(m), 0, 0, action)
        ctx, page = new_page(browser, "desktop")
        page.add_init_script(f"({COUNT_SOUNDS})()")
        sockets: list[Any] = []
        show(page, server, sync, sockets)
        assert not page.is_checked("#sound-on"), "sound starts off"
        if turn_on:
            page.check("#sound-on")  # (the click lets audio start; a sample chime plays)
            page.wait_for_function("() => window.__sounds > 0")
            assert page.evaluate("() => localStorage.getItem('knockabout:sound')") == "on"
            page.wait_for_timeout(150)  # (sounds closer than 60 ms apart make one)
            page.evaluate("() => { window.__sounds = 0; }")
        push(sockets, update)
        said = [e["text"] for e in update["events"] if e.get("text")]
        page.wait_for_function("(t) => document.getElementById('log').textContent.includes(t)", arg=said[-1])
        page.wait_for_timeout(100)
        made = page.evaluate("() => window.__sounds")
        assert (made > 0) == turn_on, f"sound {'on' if turn_on else 'off'}: {made} sound parts started by the move"
        if turn_on:  # kept: another page of this browser starts with it on
            other = ctx.new_page()
            show(other, server, sync)
            assert other.is_checked("#sound-on")
        ctx.close()
