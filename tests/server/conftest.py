from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import OperationalError

from knockabout.server import ServerSettings, create_app
from knockabout.server.frames import Follower
from knockabout.store import StoredTable

Client = Callable[..., Any]


T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T], runner: Callable[[Coroutine[Any, Any, T]], T] = asyncio.run) -> T:
    """``runner(coro)`` (``asyncio.run``, or ``uvloop.run``) on a thread of its own: from the
    first browser test on, the session's Playwright browser keeps a loop running on this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(runner, coro).result()


def stored(table_id: str) -> StoredTable:
    """A stored two-seat Nak Muay table, for the store's tests."""
    return StoredTable(id=table_id, game="nak-muay", rules_version="1.0", config={"players": 2}, seed=1,
                       seats=[{"kind": "person", "name": "a", "level": None, "token": None}] * 2)

@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """A context manager making a test client on a fresh (or the same) SQLite file."""

    @contextmanager
    def make(**kw: Any) -> Iterator[TestClient]:
        settings = ServerSettings(
            db_url=f"sqlite:///{tmp_path / 'k.db'}",
            bot_delay=kw.pop("bot_delay", 0.0),
            bot_pace=kw.pop("bot_pace", 0.0),
            grace_seconds=kw.pop("grace", 60.0),
            **kw,
        )
        with TestClient(create_app(settings)) as client:
            yield client

    yield make


_FOLLOWERS: WeakKeyDictionary[Any, Follower] = WeakKeyDictionary()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def uvicorn_running(config: uvicorn.Config) -> Iterator[None]:
    """A real uvicorn server on a thread of this process, from started to stopped."""
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(10)


def follower(ws: Any) -> Follower:
    """The client's copy of the table for one test socket (what its patches apply to)."""
    if ws not in _FOLLOWERS:
        _FOLLOWERS[ws] = Follower()
    return _FOLLOWERS[ws]


def receive(ws: Any) -> dict[str, Any]:
    """The next message of a test socket, a patch frame read as the whole update it stands
    for (the way the browser reads it)."""
    return follower(ws).read(ws.receive_json())


def receive_until(ws: Any, pred: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
    """Read messages (patches as the updates they stand for) until one satisfies ``pred``
    (fails after ``limit`` messages)."""
    for _ in range(limit):
        msg = receive(ws)
        if pred(msg):
            return msg
    raise AssertionError("the expected message never came")


def my_turn(seat: int) -> Callable[[dict[str, Any]], bool]:
    def pred(msg: dict[str, Any]) -> bool:
        if msg.get("type") not in ("sync", "update"):
            return False
        d = msg["decision"]
        return msg["outcome"] is not None or (d is not None and d["player"] == seat
                                              and msg["table"]["status"] == "playing")
    return pred


def three_turns_played(c: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """A Nak Muay table made on ``c`` for Ann against two random bots (seed 3), after three
    of Ann's turns: the table as made, and the message of her fourth decision."""
    made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random", "random"],
                                       "name": "Ann", "seed": 3}).json()
    with c.websocket_connect(f"/ws/tables/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": made["token"]})
        for _ in range(3):
            msg = receive_until(ws, my_turn(0))
            assert msg["outcome"] is None, "seed 3 runs longer than three of Ann's turns"
            ws.send_json({"type": "act", "action": msg["legal"][0], "version": msg["version"]})
        before = receive_until(ws, my_turn(0))
        assert before["outcome"] is None
    return made, before


GAMES = ["nak-muay", "knockdown", "knockback"]
"""The three games, for tests that run a server table of each."""


# -- PostgreSQL (the store tests and the crash test run on both databases)
DEFAULT_POSTGRES_URL = "postgresql+psycopg://knockabout:knockabout@127.0.0.1:5432/knockabout_test"
POSTGRES_URL = os.environ.get("KNOCKABOUT_TEST_POSTGRES_URL") or DEFAULT_POSTGRES_URL


@pytest.fixture(scope="module")
def postgres() -> Iterator[Engine]:
    """An engine on the tests' PostgreSQL database; fails (never skips quietly) when none answers."""
    if os.environ.get("KNOCKABOUT_SKIP_POSTGRES") == "1":
        pytest.skip("KNOCKABOUT_SKIP_POSTGRES=1: the PostgreSQL store tests were skipped on purpose")
    engine = create_engine(POSTGRES_URL, connect_args={"connect_timeout": 5})
    try:
        with engine.connect():
            pass
    except OperationalError as exc:
        shown = make_url(POSTGRES_URL).render_as_string(hide_password=True)
        pytest.fail(
            f"PostgreSQL is not reachable at {shown} ({str(exc.orig).strip().splitlines()[0]}). "
            "Start it with `make db-deps` (runs scripts/ensure-postgres.sh: installs, starts and sets it up), "
            "point KNOCKABOUT_TEST_POSTGRES_URL at another server, or set KNOCKABOUT_SKIP_POSTGRES=1 "
            "to skip these tests on purpose.",
            pytrace=False,
        )
    yield engine
    engine.dispose()


@pytest.fixture
def postgres_url(postgres: Engine) -> Iterator[str]:
    """A URL on a fresh schema of the tests' database."""
    schema = f"knockabout_{uuid.uuid4().hex[:12]}"
    with postgres.begin() as c:
        c.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    yield url.render_as_string(hide_password=False)
    with postgres.begin() as c:
        c.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'k.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


def plays_on_where_it_was(c: Any, made: dict[str, Any], before: dict[str, Any]) -> int:
    """On a restarted server ``c``, the player of ``made`` connects again and is shown the
    table exactly as ``before`` (its sync), then plays a move that the table takes; returns
    the table's version after it."""
    with c.websocket_connect(f"/ws/tables/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": made["token"]})
        sync = receive_until(ws, lambda m: m["type"] == "sync")
        assert sync["view"] == before["view"], "same state, same hand, same decision"
        ws.send_json({"type": "act", "action": sync["legal"][0], "version": sync["version"]})
        upd = receive_until(ws, lambda m: m["type"] == "update" and m["version"] > sync["version"])
        assert upd["version"] > before["version"]
        return int(upd["version"])
