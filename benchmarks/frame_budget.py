"""The table's frame budget in the browser: the real page (shell and game renderer, from a
live server in this process) is sent one seat's frames of a seeded game, one move at a time,
and the browser's own performance timeline is read while it redraws and animates each move.

Per game, page size (1280x800, 390x844) and CPU throttle (Chromium's
``Emulation.setCPUThrottlingRate`` through CDP; 1 = this machine, 4 = four times slower):

- **frame**: the intervals between ``requestAnimationFrame`` callbacks while the moves play,
  p50 / p95 / max in ms, and the share of intervals longer than 50 ms (a visible stutter);
- **long tasks**: ``PerformanceObserver`` ``longtask`` entries (main-thread tasks over 50 ms):
  how many, and the longest;
- **move**: the time from a frame's arrival to the end of the task that drew it (parse, patch,
  redraw, measuring what moved and starting its animations), p50 / max in ms.

``--reduced`` runs each case again under ``prefers-reduced-motion`` (motion measures and
animates nothing then): the difference is what motion costs.

Frames are the server's own (``LiveTable``), the same every run: the game's fixed moves
(``tests/web/staged.py``), a frame sent every ``--gap`` ms so each move's animation (at most
400 ms) plays out. Headless Chromium without a GPU, so the numbers are a floor for a phone's
weaker CPU only with the throttle. Run from the repository root::

    PYTHONPATH=src:. python benchmarks/frame_budget.py --moves 30
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.web.conftest import ARGS, CHROMIUM, LiveServer
from tests.web.pages import SIZES
from tests.web.staged import moment, moments, push, show, table_of

from knockabout.server import ServerSettings
from knockabout.server.live import LiveTable

GAMES = {"nak-muay": ({"players": 3}, 2), "knockdown": ({}, 1), "knockback": ({}, 0)}

PROBE = """() => {
  window.__frames = []; window.__long = []; window.__moves = []; window.__on = false;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (window.__on) window.__long.push(e.duration);
  }).observe({ type: "longtask", buffered: false });
  let last = null;
  const tick = (t) => {
    if (window.__on && last !== null) window.__frames.push(t - last);
    last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  // a socket's message listener (the page's, on whatever WebSocket class is in use), timed to the
  // end of its task: the frame parsed, patched, drawn and its animations started
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    const socket = type === "message" && this instanceof window.WebSocket && typeof fn === "function";
    if (!socket) return add.call(this, type, fn, opts);
    return add.call(this, type, function (ev) {
      const t0 = performance.now();
      setTimeout(() => { if (window.__on) window.__moves.push(performance.now() - t0); }, 0);
      return fn.call(this, ev);
    }, opts);
  };
}"""


def seat_frames(game: str, config: dict[str, Any], seed: int, moves: int) -> list[dict[str, Any]]:
    """Seat 0's sync at the deal, then its update after each of the next ``moves`` moves (fewer
    if the game ends sooner)."""
    start = moment(game, seed, 0, config)
    live = LiveTable(id="budget", table=table_of(start), tokens=[None] * start.players, store=None,  # type: ignore[arg-type]
                     settings=ServerSettings(clock=lambda: 0.0, wall_clock=lambda: 0.0), created_at=0.0)
    sync, cursor = live._build(0, 0, "sync")
    out = [sync]
    played: tuple[str, ...] = ()
    for m, _ in moments(game, seed, config):  # the game's first moves (all of them if it is shorter)
        played = m.actions
        if len(played) >= moves:
            break
    for action in played:
        d = live.table.decision()
        assert d is not None
        live.table.act(d.player, action)
        update, cursor = live._build(0, cursor, "update")
        out.append(update)
    return out


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(browser: Any, server: LiveServer, game: str, size: str, rate: float, frames: list[dict[str, Any]],
        gap: int, reduced: bool) -> dict[str, Any]:
    w, h = SIZES[size]
    ctx = browser.new_context(viewport={"width": w, "height": h},
                              reduced_motion="reduce" if reduced else "no-preference")
    page = ctx.new_page()
    page.add_init_script(f"({PROBE})()")
    sockets: list[Any] = []
    show(page, server, frames[0], sockets)
    page.wait_for_timeout(300)
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    page.evaluate("() => { window.__on = true; }")
    for f in frames[1:]:
        push(sockets, f)
        page.wait_for_timeout(gap)
    page.evaluate("() => { window.__on = false; }")
    got = page.evaluate("() => ({ frames: window.__frames, long: window.__long, moves: window.__moves })")
    ctx.close()
    fr, lt, mv = got["frames"], got["long"], got["moves"]
    return {
        "game": game, "size": f"{w}x{h}", "throttle": rate, "motion": "off" if reduced else "on",
        "moves": len(frames) - 1,
        "frame_p50": round(statistics.median(fr), 1) if fr else 0.0, "frame_p95": round(pct(fr, 0.95), 1),
        "frame_max": round(max(fr, default=0.0), 1),
        "stutter_pct": round(100 * sum(1 for x in fr if x > 50) / max(1, len(fr)), 1),
        "long_tasks": len(lt), "long_max": round(max(lt, default=0.0), 1),
        "move_p50": round(statistics.median(mv), 1) if mv else 0.0, "move_max": round(max(mv, default=0.0), 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=30, help="moves played per run")
    ap.add_argument("--gap", type=int, default=450, help="ms between frames (an animation lasts at most 400)")
    ap.add_argument("--throttle", type=float, nargs="+", default=[1.0, 4.0])
    ap.add_argument("--games", nargs="+", default=list(GAMES))
    ap.add_argument("--reduced", action="store_true",
                    help="also each run under prefers-reduced-motion (no motion): what motion costs")
    ap.add_argument("--json", type=Path, help="write the rows here too")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    rows = []
    t0 = time.monotonic()
    with LiveServer(Path(tempfile.mkdtemp())) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for game in args.games:
            config, seed = GAMES[game]
            frames = seat_frames(game, config, seed, args.moves)
            for size in ("desktop", "phone"):
                for rate in args.throttle:
                    for reduced in (False, True) if args.reduced else (False,):
                        row = run(browser, server, game, size, rate, frames, args.gap, reduced)
                        rows.append(row)
                        print(json.dumps(row), flush=True)
        browser.close()
    cols = ["game", "size", "throttle", "motion", "moves", "frame_p50", "frame_p95", "frame_max", "stutter_pct",
            "long_tasks", "long_max", "move_p50", "move_max"]
    print()
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(str(r[c]) for c in cols) + " |")
    print(f"\n{time.monotonic() - t0:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
