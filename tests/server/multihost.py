"""A deployment of several hosts on this machine, for the multi-host tests: Redis, N
``knockabout serve`` processes (each its own process group, on its own loopback port,
sharing one PostgreSQL database) and HAProxy in front of them, run from
``deploy/haproxy.cfg`` itself (its ports changed). And a scripted player that plays a seat
through HAProxy the way the browser does: it connects again whenever its connection
ends, and checks that nothing it was shown ever goes back."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, or_, select
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from knockabout.server.frames import Follower, OutOfStep
from knockabout.store.schema import LeaseRow
from tests.server.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"
LOOPBACK = "127.0.0.1"


def program(name: str) -> str:
    """The path of ``haproxy`` or ``redis-server``; fails (never skips quietly) when missing."""
    if os.environ.get("KNOCKABOUT_SKIP_MULTIHOST") == "1":
        pytest.skip("KNOCKABOUT_SKIP_MULTIHOST=1: the multi-host tests were skipped on purpose")
    found = shutil.which(name) or next((p for p in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if os.path.exists(p)),
                                       None)
    if found is None:
        pytest.fail(f"{name} is not installed: run `make multihost-deps` (scripts/ensure-multihost.sh installs "
                    "Debian's haproxy and redis-server), or set KNOCKABOUT_SKIP_MULTIHOST=1 to skip these tests "
                    "on purpose", pytrace=False)
    return found


def haproxy_config(front: int, stats: int, hosts: list[tuple[str, int]]) -> str:
    """deploy/haproxy.cfg with its front, stats and hosts' ports changed (loopback only)."""
    text = HAPROXY_CFG.read_text()
    text = text.replace(f"bind {LOOPBACK}:8000", f"bind {LOOPBACK}:{front}")
    text = text.replace(f"bind {LOOPBACK}:8404", f"bind {LOOPBACK}:{stats}")
    text = re.sub(r"    server h\d .*\n", "", text)
    servers = "".join(f"    server {name} {LOOPBACK}:{port} check\n" for name, port in hosts)
    text = text.replace("listen stats", servers.rstrip("\n") + "\n\nlisten stats", 1)
    assert text.count(" check\n") == len(hosts), "the configuration's server lines changed shape"
    return text.replace("log stdout format raw local0 notice", "log stderr format raw local0 emerg")


@dataclass
class Host:
    name: str
    port: int
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def info(self) -> dict[str, Any]:
        answer: dict[str, Any] = httpx.get(f"{self.url}/api/host", timeout=5).json()
        return answer

    def signal(self, sig: int) -> None:
        """``sig`` to the host's whole process group (the server, its store writer)."""
        assert self.proc is not None
        os.killpg(self.proc.pid, sig)


@dataclass
class Cluster:
    """Redis, ``hosts`` servers and HAProxy, all on loopback ports of their own."""

    tmp: Path
    db_url: str
    hosts: int = 3
    lease: float = 2.0
    servers: list[Host] = field(default_factory=list)
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    front: int = 0
    stats: int = 0
    redis_port: int = 0

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.front}"

    @property
    def ws(self) -> str:
        return f"ws://{LOOPBACK}:{self.front}"

    def start(self) -> None:
        self.redis_port = free_port()
        self.procs.append(subprocess.Popen(
            [program("redis-server"), "--bind", LOOPBACK, "--port", str(self.redis_port), "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        haproxy = program("haproxy")
        self.servers = [Host(f"h{i + 1}", free_port()) for i in range(self.hosts)]
        for host in self.servers:
            self.start_host(host)
        for host in self.servers:
            self.wait_host(host)
        self.front, self.stats = free_port(), free_port()
        cfg = self.tmp / "haproxy.cfg"
        cfg.write_text(haproxy_config(self.front, self.stats, [(h.name, h.port) for h in self.servers]))
        self.procs.append(subprocess.Popen([haproxy, "-db", "-f", str(cfg)], stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 20
        while set(self.states().values()) != {"UP"}:
            assert time.monotonic() < deadline, f"HAProxy did not see every host up: {self.states()}"
            time.sleep(0.2)

    def start_host(self, host: Host) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), KNOCKABOUT_HOST_NAME=host.name,
                   KNOCKABOUT_DB=self.db_url, KNOCKABOUT_REDIS=f"redis://{LOOPBACK}:{self.redis_port}/0")
        host.log = self.tmp / f"{host.name}.log"
        with host.log.open("ab") as out:
            host.proc = subprocess.Popen(
                [sys.executable, "-m", "knockabout.cli.main", "serve", "--host", LOOPBACK, "--port", str(host.port),
                 "--lease-seconds", str(self.lease), "--pace", "0.05", "--bot-delay", "0.05", "--bot-processes", "0",
                 "--create-rate", "off", "--server-create-rate", "off", "--message-rate", "off", "--grace", "60"],
                env=env, stdout=out, stderr=out, start_new_session=True)

    def wait_host(self, host: Host) -> None:
        deadline = time.monotonic() + 60
        while True:
            assert host.proc is not None
            if host.proc.poll() is not None:
                raise AssertionError(f"{host.name} ended: {host.log.read_text() if host.log else ''}")
            try:
                if httpx.get(f"{host.url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"{host.name} did not start"
            time.sleep(0.1)

    def states(self) -> dict[str, str]:
        """HAProxy's view of each host (UP, DOWN, ...), from its stats page."""
        try:
            text = httpx.get(f"http://{LOOPBACK}:{self.stats}/stats;csv", timeout=2).text
        except httpx.TransportError:
            return {}
        out = {}
        for line in text.splitlines():
            cells = line.split(",")
            if len(cells) > 17 and cells[0] == "hosts" and cells[1] not in ("FRONTEND", "BACKEND"):
                out[cells[1]] = cells[17].split(" ")[0]
        return out

    def leases_of(self, host: Host) -> set[str]:
        """The tables whose lease names ``host`` as holder in the store now (its hold may
        have run out: these are the tables no other host has taken yet)."""
        engine = create_engine(self.db_url)
        try:
            with engine.connect() as conn:
                c = LeaseRow.__table__.c
                return set(conn.scalars(select(c.table_id).where(
                    or_(c.owner == host.name, c.owner.startswith(f"{host.name}/")))))
        finally:
            engine.dispose()

    def holding(self) -> dict[str, int]:
        """How many tables each host that answers holds now."""
        out = {}
        for host in self.servers:
            try:
                out[host.name] = host.info()["tables"]
            except (httpx.TransportError, ValueError):
                continue
        return out

    def stop(self) -> None:
        for host in self.servers:
            if host.proc is not None and host.proc.poll() is None:
                try:
                    host.signal(signal.SIGCONT)
                    host.signal(signal.SIGTERM)
                except ProcessLookupError:
                    continue
        for host in self.servers:
            if host.proc is not None:
                try:
                    host.proc.wait(20)
                except subprocess.TimeoutExpired:
                    host.signal(signal.SIGKILL)
                    host.proc.wait(10)
        for proc in self.procs:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


@dataclass
class Seen:
    """What one player was shown of its table, across its connections."""

    table_id: str
    versions: list[int] = field(default_factory=list)
    events: list[tuple[int, str]] = field(default_factory=list)  # (step, text) of every event shown
    outcome: dict[str, Any] | None = None
    connections: int = 0
    went_back: list[str] = field(default_factory=list)  # what broke the rule, if anything did
    other: list[str] = field(default_factory=list)  # other messages and connection errors (for a failure's message)


async def make_table(http: httpx.AsyncClient, base: str, game: str, seats: list[str],
                     config: dict[str, Any]) -> dict[str, Any]:
    """A new table through ``base``, tried again while the deployment answers 5xx."""
    for _ in range(100):
        try:
            answer = await http.post(f"{base}/api/tables", json={"game": game, "seats": seats, "name": "P",
                                                                  "config": config})
        except httpx.TransportError:
            await asyncio.sleep(0.2)
            continue
        if answer.status_code < 500:
            assert answer.status_code == 200, answer.text
            made: dict[str, Any] = answer.json()
            return made
        await asyncio.sleep(0.2)
    raise AssertionError("no table could be made")


async def play(ws_base: str, table_id: str, token: str, seat: int, deadline: float) -> Seen:
    """Play ``seat`` to the end (the first legal action each time), connecting again each
    time a connection ends. Each message must keep what was shown before: a version never
    lower than one already shown, and a sync's events begin with every event shown so far."""
    seen = Seen(table_id)
    while seen.outcome is None:
        assert time.monotonic() < deadline, (f"table {table_id} did not finish (last version {seen.versions[-1:]}, "
                                             f"{seen.connections} connections; last other messages and "
                                             f"connection errors: {seen.other[-5:]})")
        try:
            async with connect(f"{ws_base}/ws/tables/{table_id}", open_timeout=10, close_timeout=1) as ws:
                seen.connections += 1
                await ws.send(json.dumps({"type": "hello", "token": token}))
                copy = Follower()
                async for raw in ws:
                    try:
                        msg = copy.read(json.loads(raw))
                    except OutOfStep:
                        await ws.send(json.dumps({"type": "sync"}))
                        continue
                    if msg.get("type") not in ("sync", "update", "patch"):
                        seen.other.append(str(msg)[:200])
                        continue
                    _check(seen, msg)
                    if msg["outcome"] is not None:
                        seen.outcome = msg["outcome"]
                        break
                    d = msg["decision"]
                    if d is not None and d["player"] == seat and msg["legal"] and msg["table"]["status"] == "playing":
                        await ws.send(json.dumps({"type": "act", "action": msg["legal"][0],
                                                  "version": msg["version"]}))
        except (ConnectionClosed, InvalidHandshake, InvalidStatus, OSError, TimeoutError) as e:
            seen.other.append(repr(e)[:200])
        if seen.outcome is None:
            await asyncio.sleep(0.3)
    return seen


def _check(seen: Seen, msg: dict[str, Any]) -> None:
    version = msg["version"]
    if seen.versions and version < max(seen.versions):
        seen.went_back.append(f"version {version} after {max(seen.versions)}")
    seen.versions.append(version)
    events = [(e["step"], e["text"]) for e in msg.get("events") or []]
    if msg["type"] == "sync":
        if events[:len(seen.events)] != seen.events:
            seen.went_back.append(f"a sync at version {version} does not begin with the {len(seen.events)} events "
                                  "shown before")
        seen.events = events
    else:
        seen.events.extend(events)
