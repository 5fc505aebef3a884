"""The store's schema moves by Alembic migrations, run whenever a server opens a database.

A database made by release 0.1.0 (before migrations: its store made the tables with
``create_all``) upgrades without losing a row, on SQLite and PostgreSQL: its finished games
replay to the results it stored, its live tables resume where they were. The fixture
``fixtures/release-0.1.0.json`` holds that release's schema (its DDL for both databases)
and every row a server of that release wrote while playing tables of every game (see
``fixtures/make_release_0_1.py``).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import MetaData, create_engine, insert, inspect, select

from knockabout.core.replay import GameRecord, replay
from knockabout.server import ServerSettings, create_app
from knockabout.store import Store, migrations
from knockabout.store.schema import Base

pytestmark = pytest.mark.timeout(300)

RELEASE = json.loads((Path(__file__).parent / "fixtures" / "release-0.1.0.json").read_text())
TABLES = ("live_tables", "live_actions")
ADDED_DEFAULTS = {"undo": False}  # what a column added since release 0.1.0 holds in its rows (else None)


def differences(url: str) -> list[Any]:
    """What the database at ``url`` lacks or has beyond the declared schema."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), Base.metadata))
    finally:
        engine.dispose()


def make_release_database(url: str) -> None:
    """A database as release 0.1.0 left it: its own DDL, then its rows."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            for ddl in RELEASE["schema"][engine.dialect.name]:
                conn.exec_driver_sql(ddl)
            meta = MetaData()
            meta.reflect(conn, only=TABLES)
            for name in TABLES:
                conn.execute(insert(meta.tables[name]), RELEASE[name])
    finally:
        engine.dispose()


def rows(url: str, names: tuple[str, ...] = TABLES) -> dict[str, list[dict[str, Any]]]:
    """Every row of the tables ``names``, in primary-key order."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            meta = MetaData()
            meta.reflect(conn, only=names)
            return {name: [dict(r._mapping) for r in conn.execute(
                select(meta.tables[name]).order_by(*meta.tables[name].primary_key.columns))] for name in names}
    finally:
        engine.dispose()


def test_the_fixture_holds_live_and_finished_tables_of_every_game() -> None:
    tables = RELEASE["live_tables"]
    assert {t["game"] for t in tables if t["status"] == "finished"} == {"nak-muay", "knockdown", "knockback"}
    assert {t["game"] for t in tables if t["status"] == "playing"} == {"nak-muay", "knockdown", "knockback"}
    assert any(t["status"] == "waiting" for t in tables) and any(not t["listed"] for t in tables)
    assert any(t["seed_text"] for t in tables), "a live table's 256-bit seed, stored as text"
    assert any(t["clock_deadline"] is not None for t in tables), "a timed decision pending"
    assert len(RELEASE["live_actions"]) > 100


def test_a_new_database_gets_exactly_the_declared_schema(db_url: str) -> None:
    store = Store(db_url, writer="thread")
    assert migrations.current(store.engine) == migrations.head()
    store.close()
    assert differences(db_url) == []


def test_a_release_0_1_database_upgrades_and_keeps_every_row(db_url: str) -> None:
    make_release_database(db_url)
    before = rows(db_url)
    assert before["live_tables"] == RELEASE["live_tables"], "the fixture went in as it is"
    store = Store(db_url, writer="thread")  # opening it upgrades it
    assert migrations.current(store.engine) == migrations.head()
    store.close()
    after = rows(db_url)
    assert as_before(after, before) == before, "nothing lost or changed"
    assert differences(db_url) == [], "and the schema is the declared one"
    Store(db_url, writer="thread").close()  # opening it again changes nothing
    assert rows(db_url) == after


def as_before(after: dict[str, list[dict[str, Any]]],
              before: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """``after``'s rows with only the columns ``before`` had; a column added since is empty
    in every old row (a live table's ``move_time``: it is no turn-based table), or holds
    its default (``undo``: false, no old table let people take back moves)."""
    out = {}
    for name, kept in after.items():
        old = set(before[name][0]) if before[name] else set()
        for row in kept:
            assert all(v == ADDED_DEFAULTS.get(k) for k, v in row.items() if k not in old), (name, row)
        out[name] = [{k: v for k, v in row.items() if k in old} for row in kept]
    return out


def test_every_finished_game_of_the_release_still_replays(db_url: str) -> None:
    make_release_database(db_url)
    store = Store(db_url, writer="thread")
    finished = [t["id"] for t in RELEASE["live_tables"] if t["status"] == "finished"]
    assert len(finished) >= 6
    for table_id in finished:
        st = store.get(table_id)
        assert st is not None and st.result
        state = replay(GameRecord(game=st.game, rules_version=st.rules_version, config=st.config, seed=st.seed,
                                  content_hash=st.content_hash, actions=st.actions))
        outcome = state.outcome()
        assert outcome is not None and outcome.to_dict() == st.result, table_id
    store.close()
    # and through a server of this version: each replay's last step, and its record
    settings = ServerSettings(db_url=db_url, store_writer="thread", bot_delay=3600.0, bot_pace=3600.0)
    with TestClient(create_app(settings)) as c:
        for table_id in finished:
            steps = c.get(f"/api/tables/{table_id}").json()["steps"]
            last = c.get(f"/api/tables/{table_id}/replay/{steps}")
            assert last.status_code == 200, last.text
            assert last.json()["outcome"] == next(t["result"] for t in RELEASE["live_tables"] if t["id"] == table_id)
            assert c.get(f"/api/tables/{table_id}/record").json()["actions"] == store_actions(table_id)


def store_actions(table_id: str) -> list[str]:
    return [a["action"] for a in RELEASE["live_actions"] if a["table_id"] == table_id]


def test_the_release_s_live_tables_resume_where_they_were(db_url: str) -> None:
    make_release_database(db_url)
    live = [t for t in RELEASE["live_tables"] if t["status"] != "finished"]
    timed = next(t for t in live if t["clock_deadline"] is not None)
    left = 5.0  # the server comes back 5 s before the pending timed decision's stored deadline
    settings = ServerSettings(db_url=db_url, store_writer="thread", bot_delay=3600.0, bot_pace=3600.0,
                              grace_seconds=3600.0, wall_clock=lambda: timed["clock_deadline"] - left)
    with TestClient(create_app(settings)) as c:
        assert c.app.state.resumed == len(live)  # type: ignore[attr-defined]
        for t in live:
            info = c.get(f"/api/tables/{t['id']}").json()
            assert info["status"] == t["status"]
            assert info["version"] == len(store_actions(t["id"]))
            assert [s["name"] for s in info["seats"]] == [s["name"] for s in t["seats"]]
        table = c.app.state.manager.get(timed["id"]).table  # type: ignore[attr-defined]
        assert table.deadline() is not None
        assert table.deadline() - settings.clock() == pytest.approx(left, abs=1.0), "only the time that was left"


def opener(url: str, problems: list[BaseException]) -> Any:
    """A server's opening of ``url`` (a store opened and closed), its error kept in ``problems``."""
    def open_it() -> None:
        try:
            Store(url, writer="thread").close()
        except BaseException as exc:
            problems.append(exc)
    return open_it


def test_servers_opening_one_new_database_at_once_upgrade_it_once(db_url: str) -> None:
    problems: list[BaseException] = []
    open_it = opener(db_url, problems)
    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert problems == []
    engine = create_engine(db_url)
    assert set(inspect(engine).get_table_names()) >= {"alembic_version", *TABLES}
    engine.dispose()
    assert differences(db_url) == []


OLDER_LIVE_TABLES = (  # live_tables before seed_text, listed and the clock columns
    "CREATE TABLE live_tables (id VARCHAR(64) NOT NULL, game VARCHAR(64) NOT NULL, "
    "rules_version VARCHAR(32) NOT NULL, content_hash VARCHAR(128) NOT NULL, config JSON NOT NULL, "
    "seed BIGINT NOT NULL, seats JSON NOT NULL, status VARCHAR(16) NOT NULL, created_at FLOAT NOT NULL, "
    "finished_at FLOAT, result JSON, PRIMARY KEY (id))"
)


def test_an_older_database_gains_the_columns_added_before_migrations(db_url: str) -> None:
    """A database from before ``seed_text``, ``listed`` and the clock columns (which the
    release's store added on opening it) gets them from the first migration."""
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.exec_driver_sql(OLDER_LIVE_TABLES)
        for ddl in RELEASE["schema"][engine.dialect.name][1:]:  # live_actions and the index as they were
            conn.exec_driver_sql(ddl)
        conn.exec_driver_sql("INSERT INTO live_tables (id, game, rules_version, content_hash, config, seed, seats, "
                             "status, created_at) VALUES ('old', 'nak-muay', '1.0', '', '{}', 7, '[]', 'waiting', 1.0)")
    engine.dispose()
    store = Store(db_url, writer="thread")
    st = store.get("old")
    assert st is not None and st.listed and st.seed == 7 and st.clock_deadline is None
    store.close()
    assert differences(db_url) == []


# -- the accounts' migration, on a database of the release before it
def revision_before_accounts() -> str:
    """The revision the accounts' migration follows (the previous release's head)."""
    script = ScriptDirectory.from_config(migrations.config())
    (accounts,) = [r for r in script.walk_revisions() if Path(r.path).name.endswith("_accounts.py")]
    assert isinstance(accounts.down_revision, str)
    return accounts.down_revision


LATER = ("chat_lines", "ratings", "rating_changes")  # the tables of the migrations after release 0.1.0


def test_a_database_from_before_accounts_upgrades_keeping_its_tables_chat_and_ratings(db_url: str) -> None:
    """A database of the release before accounts (live and finished tables, chat, ratings)
    gains the accounts' tables and loses nothing; its finished games replay, and an
    account can claim a seat of one of its tables."""
    make_release_database(db_url)
    engine = create_engine(db_url)
    migrations.upgrade(engine, revision_before_accounts())
    assert migrations.current(engine) == revision_before_accounts()
    assert "accounts" not in inspect(engine).get_table_names()
    finished = next(t for t in RELEASE["live_tables"] if t["status"] == "finished")
    playing = next(t for t in RELEASE["live_tables"] if t["status"] == "playing")
    with engine.begin() as conn:
        meta = MetaData()
        meta.reflect(conn, only=LATER)
        conn.execute(insert(meta.tables["chat_lines"]), [
            {"table_id": finished["id"], "n": 0, "channel": "players", "sender": "seat:0", "seat": 0,
             "name": "<b>Ann</b>", "text": "good game <script>x</script>", "step": 3, "at": 10.0, "phrase": None},
            {"table_id": playing["id"], "n": 0, "channel": "spectators", "sender": "watcher", "seat": None,
             "name": "Kim", "text": "Well played", "step": 1, "at": 11.0, "phrase": "well-played"}])
        conn.execute(insert(meta.tables["ratings"]), [
            {"game": finished["game"], "player": "bot:easy", "mu": 23.1, "sigma": 7.9, "games": 1, "wins": 0,
             "draws": 0, "updated_at": 12.0}])
        conn.execute(insert(meta.tables["rating_changes"]), [
            {"table_id": finished["id"], "seat": 1, "player": "bot:easy", "game": finished["game"],
             "mu_before": 24.0, "mu_after": 23.1, "sigma_after": 7.9, "at": 12.0}])
    engine.dispose()
    before = {**rows(db_url), **rows(db_url, LATER)}
    store = Store(db_url, writer="thread")  # opening it upgrades it
    assert migrations.current(store.engine) == migrations.head()
    st = store.get(finished["id"])
    assert st is not None
    state = replay(GameRecord(game=st.game, rules_version=st.rules_version, config=st.config, seed=st.seed,
                              content_hash=st.content_hash, actions=st.actions))
    assert state.outcome() is not None and state.outcome().to_dict() == st.result  # type: ignore[union-attr]
    ann = store.accounts.create("ann", "(a hash)")
    assert store.accounts.link_seat(playing["id"], 0, ann.id)
    assert {seat: a.name for seat, a in store.accounts.accounts_at(playing["id"]).items()} == {0: "ann"}
    assert store.ratings.changes(finished["id"])[0]["player"] == "bot:easy"
    store.close()
    assert {**rows(db_url), **rows(db_url, LATER)} == before, "nothing lost or changed"
    assert differences(db_url) == [], "and the schema is the declared one"


def test_a_server_waits_for_another_servers_slow_upgrade_of_the_same_sqlite_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An upgrade that takes longer than a connection's usual wait for a lock (a busy
    machine) still makes a second server opening the file wait for it, not fail."""
    url = f"sqlite:///{tmp_path / 'slow.db'}"
    real = migrations.command.upgrade
    started = threading.Event()

    def slow(cfg: Any, revision: str) -> None:
        started.set()
        time.sleep(migrations.SQLITE_WAIT_MS / 1000 + 1.5)
        real(cfg, revision)

    monkeypatch.setattr(migrations.command, "upgrade", slow)
    problems: list[BaseException] = []
    open_it = opener(url, problems)
    first = threading.Thread(target=open_it)
    first.start()
    assert started.wait(30)
    monkeypatch.setattr(migrations.command, "upgrade", real)  # the second finds it upgraded
    open_it()
    first.join(60)
    assert problems == []
    assert migrations.current(create_engine(url)) == migrations.head()
