"""Load test: N concurrent tables over real WebSockets against a real `knockabout serve`.

Starts the server in its own process on loopback (never another address), then for each
level N keeps N tables of the three games going at once (each one scripted person, who
acts as soon as it may, against an `easy` bot; a finished table is replaced by a new
one) for ``--seconds``, and prints per level: the person's action round trip (sent ->
the update or patch frame that confirms it) p50/p99, frames/s received and their mean
size, the server's CPU and RSS.

    .venv/bin/python benchmarks/load.py --levels 25,50,100 --seconds 20
    .venv/bin/python benchmarks/load.py --levels 100 --db postgresql://user:pw@localhost/knockabout
    .venv/bin/python benchmarks/load.py --levels 50 --soak 60      # one hour: is memory flat?

With ``--accounts SHARE`` that share of the people play logged in (the session cookie and
CSRF token on every request and WebSocket, their tables against a bot rating the bot, their
profile read after each game: the ``profiles`` column counts these reads, and a profile
that does not show the game just played is an error). They are people who come back: their
accounts are made before each level (signed up as a browser does), and the line before the
level's says how long that took (each sign-up hashes a password with Argon2id).

    .venv/bin/python benchmarks/load.py --levels 100 --accounts 0.5

With ``--soak MINUTES`` the first level runs that long, in windows of ``--seconds``
(default 60 then), one line per window, and ends with the RSS of the first and last
windows and its growth per hour (a leak shows as steady growth).

To measure a server alone, run it yourself (on this machine or another, started as you
would serve it) and give ``--server http://HOST:PORT``: the script then only plays, so the
load client can run on another machine and take none of the server's cores. Give
``--server-pid PID`` as well when the server runs on this machine, for its CPU and RSS
columns (without it they show as ``-``). Start such a server with ``--create-rate off
--server-create-rate off --max-tables 1000000 --message-rate off`` (the people create
tables and send messages far faster than a person would, and leave tables half played at
each level's end), a long ``--grace``, and with ``--accounts`` ``--signup-rate off``.

    knockabout serve --port 8765 --create-rate off --server-create-rate off --max-tables 1000000 \\
        --message-rate off --signup-rate off --grace 86400 &
    .venv/bin/python benchmarks/load.py --server http://127.0.0.1:8765 --server-pid $! --levels 100

Bounded: at most 1,000 tables and 600 s per level.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import orjson
import psutil
import uvloop
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from knockabout.server.frames import Follower, OutOfStep

GAMES = ["nak-muay", "knockdown", "knockback"]
MAX_TABLES = 1000
MAX_SECONDS = 600.0
START_SECONDS = 300.0
"""How long a server started here may take to answer (a loaded machine, or --trace-memory, is slow to start)."""


@dataclass
class Tally:
    rtts: list[float] = field(default_factory=list)
    frames: int = 0
    bytes: int = 0  # of the frames' text
    games: int = 0
    errors: int = 0
    profiles: int = 0  # profiles read (a logged-in person reads theirs after each game)


def is_worker(p: psutil.Process) -> bool:
    """Whether a child of a ``serve --workers`` front is one of its workers."""
    try:
        line = " ".join(p.cmdline())
    except psutil.Error:
        return False
    return "spawn_main" in line and "resource_tracker" not in line


def is_store_writer(p: psutil.Process) -> bool:
    """Whether a process is a server's store writer (``serve --store-writer process``)."""
    try:
        return "knockabout.store.writer_process" in " ".join(p.cmdline())
    except psutil.Error:
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str, port: int, pace: float, bot_delay: float, bot: str,
                 bot_processes: int | None = None, compress: bool = False,
                 workers: int = 1, trace: tuple[str, float] | None = None) -> subprocess.Popen[bytes]:
    src = Path(__file__).resolve().parents[1] / "src"
    # a PYTHONPATH given (build/compiled/src: the compiled engine, as `make run` serves) goes first
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(x for x in (os.environ.get("PYTHONPATH"), str(src)) if x))
    if trace is not None:  # tracemalloc snapshots (knockabout.server.memory_probe)
        env.update(KNOCKABOUT_TRACE_MEMORY=trace[0], KNOCKABOUT_TRACE_EVERY=str(trace[1]))
    cmd = [sys.executable, "-m", "knockabout.cli.main", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--db", db, "--pace", str(pace), "--bot-delay", str(bot_delay), "--create-rate", "off",
           "--server-create-rate", "off", "--max-tables", "1000000", "--message-rate", "off", "--finished-ttl", "5",
           # the logged-in people all sign up from 127.0.0.1, far faster than people would
           "--signup-rate", "off", "--login-rate", "off", "--account-login-rate", "off",
           # a level's people leave their last tables half played: no stand-in bot takes them
           # over (it would go on playing them through the next level, as extra load)
           "--grace", "86400"]
    if bot_processes is not None:
        cmd += ["--bot-processes", str(bot_processes)]
    if compress:
        cmd += ["--compress"]
    if workers > 1:
        cmd += ["--workers", str(workers)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5)
            return proc
        except httpx.TransportError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"the server did not start within {START_SECONDS:.0f} s")


def http_client(base: str) -> httpx.AsyncClient:
    """The HTTP client a load process's people share. One per process: each
    ``AsyncClient`` builds an SSL context (loading the CA bundle, about 30 ms of CPU) even
    for plain http, and a client per person took a whole core for the first half minute
    of a 1,000-table level, which the round trips then measured. No kept-alive
    connections: a game outlasts the server's keep-alive timeout, and reusing a connection
    the server is just closing fails the next create with a ReadError."""
    client = httpx.AsyncClient(base_url=base, timeout=30, trust_env=False,
                               limits=httpx.Limits(max_connections=None, max_keepalive_connections=0))
    # the people share the client, so it keeps no cookies: a logged-in person sends its own (Account)
    client.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))
    return client


@dataclass
class Account:
    """A logged-in person's browser: its session cookie and the page's CSRF token."""

    name: str
    headers: dict[str, str]


async def sign_up(http: httpx.AsyncClient, n: int) -> Account:
    """Sign up as a browser does: load a page (a guest's cookie and CSRF token), then send
    the form with them; the answer's session cookie and token are the account's from then on."""
    page = await http.get("/api/account")
    page.raise_for_status()
    guest = page.cookies.get("knockabout_csrf")
    name = f"load{n}-{secrets.token_hex(4)}"
    form = await http.post("/api/account/signup", json={"name": name, "password": f"{name} load test"},
                           headers={"cookie": f"knockabout_csrf={guest}", "x-csrf-token": page.json()["csrf"]})
    form.raise_for_status()
    session = form.cookies.get("knockabout_session")
    if not session:
        raise RuntimeError("signing up set no session cookie")
    return Account(name, {"cookie": f"knockabout_session={session}", "x-csrf-token": form.json()["csrf"]})


def logged_in(n: int, share: float) -> bool:
    """Whether person ``n`` is logged in, ``share`` of the people being so, spread evenly."""
    return int((n + 1) * share) > int(n * share)


async def sign_up_all(base: str, ids: list[int]) -> dict[int, Account]:
    """An account for each of the people ``ids``, a few sign-ups at a time (the server
    hashes two passwords at once, and a sign-up queued behind dozens would time out)."""
    http = http_client(base)
    gate = asyncio.Semaphore(4)

    async def one(n: int) -> Account:
        async with gate:
            return await sign_up(http, n)

    try:
        made = await asyncio.gather(*(one(n) for n in ids))
    finally:
        await http.aclose()
    return dict(zip(ids, made, strict=True))


def accounts_for(base: str, tables: int, share: float) -> dict[int, Account]:
    """The logged-in people of a level of ``tables`` (``share`` of them), signed up now;
    says how long it took."""
    ids = [i for i in range(tables) if logged_in(i, share)]
    if not ids:
        return {}
    began = time.perf_counter()
    made = uvloop.run(sign_up_all(base, ids))
    took = time.perf_counter() - began
    print(f"signed up {len(made)} logged-in people in {took:.1f} s ({len(made) / took:.1f} per second)", flush=True)
    return made


async def person(http: httpx.AsyncClient, base: str, n: int, bot: str, stop: float, tally: Tally,
                 rng: random.Random, think: float = 0.0, delay: float = 0.0, me: Account | None = None) -> None:
    """One seat at a time: create a table, play it to the end, repeat; each action sent as
    soon as allowed (``think`` 0) or after a person's thinking time (:func:`think_time`).
    The first table is created ``delay`` seconds in (:func:`arrival`). With an account
    ``me`` the person plays logged in (its session cookie and CSRF token on every request
    and on its WebSocket; its table against a bot rates the bot), and reads its profile
    after each game."""
    await asyncio.sleep(delay)
    headers = me.headers if me is not None else {}
    cookie = {"cookie": headers["cookie"]} if me is not None else {}
    while time.monotonic() < stop:
        game = GAMES[n % len(GAMES)]
        try:
            made = (await http.post("/api/tables", json={"game": game, "seats": ["me", bot]},
                                    headers=headers)).json()
        except (httpx.HTTPError, ValueError):  # no answer, or not JSON (a load balancer's 502 page)
            made = {}
        if "id" not in made:
            tally.errors += 1
            await asyncio.sleep(1)
            continue
        over = False  # the game ended, or the level did
        while not over and time.monotonic() < stop:  # a table moved to another host: connect again
            try:
                async with connect(f"ws{base.removeprefix('http')}/ws/tables/{made['id']}", max_size=None,
                                   additional_headers=cookie) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
                    sent: tuple[int, float] | None = None
                    planned: tuple[int, str, float] | None = None  # (version, action, when to send it)
                    last = -1
                    copy = Follower(keep=False)
                    while time.monotonic() < stop:
                        if planned is not None and time.monotonic() >= planned[2]:
                            version, action, _ = planned
                            planned = None
                            sent = (version, time.perf_counter())
                            await ws.send(json.dumps({"type": "act", "action": action, "version": version}))
                            continue
                        until = stop if planned is None else min(stop, planned[2])
                        try:
                            async with asyncio.timeout(max(0.001, until - time.monotonic())):
                                raw = await ws.recv()
                        except TimeoutError:
                            if planned is None:
                                break
                            continue
                        tally.frames += 1
                        tally.bytes += len(raw)
                        try:
                            msg = copy.read(orjson.loads(raw))  # a patch read as the update it stands for
                        except OutOfStep:
                            tally.errors += 1
                            await ws.send(json.dumps({"type": "sync"}))
                            continue
                        if msg.get("type") == "error":
                            tally.errors += 1
                            sent = None
                            continue
                        if msg.get("type") not in ("sync", "update"):
                            continue
                        if sent is not None and msg["version"] > sent[0]:
                            tally.rtts.append(time.perf_counter() - sent[1])
                            sent = None
                        if msg["outcome"] is not None:
                            tally.games += 1
                            break
                        if planned is not None and msg["version"] != planned[0]:
                            planned = None  # the table moved on meanwhile (a timeout): decide again
                        d = msg["decision"]
                        if d is not None and d["player"] == msg["seat"] and msg["legal"] and msg["version"] > last:
                            last = msg["version"]
                            action = rng.choice(msg["legal"])
                            pause = think_time(think, rng, msg.get("clock"))
                            if pause <= 0:
                                sent = (msg["version"], time.perf_counter())
                                await ws.send(json.dumps({"type": "act", "action": action,
                                                          "version": msg["version"]}))
                            else:
                                planned = (msg["version"], action, time.monotonic() + pause)
                over = True
            except ConnectionClosed as exc:  # 1012: the table moved (HAProxy sends us to its new host)
                if exc.rcvd is None or exc.rcvd.code != 1012:
                    tally.errors += 1  # (anything else is counted, and the person connects again too)
                await asyncio.sleep(0.2)
            except (InvalidHandshake, OSError, TimeoutError):  # refused (a 502 or 503 while the table moves)
                tally.errors += 1  # or too slow to open: counted, and tried again
                await asyncio.sleep(1.0)
        if me is not None and time.monotonic() < stop:
            profile = await http.get(f"/api/accounts/{me.name}", headers=headers)
            if profile.status_code == 200 and any(g["id"] == made["id"] for g in profile.json()["games"]):
                tally.profiles += 1
            else:
                tally.errors += 1  # the profile does not show the game just played


def arrival(i: int, tables: int, ramp: float) -> float:
    """When person ``i`` of ``tables`` sits down at its first table, in seconds from the
    level's start: all at once with ``ramp`` 0, else evenly over the first ``ramp`` seconds
    (people arriving, as at a real server, rather than a thousand tables made in one second)."""
    return ramp * i / tables if tables > 0 else 0.0


def think_time(mean: float, rng: random.Random, clock: dict[str, Any] | None) -> float:
    """How long a scripted person thinks before acting: 0 with ``--think 0`` (act as soon
    as allowed), else drawn from a log-normal distribution with that mean (most answers
    quick, a few slow, as people are), and on a timed decision at most half the time left."""
    if mean <= 0:
        return 0.0
    sigma = 0.8
    pause = rng.lognormvariate(math.log(mean) - sigma * sigma / 2, sigma)
    if clock is not None and clock.get("left") is not None:
        pause = min(pause, 0.5 * float(clock["left"]))
    return min(pause, 30.0)


class Window:
    """What happened between two looks: the tally's growth and the processes' CPU (the
    server's, its bot processes', its store writer's, and the load client's: this process and
    its client processes, with ``--clients``)."""

    def __init__(self, tally: Tally, procs: list[psutil.Process],
                 clients: list[psutil.Process] | None = None) -> None:
        self.tally, self.procs = tally, procs  # the server's processes (several hosts: one each)
        self.clients = [psutil.Process(), *(clients or [])]
        self.every: list[float] = []  # every round trip of every window so far (for a soak's whole run)
        self.writers: set[int] = set()  # which of the server's children are store writers
        self._look()

    def _client_cpu(self) -> float:
        total = 0.0
        for c in self.clients:
            with contextlib.suppress(psutil.NoSuchProcess):  # (a client process that has just ended)
                total += sum(c.cpu_times()[:2])
        return total

    def _look(self) -> None:
        t = self.tally
        self.rtts, self.frames, self.games, self.errors = len(t.rtts), t.frames, t.games, t.errors
        self.profiles = t.profiles
        self.bytes = t.bytes
        self.cpu, self.kids = self._cpu()
        self.mine, self.at = self._client_cpu(), time.monotonic()

    def _server(self) -> list[psutil.Process]:
        """The server's own processes: the one (of each host), or with ``serve --workers`` the
        front and its workers (its other children are bot processes and multiprocessing's
        helpers)."""
        out: list[psutil.Process] = []
        for proc in self.procs:
            out.append(proc)
            with contextlib.suppress(psutil.Error):
                if "--workers" in proc.cmdline():
                    out += [k for k in proc.children() if is_worker(k)]
        return out

    def _cpu(self) -> tuple[dict[int, float], dict[int, float]]:
        """CPU seconds so far by process: the server's, and everything else it started (its
        bot processes and its store writer; ``self.writers`` says which are writers)."""
        server: dict[int, float] = {}
        kids: dict[int, float] = {}
        own = self._server()
        for p in own:
            with contextlib.suppress(psutil.Error):
                server[p.pid] = sum(p.cpu_times()[:2])
        for proc in self.procs:
            with contextlib.suppress(psutil.Error):
                for k in proc.children(recursive=True):
                    if k.pid not in server:
                        with contextlib.suppress(psutil.Error):
                            kids[k.pid] = sum(k.cpu_times()[:2])
                            if k.pid not in self.writers and is_store_writer(k):
                                self.writers.add(k.pid)
        return server, kids

    def _rss(self) -> float:
        total = 0.0
        for p in self._server():
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
        return total / 2**20 if total else math.nan

    def close(self, tables: int) -> dict[str, float]:
        """The window since the last look (or the start), as one result line; starts the next."""
        t, (cpu, now), mine, at = self.tally, self._cpu(), self._client_cpu(), time.monotonic()
        span = at - self.at
        busy = math.nan if not self.procs else sum(v - self.cpu.get(pid, 0.0) for pid, v in cpu.items())
        gained = {pid: v - self.kids.get(pid, 0.0) for pid, v in now.items()}
        kids = math.nan if not self.procs else sum(v for pid, v in gained.items() if pid not in self.writers)
        writer = math.nan if not self.procs else sum(v for pid, v in gained.items() if pid in self.writers)
        client = mine - self.mine
        rtts = sorted(t.rtts[self.rtts:])
        q = statistics.quantiles(rtts, n=100) if len(rtts) >= 2 else [float("nan")] * 99
        self.every += rtts
        whole = statistics.quantiles(self.every, n=100) if len(self.every) >= 2 else [float("nan")] * 99
        out = {"tables": tables, "actions": len(rtts), "p50_ms": q[49] * 1000, "p99_ms": q[98] * 1000,
               "frames_per_s": (t.frames - self.frames) / span, "cpu_pct": 100 * busy / span,
               "bytes_per_frame": (t.bytes - self.bytes) / max(1, t.frames - self.frames),
               "client_cpu_pct": 100 * client / span, "bots_cpu_pct": 100 * kids / span,
               "writer_cpu_pct": 100 * writer / span,
               "rss_mb": self._rss(),
               "games": t.games - self.games,
               "errors": t.errors - self.errors,
               "profiles": t.profiles - self.profiles,
               "all_actions": len(self.every), "all_p50_ms": whole[49] * 1000, "all_p99_ms": whole[98] * 1000}
        self._look()
        return out


async def level(base: str, tables: int, seconds: float, bot: str, proc: list[psutil.Process],
                windows: int = 1, report: Callable[[dict[str, float]], None] | None = None,
                think: float = 0.0, ramp: float = 0.0, logins: dict[int, Account] | None = None) -> dict[str, float]:
    """N people each playing table after table for ``windows`` x ``seconds`` (those in
    ``logins`` logged in, with those accounts); with ``report``,
    each window's line is given to it as the window closes (the people play on across
    windows, so no table is left half played at a window's end). Returns the last window."""
    tally = Tally()
    stop = time.monotonic() + seconds * windows
    window = Window(tally, proc)
    rng = random.Random(tables)
    http = http_client(base)
    people = asyncio.gather(*(person(http, base, i, bot, stop, tally, random.Random(rng.random()), think,
                                     arrival(i, tables, ramp), (logins or {}).get(i)) for i in range(tables)))
    line: dict[str, float] = {}
    for k in range(windows):
        await asyncio.sleep(max(0.0, stop - seconds * (windows - k - 1) - time.monotonic()))
        line = window.close(tables)
        if report is not None:
            report(line)
    await people
    await http.aclose()
    return line


def level_in_processes(base: str, tables: int, seconds: float, bot: str, proc: list[psutil.Process],
                       clients: int,
                       windows: int = 1, report: Callable[[dict[str, float]], None] | None = None,
                       think: float = 0.0, ramp: float = 0.0,
                       logins: dict[int, Account] | None = None) -> dict[str, float]:
    """:func:`level` with the people shared out over ``clients`` processes (table i in
    process i mod clients), so that at hundreds of tables the load client's own event
    loop is not what the round trips measure. Each process reports its window's tally at
    each window's end; the lines merge them."""
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    start = time.monotonic() + 3.0  # every process started and ready (spawn imports all again)
    rng = random.Random(tables)
    procs = [ctx.Process(target=people_apart, daemon=True, args=(
        base, list(range(k, tables, clients)), bot, start, seconds, windows, rng.random(), out, think, ramp,
        tables, {i: a for i, a in (logins or {}).items() if i % clients == k}))
        for k in range(clients)]
    for p in procs:
        p.start()
    tally = Tally()
    time.sleep(max(0.0, start - time.monotonic()))
    window = Window(tally, proc, [psutil.Process(p.pid) for p in procs if p.pid is not None])
    line: dict[str, float] = {}
    for k in range(windows):
        time.sleep(max(0.0, start + seconds * (k + 1) - time.monotonic()))
        for _ in procs:
            _, part = out.get(timeout=120)
            tally.rtts += part.rtts
            tally.frames += part.frames
            tally.bytes += part.bytes
            tally.games += part.games
            tally.errors += part.errors
            tally.profiles += part.profiles
        line = window.close(tables)
        if report is not None:
            report(line)
    for p in procs:
        p.join(60)
    return line


def people_apart(base: str, ids: list[int], bot: str, start: float, seconds: float, windows: int, seed: float,
                 out: Any, think: float = 0.0, ramp: float = 0.0, tables: int = 0,
                 logins: dict[int, Account] | None = None) -> None:
    """A client process of :func:`level_in_processes`: the people of tables ``ids``,
    sending each window's tally (``(window, Tally)``) as the window ends."""
    async def run() -> None:
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        tally, told = Tally(), Tally()
        stop = start + seconds * windows
        rng = random.Random(seed)
        http = http_client(base)
        people = asyncio.gather(*(person(http, base, i, bot, stop, tally, random.Random(rng.random()), think,
                                         arrival(i, tables, ramp), (logins or {}).get(i)) for i in ids))
        for k in range(windows):
            await asyncio.sleep(max(0.0, start + seconds * (k + 1) - time.monotonic()))
            out.put((k, Tally(tally.rtts[len(told.rtts):], tally.frames - told.frames, tally.bytes - told.bytes,
                              tally.games - told.games, tally.errors - told.errors, tally.profiles - told.profiles)))
            told = Tally(list(tally.rtts), tally.frames, tally.bytes, tally.games, tally.errors, tally.profiles)
        await people
        await http.aclose()

    uvloop.run(run())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--levels", default="25,50,100", help="comma-separated table counts (each <= 1000)")
    ap.add_argument("--seconds", type=float, default=None, help="seconds per level or soak window (<= 600;"
                    " default 20, with --soak 60)")
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file in a temp dir)")
    ap.add_argument("--bot", default="easy", help="the bot level at every table")
    ap.add_argument("--pace", type=float, default=0.9, help="the server's --pace (seconds between bot moves)")
    ap.add_argument("--bot-delay", type=float, default=2.0, help="the server's --bot-delay")
    ap.add_argument("--hard-tables", type=int, default=0,
                    help="also keep this many bot-only tables of `hard` bots busy (at most 20: the server's cap)")
    ap.add_argument("--soak", type=float, default=None, metavar="MINUTES",
                    help="run the first level this long (at most 1440), a line per --seconds window")
    ap.add_argument("--bot-processes", type=int, default=None,
                    help="the server's --bot-processes (0: searches in threads; default: the server's default)")
    ap.add_argument("--clients", type=int, default=1,
                    help="load-client processes the people are shared out over (1: this process; use 2-4"
                    " at hundreds of tables, where one client's event loop would lag behind the server)")
    ap.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                    help="each person's mean thinking time before an action (log-normal; at most half a timed"
                    " decision's time left). 0, the default: act as soon as allowed")
    ap.add_argument("--compress", action="store_true",
                    help="the server's --compress (permessage-deflate frames; off by default)")
    ap.add_argument("--ramp", type=float, default=0.0, metavar="SECONDS",
                    help="the people arrive evenly over the first SECONDS of each level (0, the default: all at"
                    " once; the first window then holds every table's creation)")
    ap.add_argument("--accounts", type=float, default=0.0, metavar="SHARE",
                    help="the share of the people (0-1) who play logged in: their session cookie and CSRF token on"
                    " every request, their tables rating the bot, their profile read after each game (their"
                    " accounts are made before each level; 0, the default: every person a guest)")
    ap.add_argument("--workers", type=int, default=1,
                    help="the server's --workers (server processes sharing the tables; 1: one process)")
    ap.add_argument("--server", default=None, metavar="URL",
                    help="play against this running server (http://HOST:PORT) instead of starting one; the"
                    " server options (--db, --pace, --bot-delay, --bot-processes, --compress) are then its own")
    ap.add_argument("--server-pid", type=pids, default=None, metavar="PID[,PID...]",
                    help="with --server on this machine: its process, for the CPU and RSS columns (several"
                    " hosts behind a load balancer: each host's, comma-separated; the columns add them up)")
    ap.add_argument("--trace-memory", default=None, metavar="DIR",
                    help="the server started here writes tracemalloc snapshots into DIR (see"
                    " knockabout.server.memory_probe; compare them with benchmarks/memory_growth.py)")
    ap.add_argument("--trace-every", type=float, default=600.0, metavar="SECONDS",
                    help="seconds between two --trace-memory snapshots (600)")
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",") if x.strip()]
    if args.seconds is None:
        args.seconds = 20.0 if args.soak is None else 60.0
    if args.soak is not None:
        if not 0 < args.soak <= 1440:
            raise SystemExit("--soak takes 1-1440 minutes")
        levels = levels[:1]
    if not 0 <= args.think <= 60:
        raise SystemExit("--think takes 0-60 seconds (the mean thinking time before each action)")
    if not 0 <= args.ramp <= args.seconds:
        raise SystemExit(f"--ramp takes 0 to --seconds ({args.seconds:g}) seconds")
    if not 0 <= args.accounts <= 1:
        raise SystemExit("--accounts takes a share of the people from 0 to 1")
    if not 1 <= args.clients <= 16:
        raise SystemExit("--clients takes 1-16 processes")
    if not 1 <= args.workers <= 64:
        raise SystemExit("--workers takes 1-64 server processes")
    if any(not 0 < n <= MAX_TABLES for n in levels) or not 0 < args.seconds <= MAX_SECONDS:
        raise SystemExit(f"levels must be 1-{MAX_TABLES} tables, --seconds at most {MAX_SECONDS:.0f}")
    if args.server is not None:
        given = [f for f, v in (("--db", args.db), ("--bot-processes", args.bot_processes),
                                ("--compress", args.compress or None), ("--trace-memory", args.trace_memory),
                                ("--workers", args.workers if args.workers != 1 else None)) if v is not None]
        if given:
            raise SystemExit(f"{', '.join(given)}: with --server these are the running server's own options")
        play_given(args, levels)
        return
    if args.server_pid is not None:
        raise SystemExit("--server-pid goes with --server (a server this script starts is measured anyway)")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'load.db'}"
        port = free_port()
        trace = None
        if args.trace_memory is not None:
            Path(args.trace_memory).mkdir(parents=True, exist_ok=True)
            trace = (str(Path(args.trace_memory).resolve()), args.trace_every)
        server = start_server(db, port, args.pace, args.bot_delay, args.bot, args.bot_processes, args.compress,
                              args.workers, trace)
        try:
            proc = [psutil.Process(server.pid)]
            shared = f" ({args.workers} worker processes)" if args.workers > 1 else ""
            print(f"server pid {server.pid}{shared}, {db.split('://')[0]}, bot {args.bot}, pace {args.pace}s, "
                  f"frames {'compressed' if args.compress else 'not compressed'}, {args.seconds:.0f}s per level, "
                  f"people {people_text(args.think, args.ramp, args.accounts)}")
            run_levels(args, levels, f"http://127.0.0.1:{port}", proc)
        finally:
            server.terminate()
            try:
                _, err = server.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                _, err = server.communicate()
            tracebacks = err.decode(errors="replace").count("Traceback")
            print(f"server tracebacks: {tracebacks}")


def pids(text: str) -> list[int]:
    """``--server-pid``'s value: process ids, comma-separated."""
    return [int(x) for x in text.split(",") if x.strip()]


def people_text(think: float, ramp: float = 0.0, accounts: float = 0.0) -> str:
    text = f"think {think:g} s on average" if think else "act at once"
    text += f", arriving over {ramp:g} s" if ramp else ""
    return text + (f", {100 * accounts:g} % logged in" if accounts else "")


def play_given(args: argparse.Namespace, levels: list[int]) -> None:
    """The levels against a server started elsewhere (``--server``)."""
    base = args.server.rstrip("/")
    if not base.startswith(("http://", "https://")) or "/" in base.split("://", 1)[1]:
        raise SystemExit(f"--server takes the server's address as http://HOST:PORT, not {args.server!r}")
    try:
        httpx.get(f"{base}/api/games", timeout=5, trust_env=False).raise_for_status()
    except httpx.HTTPError as exc:
        raise SystemExit(f"no knockabout server answers at {base} ({exc})") from None
    proc = []
    for pid in args.server_pid or []:
        try:
            proc.append(psutil.Process(pid))
        except psutil.Error:
            raise SystemExit(f"--server-pid {pid}: no such process on this machine") from None
    pids = ", ".join(str(p.pid) for p in proc)
    print(f"server {base} (started elsewhere{f', pid {pids}' if proc else ''}), bot {args.bot}, "
          f"{args.seconds:.0f}s per level, people {people_text(args.think, args.ramp, args.accounts)}")
    run_levels(args, levels, base, proc)
    print("server tracebacks: not seen here (read the server's own log)")


def run_levels(args: argparse.Namespace, levels: list[int], base: str, proc: list[psutil.Process]) -> None:
    """Play the levels (or the soak) against the server at ``base``, a line per level or window."""
    for i in range(min(args.hard_tables, 20)):
        httpx.post(f"{base}/api/tables", json={
            "game": GAMES[i % len(GAMES)], "seats": ["hard", "hard"], "config": {}}).raise_for_status()
    if args.hard_tables:
        print(f"+ {min(args.hard_tables, 20)} bot-only tables of hard bots")
    print("tables  actions  p50 ms  p99 ms  frames/s  cpu %  rss MB  games  errors  client cpu %"
          "  bot procs cpu %  writer cpu %  B/frame  profiles")
    rss: list[float] = []
    lines: list[dict[str, float]] = []

    def show(r: dict[str, float]) -> None:
        rss.append(r["rss_mb"])
        lines.append(r)
        print(f"{r['tables']:6.0f}  {r['actions']:7.0f}  {r['p50_ms']:6.1f}  {r['p99_ms']:6.1f}  "
              f"{r['frames_per_s']:8.0f}  {shown(r['cpu_pct'], 5)}  {shown(r['rss_mb'], 6)}  {r['games']:5.0f}  "
              f"{r['errors']:6.0f}  {r['client_cpu_pct']:12.0f}  {shown(r['bots_cpu_pct'], 15)}  "
              f"{shown(r['writer_cpu_pct'], 12)}  "
              f"{r['bytes_per_frame']:7.0f}  {r['profiles']:8.0f}", flush=True)

    if args.soak is None:
        for n in levels:
            logins = accounts_for(base, n, args.accounts)
            if args.clients > 1:
                show(level_in_processes(base, n, args.seconds, args.bot, proc, args.clients,
                                        think=args.think, ramp=args.ramp, logins=logins))
            else:
                show(uvloop.run(level(base, n, args.seconds, args.bot, proc, think=args.think, ramp=args.ramp,
                                      logins=logins)))
    else:  # one level, played on across windows
        windows = max(1, round(args.soak * 60 / args.seconds))
        if args.clients > 1:
            level_in_processes(base, levels[0], args.seconds, args.bot, proc, args.clients, windows, show,
                               args.think, args.ramp, accounts_for(base, levels[0], args.accounts))
        else:
            logins = accounts_for(base, levels[0], args.accounts)
            uvloop.run(level(base, levels[0], args.seconds, args.bot, proc, windows, show, args.think,
                             args.ramp, logins))
    if args.soak is not None and lines:
        last, over = lines[-1], sum(1 for r in lines if r["p99_ms"] > 50)
        print(f"soak: {last['all_actions']:.0f} actions in {len(lines)} windows, round trip p50 "
              f"{last['all_p50_ms']:.1f} ms, p99 {last['all_p99_ms']:.1f} ms over the whole run; "
              f"{over} of {len(lines)} windows had a p99 over 50 ms")
    # (a trend needs two windows in the second half, and the server's RSS)
    if args.soak is not None and len(rss) >= 4 and not math.isnan(rss[0]):
        hours = (len(rss) - 1) * args.seconds / 3600
        half = rss[len(rss) // 2:]  # the second half: past the warm-up
        slope = statistics.linear_regression(range(len(half)), half).slope * 3600 / args.seconds
        print(f"soak: RSS {rss[0]:.0f} MB in the first window, {rss[-1]:.0f} MB in the last "
              f"({hours:.2f} h later), at most {max(rss):.0f} MB; second half's trend "
              f"{slope:+.1f} MB per hour")



def shown(value: float, width: int) -> str:
    """A column's number, or ``-`` where it was not measured (a server started elsewhere)."""
    return f"{'-':>{width}}" if math.isnan(value) else f"{value:{width}.0f}"

if __name__ == "__main__":
    main()
