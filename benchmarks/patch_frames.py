"""Patch frames against whole updates: bytes per frame and the CPU a patch costs.

Plays seeded bot games of each game on the server's own :class:`Manager` (in process, a
temporary SQLite store, the real clock), watched by in-memory sockets, one per seat and
one spectator. For every frame a socket gets it counts what was sent (a patch, or the
whole update when that is shorter) against the whole update the server sent before
patches (the same message, rebuilt from the frame by :class:`Follower`), and it times
the server's work per change: building the message (``updates_for`` and the message
dict), serialising it, and building the patch frame (``jsonpatch.make_patch`` and its
serialisation).

    .venv/bin/python benchmarks/patch_frames.py --seeds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from starlette.websockets import WebSocket, WebSocketState

import knockabout.server.live as live_module
from knockabout.server import ServerSettings
from knockabout.server.frames import Follower, Shown, frame_text
from knockabout.server.live import Connection, LiveTable, Manager
from knockabout.store import Store

GAMES = {"nak-muay": ["random", "random", "random"], "knockdown": ["random", "random"],
         "knockback": ["random", "random"]}


class Socket:
    """An in-memory WebSocket that reads its frames as a browser would."""

    application_state = WebSocketState.CONNECTED

    def __init__(self) -> None:
        self.copy = Follower()
        self.sent: list[int] = []  # bytes of each frame (after the sync)
        self.whole: list[int] = []  # bytes of the whole update it stands for
        self.patches = 0

    async def send_text(self, text: str) -> None:
        frame = json.loads(text)
        message = self.copy.read(frame)
        if frame["type"] == "sync":
            return
        self.patches += frame["type"] == "patch"
        self.sent.append(len(text.encode()))
        self.whole.append(len(frame_text(message).encode()))


Timer = dict[str, list[float]]


def timed(times: Timer, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kw: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return fn(*args, **kw)
        finally:
            times.setdefault(name, []).append(time.perf_counter() - t0)
    return run


async def one_game(manager: Manager, game: str, seed: int) -> list[Socket]:
    live, _, _ = await manager.create(game, GAMES[game], {}, "", seed=seed)
    sockets = [Socket() for _ in range(len(GAMES[game]) + 1)]
    for seat, s in zip([*range(len(GAMES[game])), None], sockets, strict=True):
        await live.connect(Connection(cast(WebSocket, s), seat))
    while not live.table.over:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.01)
    return sockets


async def run(seeds: int) -> dict[str, dict[str, float]]:
    times: Timer = {}
    live_module.change_frame = timed(times, "patch", live_module.change_frame)  # type: ignore[assignment]
    build = LiveTable._build
    LiveTable._build = timed(times, "message", build)  # type: ignore[method-assign]
    shown = Shown.of
    Shown.of = timed(times, "serialise", shown)  # type: ignore[method-assign]
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        settings = ServerSettings(bot_pace=0.0, bot_delay=0.0, max_bot_tables=1000)
        manager = Manager(settings, store)
        try:
            for game in GAMES:
                times.clear()
                sockets: list[Socket] = []
                for seed in range(seeds):
                    sockets += await one_game(manager, game, seed)
                sent = [b for s in sockets for b in s.sent]
                whole = [b for s in sockets for b in s.whole]
                out[game] = {
                    "frames": len(sent),
                    "patch_share": sum(s.patches for s in sockets) / len(sent),
                    "whole_mean_b": statistics.fmean(whole), "sent_mean_b": statistics.fmean(sent),
                    "sent_median_b": statistics.median(sent), "ratio": sum(whole) / sum(sent),
                    **{f"{k}_us": 1e6 * statistics.median(v) for k, v in times.items()},
                    **{f"{k}_mean_us": 1e6 * statistics.fmean(v) for k, v in times.items()},
                }
        finally:
            await manager.close()
            store.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=3, help="games per game (seeds 0..N-1), at most 50")
    args = ap.parse_args()
    if not 0 < args.seeds <= 50:
        raise SystemExit("--seeds takes 1-50")
    results = asyncio.run(run(args.seeds))
    print(f"{'game':10} {'frames':>6} {'patch%':>6} {'whole B':>8} {'sent B':>7} {'median':>6} {'x less':>6}"
          f" {'message':>8} {'serialise':>9} {'patch':>7}  (median µs per build; mean in brackets)")
    for game, r in results.items():
        print(f"{game:10} {r['frames']:6.0f} {100 * r['patch_share']:6.1f} {r['whole_mean_b']:8.0f}"
              f" {r['sent_mean_b']:7.0f} {r['sent_median_b']:6.0f} {r['ratio']:6.1f}"
              f" {r['message_us']:8.0f} {r['serialise_us']:9.0f} {r['patch_us']:7.0f}"
              f"  ({r['message_mean_us']:.0f} / {r['serialise_mean_us']:.0f} / {r['patch_mean_us']:.0f})")


if __name__ == "__main__":
    main()
