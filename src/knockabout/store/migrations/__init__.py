"""The store's schema migrations (Alembic), shipped inside the package: no ``alembic.ini``
is read, so a server finds them wherever it runs.

:func:`upgrade` brings a database to the newest schema; :class:`~knockabout.store.Store`
calls it each time it opens one. A database made before the migrations existed (release
0.1.0, whose store made its tables with ``create_all``) is brought up by the first
migration, which makes only what is missing, so its rows are kept as they are.

A new migration is a file in ``versions/`` (``down_revision`` naming the one before it;
the schema it makes must match :mod:`knockabout.store.schema`, which
``tests/store/test_migrations.py`` checks on SQLite and PostgreSQL).

Only one server upgrades a database at a time: the upgrade runs in one transaction that
first takes the database's write lock (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: a
transaction-level advisory lock), so a second server opening the database meanwhile waits,
then finds it upgraded.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

HERE = Path(__file__).resolve().parent
LOCK_KEY = 0x6B6E6F636B  # the PostgreSQL advisory lock the upgrade holds ("knock")
SQLITE_WAIT_MS = 5000  # how long a SQLite connection waits for another's write lock (the store's pragma)
UPGRADE_WAIT_MS = 120_000  # how long an upgrade waits for another server's upgrade of the same file


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for these migrations (on ``connection``, when given)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest migration's revision."""
    revision = ScriptDirectory.from_config(config()).get_current_head()
    assert revision is not None
    return revision


def current(engine: Engine) -> str | None:
    """The revision ``engine``'s database is at (None: no migration has run on it)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run the migrations ``engine``'s database has not had, up to ``revision``, in one
    transaction under the database's write lock. A database already at ``head`` is only
    read (no write lock: a command opening a server's database never waits for its writes)."""
    if revision == "head" and current(engine) == head():
        return
    with engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            # Another server may be upgrading this database: wait for its whole upgrade (the
            # connection's usual 5 s wait can run out on a busy machine), then go back.
            conn.exec_driver_sql(f"PRAGMA busy_timeout = {UPGRADE_WAIT_MS}")
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        elif conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        command.upgrade(config(conn), revision)
        conn.commit()
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql(f"PRAGMA busy_timeout = {SQLITE_WAIT_MS}")
