"""Limits with clear answers: table creation and messages per address, bot-only tables,
spectators per table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from knockabout.cli.main import app as cli
from knockabout.core.errors import ConfigError
from knockabout.server import ServerSettings, create_app
from knockabout.server.quotas import TOO_MANY, describe, rate
from tests.server.conftest import receive, receive_until

pytestmark = pytest.mark.timeout(60)

WAITING = {"game": "nak-muay", "seats": ["me", "open"]}  # waits for its open seat: no bot moves


def test_table_creation_is_limited_per_address_with_a_429_that_says_the_limit(make_client: Any) -> None:
    with make_client(create_rate="3/minute") as c:
        for _ in range(3):
            assert c.post("/api/tables", json=WAITING).status_code == 200
        before = len(c.app.state.manager.tables)
        r = c.post("/api/tables", json=WAITING)
        assert r.status_code == 429
        assert r.json() == {"error": "too many new tables from your address: at most 3 per minute; try again later"}
        assert len(c.app.state.manager.tables) == before, "nothing was made"


def test_messages_over_the_rate_get_an_error_and_change_nothing(make_client: Any) -> None:
    with make_client(message_rate="5/minute") as c:
        made = c.post("/api/tables", json=WAITING).json()
        with c.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"]})
            receive_until(ws, lambda m: m["type"] == "sync")
            for _ in range(5):
                ws.send_json({"type": "ping"})
                assert receive_until(ws, lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
            ws.send_json({"type": "ping"})
            refused = receive_until(ws, lambda m: m["type"] in ("pong", "error"))
            assert refused == {"type": "error", "message":
                               "too many messages from your address: at most 5 per minute; nothing changed"}


def test_bot_only_tables_are_capped(make_client: Any) -> None:
    bots = {"game": "nak-muay", "seats": ["random", "random"], "config": {"max_turns": 2000}}
    with make_client(max_bot_tables=2, bot_pace=600.0, bot_delay=600.0) as c:
        assert c.post("/api/tables", json=bots).status_code == 200
        assert c.post("/api/tables", json=bots).status_code == 200
        r = c.post("/api/tables", json=bots)
        assert r.status_code == 429 and "tables of bots only (at most 2)" in r.json()["error"]
        assert c.post("/api/tables", json={"game": "nak-muay", "seats": ["me", "random"]}).status_code == 200, \
            "a table with a person is not a bot-only table"


def test_spectators_past_the_cap_are_closed_with_a_reason(make_client: Any) -> None:
    with make_client(max_spectators=2) as c:
        made = c.post("/api/tables", json=WAITING).json()
        url = f"/ws/tables/{made['id']}"
        with c.websocket_connect(url) as a, c.websocket_connect(url) as b, c.websocket_connect(url) as third:
            for ws in (a, b):
                ws.send_json({"type": "hello"})
                receive_until(ws, lambda m: m["type"] == "sync")
            third.send_json({"type": "hello"})
            assert receive(third) == {"type": "error",
                                            "message": "this table has 2 spectators already, the most it takes"}
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(third)
            assert closed.value.code == TOO_MANY
            with c.websocket_connect(url) as me:  # a seat's own connection is never refused
                me.send_json({"type": "hello", "token": made["token"]})
                assert receive_until(me, lambda m: m["type"] in ("sync", "error"))["type"] == "sync"


def test_rates_are_read_or_refused_in_one_line() -> None:
    assert rate("off") is None and rate(None) is None
    item = rate("20/second")
    assert item is not None and describe(item) == "20 per second"
    with pytest.raises(ConfigError, match="'often' is not a rate"):
        create_app(ServerSettings(create_rate="often"))
    result = CliRunner().invoke(cli, ["serve", "--create-rate", "often", "--port", "1"])
    assert result.exit_code == 2 and "'often' is not a rate" in result.output
    result = CliRunner().invoke(cli, ["serve", "--server-create-rate", "often", "--port", "1"])
    assert result.exit_code == 2 and "'often' is not a rate" in result.output


def test_serve_help_shows_the_limits() -> None:
    out = CliRunner().invoke(cli, ["serve", "--help"], env={"COLUMNS": "200"}).output
    for option in ("--create-rate", "--server-create-rate", "--max-tables", "--message-rate", "--max-bot-tables",
                   "--max-spectators", "--finished-ttl"):
        assert option in out


def test_bots_think_in_a_bounded_pool_shared_by_all_tables(make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    import time

    from knockabout.table.thinking import Thought

    lock = threading.Lock()
    ran_in: set[threading.Thread] = set()
    # thinkings done, by thread and table (each table's bots have their own generator, kept
    # here as the object itself: an id() could be reused once a finished table is gone)
    done_in: dict[tuple[threading.Thread, Any], int] = {}
    real = Thought.run

    def run(self: Thought) -> None:
        with lock:
            ran_in.add(threading.current_thread())
        time.sleep(0.02)  # a thinking long enough for the tables' thinkings to overlap
        real(self)
        with lock:
            key = (threading.current_thread(), self._rng)
            done_in[key] = done_in.get(key, 0) + 1

    monkeypatch.setattr(Thought, "run", run)
    # (no release floors: one slow thinking on a loaded machine would space a table's moves
    # by up to MAX_FLOOR seconds, which is the steady-bots rule, not the pool's)
    monkeypatch.setattr("knockabout.table.thinking.MAX_FLOOR", 0.0)
    with make_client(bot_threads=1) as c:  # (with the default executor: 4 at once)
        manager = c.app.state.manager
        tables = []
        for _ in range(4):
            made = c.post("/api/tables", json={"game": "nak-muay", "seats": ["random", "random"]}).json()
            tables.append(manager.get(made["id"]).table)
        # Counted by thinkings, not by moves released: on a loaded machine one slow thinking
        # raises the tables' release floors (see steady_bots) and their moves come seconds apart.
        deadline = time.monotonic() + 30

        def done() -> list[tuple[int, bool]]:  # (thinkings, game over) by table, in this server's pool threads
            # (other tests' servers may still be finishing a thinking)
            ours = {t for pool in manager.thinkers._threads.values() for t in pool._threads}
            with lock:
                return [(sum(n for (thread, rng), n in done_in.items() if thread in ours and rng is t._bot_rng),
                         t.over) for t in tables]

        def served(counts: list[tuple[int, bool]]) -> bool:
            # a random two-player game can end in a move or two (a KO card drawn at once): such a
            # table has had all its turns
            return all(n >= 3 or (over and n >= 1) for n, over in counts)

        while time.monotonic() < deadline and not served(done()):
            time.sleep(0.05)
        thinkings = done()
        ours = {thread for pool in manager.thinkers._threads.values() for thread in pool._threads}
    assert served(thinkings), f"every table's bots got their turns (thinkings, over): {thinkings}"
    # one pool thread did every thinking of the four tables, so none ever ran beside another
    threads = {thread.name for thread in ran_in & ours}
    assert len(threads) == 1 and next(iter(threads)).startswith("knockabout-bot-random"), threads


def test_a_quick_bot_never_waits_behind_a_long_search(make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    import time

    from knockabout.table.thinking import Thought

    real = Thought.run
    searching = threading.Event()
    release = threading.Event()

    def run(self: Thought) -> None:
        if threading.current_thread().name.startswith("knockabout-bot-hard"):
            searching.set()
            release.wait(30)  # a long search holds the hard bots' only thread until the test ends
        real(self)

    monkeypatch.setattr(Thought, "run", run)
    monkeypatch.setattr("knockabout.table.thinking.MAX_FLOOR", 0.0)  # (floors: see the test above)
    with make_client(bot_threads=1) as c:  # (with one pool for every level: stuck behind the search)
        try:
            c.post("/api/tables", json={"game": "nak-muay", "seats": ["hard", "hard"]})
            assert searching.wait(10), "the search has begun"
            quick = c.post("/api/tables", json={"game": "nak-muay", "seats": ["random", "random"],
                                                "config": {"max_turns": 2000}}).json()
            table = c.app.state.manager.get(quick["id"]).table
            until = time.monotonic() + 10  # (a loaded machine is slow; the search holds its thread all along)
            # (a random two-player game may end within three moves: a KO card drawn at once)
            while table.version <= 3 and not table.over and time.monotonic() < until:
                time.sleep(0.02)
            assert (table.version > 3 or table.over) and table.version >= 1 and not release.is_set()
        finally:
            release.set()


def test_a_create_refused_as_invalid_does_not_count_against_the_address(make_client: Any) -> None:
    invalid = [{"game": "no-such-game", "seats": ["me", "open"]},
               {"game": "nak-muay", "seats": ["me", "wizard"]},
               {"game": "nak-muay", "seats": ["me", "open"], "config": {"no_such_option": 1}},
               {"game": "nak-muay", "seats": ["me", "me"]},
               {"game": "nak-muay", "seats": ["me", "open"], "seed": 5}]
    with make_client(create_rate="2/minute") as c:
        for _ in range(3):
            for body in invalid:
                r = c.post("/api/tables", json=body)
                assert r.status_code == 400, (body, r.status_code, r.json())
        assert c.post("/api/tables", json=WAITING).status_code == 200
        assert c.post("/api/tables", json=WAITING).status_code == 200, "the 15 invalid ones counted for nothing"
        assert c.post("/api/tables", json=WAITING).status_code == 429


def from_addresses(app: ASGIApp) -> ASGIApp:
    """``app`` as reached from the address each request names in its ``x-address`` header
    (the TestClient's own is always ``testclient``)."""

    async def asgi(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            named = dict(scope["headers"]).get(b"x-address")
            if named is not None:
                scope = dict(scope, client=(named.decode(), 50000))
        await app(scope, receive, send)

    return asgi


def test_new_tables_on_the_whole_server_are_limited_whatever_the_address(tmp_path: Path) -> None:
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'k.db'}", create_rate="2/minute",
                                    server_create_rate="5/minute"))
    with TestClient(from_addresses(app)) as c:
        made = [c.post("/api/tables", json=WAITING, headers={"x-address": f"10.0.0.{n}"}).status_code
                for n in range(8)]  # eight addresses, each well within its own rate
        assert made == [200] * 5 + [429] * 3
        r = c.post("/api/tables", json=WAITING, headers={"x-address": "10.0.0.99"})
        assert r.status_code == 429
        assert r.json() == {"error": "too many new tables on this server just now: at most 5 per minute from "
                                     "everyone together; try again later"}
        assert len(app.state.manager.tables) == 5, "nothing more was made"
        # and an address's own rate still holds within the server's
        assert c.post("/api/tables", json=WAITING, headers={"x-address": "10.0.0.0"}).status_code == 429


def test_live_tables_are_capped_whoever_made_them(make_client: Any) -> None:
    with make_client(create_rate="off", max_tables=3) as c:
        for _ in range(3):
            assert c.post("/api/tables", json=WAITING).status_code == 200
        r = c.post("/api/tables", json=WAITING)
        assert r.status_code == 429
        assert r.json() == {"error": "this server already runs 3 tables (at most 3); try again when some have finished"}
        bots = {"game": "nak-muay", "seats": ["random", "random"]}
        assert c.post("/api/tables", json=bots).status_code == 429, "bot tables count too"
        assert len(c.app.state.manager.tables) == 3


def test_a_finished_table_leaves_room_under_the_cap(make_client: Any) -> None:
    import time

    with make_client(create_rate="off", max_tables=1) as c:  # (bots at full speed)
        quick = c.post("/api/tables", json={"game": "nak-muay", "seats": ["random", "random"],
                                            "config": {"max_turns": 2}}).json()
        table = c.app.state.manager.get(quick["id"]).table
        deadline = time.monotonic() + 30
        while not table.over:
            assert time.monotonic() < deadline, "the bots' game ended"
            time.sleep(0.02)
        assert c.post("/api/tables", json=WAITING).status_code == 200, "a finished table is not counted"
        assert c.post("/api/tables", json=WAITING).status_code == 429
