"""The store works the same on PostgreSQL as on SQLite: tables and logs round-trip, the
log is append-only, and a table (or a whole server) resumes from it.

PostgreSQL comes from ``scripts/ensure-postgres.sh`` (``make test`` runs it through
``make db-deps``); ``KNOCKABOUT_TEST_POSTGRES_URL`` points at another server. When no
server answers these tests fail, unless ``KNOCKABOUT_SKIP_POSTGRES=1`` says to skip them.
Each test gets a schema of its own, dropped afterwards, so test runs can share the server.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError

from knockabout.server import ServerSettings, create_app
from knockabout.store import Store, StoredTable
from knockabout.store.store import StoreError
from knockabout.table import Seat, Table
from tests.server.conftest import plays_on_where_it_was, receive_until, three_turns_played

pytestmark = pytest.mark.timeout(120)

SEATS = [
    {"kind": "person", "name": "Ann Ünal", "level": None, "token": "a" * 64},
    {"kind": "bot", "name": "Bot", "level": "random", "token": None},
]


def stored(table_id: str, seed: int = 9, status: str = "playing") -> StoredTable:
    return StoredTable(id=table_id, game="nak-muay", rules_version="1.0", config={"players": 2, "variant": "x"},
                       seed=seed, seats=SEATS, status=status)


def test_tables_and_logs_round_trip(db_url: str) -> None:
    store = Store(db_url)
    store.create(stored("t1", seed=2**63 - 1))  # the largest seed the server accepts
    store.create(stored("t2", seed=3))
    long_action = "declare " + ", ".join(f"card {i}" for i in range(40))  # longer than any fixed column
    for step, action in enumerate(["draw", "take", long_action]):
        store.append_action("t1", step, step % 2, action, "person")
    store.update_seats("t2", [dict(SEATS[0]), {**SEATS[1], "name": "Cy"}], "playing")
    store.finish("t2", {"winners": [1], "payoffs": [0.0, 1.0], "draw": False, "reason": "knockout"})
    store.close()

    again = Store(db_url)
    got = again.get("t1")
    assert got is not None
    assert got.actions == ["draw", "take", long_action]
    assert got.seed == 2**63 - 1 and got.seats == SEATS and got.config == {"players": 2, "variant": "x"}
    assert [t.id for t in again.unfinished()] == ["t1"]
    assert [t.id for t in again.recent()] == ["t2", "t1"], "newest first"
    done = again.get("t2")
    assert done is not None and done.status == "finished" and done.finished_at is not None
    assert done.result == {"winners": [1], "payoffs": [0.0, 1.0], "draw": False, "reason": "knockout"}
    assert done.seats[1]["name"] == "Cy"
    assert again.get("nope") is None
    again.close()


def test_the_action_log_is_append_only(db_url: str) -> None:
    store = Store(db_url)
    store.create(stored("t1"))
    store.append_action("t1", 0, 0, "draw", "person")
    store.append_action("t1", 1, 1, "take", "bot")
    with pytest.raises(IntegrityError):
        store.append_action("t1", 1, 0, "rewrite history", "person")  # a step is written once
    with pytest.raises(IntegrityError):
        store.append_action("no-such-table", 0, 0, "draw", "person")  # a log belongs to a stored table
    store.append_action("t1", 2, 0, "block", "timeout")  # the store still works after a refusal
    got = store.get("t1")
    assert got is not None and got.actions == ["draw", "take", "block"]
    store.close()


def test_a_table_rebuilt_from_its_stored_log_is_the_same_table(db_url: str) -> None:
    seats = [Seat("person", "Ann"), Seat("person", "Bo"), Seat("person", "Cy")]
    table = Table("nak-muay", seats, {"players": 3}, 11)
    store = Store(db_url)
    store.create(StoredTable(id="t", game="nak-muay", rules_version=table.game.rules_version,
                             config=table.record.config, seed=table.seed, seats=[]))
    for _ in range(12):
        d = table.decision()
        assert d is not None, "the game should still run after a dozen steps"
        entry = table.act(d.player, table.updates_for(d.player).legal[-1], table.version)
        store.append_action("t", entry.step, entry.seat, entry.action, entry.by)
    store.close()

    st = Store(db_url).get("t")
    assert st is not None
    again = Table(st.game, seats, st.config, st.seed, actions=st.actions)
    assert again.version == table.version == 12
    for seat in (None, 0, 1, 2):
        assert again.updates_for(seat) == table.updates_for(seat)


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_a_postgres_url_without_a_driver_uses_psycopg(postgres_url: str, scheme: str) -> None:
    plain = postgres_url.replace("postgresql+psycopg://", f"{scheme}://", 1)
    store = Store(plain)
    store.create(stored(f"t-{scheme}"))
    assert [t.id for t in store.unfinished()] == [f"t-{scheme}"]
    assert store.engine.dialect.driver == "psycopg"
    assert "knockabout:***@" in store.url, "the URL shown in messages hides the password"
    store.close()


def test_an_unreachable_database_fails_in_one_line_without_the_password() -> None:
    with pytest.raises(StoreError) as info:
        Store("postgresql://knockabout:hunter2@127.0.0.1:1/knockabout")
    message = str(info.value)
    assert "cannot open the database" in message and "127.0.0.1" in message
    assert "hunter2" not in message and "\n" not in message


def test_a_server_on_postgres_resumes_its_tables_after_a_restart(postgres_url: str) -> None:
    def server() -> TestClient:
        return TestClient(create_app(ServerSettings(db_url=postgres_url, bot_delay=0.0, bot_pace=0.0,
                                                    grace_seconds=60.0)))

    with server() as c:
        made, before = three_turns_played(c)
        with c.websocket_connect(f"/ws/tables/{made['id']}") as spectator:
            spectator.send_json({"type": "hello"})
            watched = receive_until(spectator, lambda m: m["type"] == "sync")

    with server() as c2:
        info = c2.get(f"/api/tables/{made['id']}").json()
        assert info["status"] == "playing" and info["version"] == before["version"]
        with c2.websocket_connect(f"/ws/tables/{made['id']}") as spectator:
            spectator.send_json({"type": "hello"})
            assert receive_until(spectator, lambda m: m["type"] == "sync")["view"] == watched["view"]
        version = plays_on_where_it_was(c2, made, before)
    store = Store(postgres_url)
    log = store.get(made["id"])
    store.close()
    assert log is not None and len(log.actions) >= version, "every step was written to PostgreSQL"


def test_secret_seeds_and_the_listed_flag_round_trip_and_old_schemas_gain_them(db_url: str) -> None:
    secret = (1 << 255) | 987654321  # a live table's 256-bit seed: beyond any SQL integer
    engine = create_engine(db_url)
    with engine.begin() as c:  # the table as the first release created it
        c.execute(text("CREATE TABLE live_tables (id VARCHAR(64) PRIMARY KEY, game VARCHAR(64), "
                       "rules_version VARCHAR(32), content_hash VARCHAR(128), config JSON, seed BIGINT, "
                       "seats JSON, status VARCHAR(16), created_at FLOAT, finished_at FLOAT, result JSON)"))
        c.execute(text("INSERT INTO live_tables VALUES ('old', 'nak-muay', '1.0', '', '{}', 5, '[]', "
                       "'playing', 1.0, NULL, NULL)"))
    engine.dispose()
    store = Store(db_url)
    store.create(StoredTable(id="big", game="nak-muay", rules_version="1.0", config={}, seed=secret,
                             seats=SEATS, listed=False))
    store.close()
    again = Store(db_url)
    big, old = again.get("big"), again.get("old")
    assert big is not None and big.seed == secret and big.listed is False
    assert old is not None and old.seed == 5 and old.listed is True
    assert [t.id for t in again.recent(listed_only=True)] == ["old"]
    assert {t.seed for t in again.recent()} == {5, secret}
    again.close()
