"""Where live tables are kept: one row per table, one append-only row per action.

SQLite in a data directory by default (``<data dir>/knockabout.db``); any SQLAlchemy
URL works instead (e.g. ``postgresql://user:password@host/db``; a PostgreSQL URL without a
driver uses psycopg 3). Column types are chosen to mean the same on SQLite and PostgreSQL
(action texts of any length; a seed below ``2**63`` in ``seed``, a larger one, such as
the 256-bit secret seeds of live tables, as decimal text in ``seed_text``, because SQL
integers stop at 64 bits). A table's whole game is ``(game, rules version, config, seed,
actions)``, so a restarted server rebuilds every unfinished table by replaying its actions.
``listed`` says whether the public lobby shows the table (see :meth:`Store.recent`).
``clock_step``/``clock_deadline``: the pending timed decision's deadline (wall-clock
seconds) at that step, so a restarted server gives it only the time actually left.
``undo``: whether the table lets people take back moves. The action log only grows, but
for an undo (:class:`UndoWrite`), which deletes the steps taken back: the log then holds
the game as it stands, and a resumed table replays to the state the undo left.

Writes are *operations* (:data:`Op`: declared records such as :class:`ActionWrite`):
a server's carry the generation of its lease on their table (``lease``), and commit only
while that lease is current (:mod:`.fence`; the leases themselves are :mod:`.leases`).
the synchronous methods run one each in its own transaction; the server hands them to
:meth:`Store.commit`, whose writer thread commits everything that queued up meanwhile in
one transaction, batched by kind into a few statements (:func:`run_ops`; see
:mod:`knockabout.store.writer`). SQLite files use write-ahead logging (WAL).

The tables are declared in :mod:`.schema`. Opening a database runs the schema migrations
it has not had (:mod:`.migrations`, Alembic): a new database gets every table, one made by
an older version is brought up to date and keeps its rows.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, assert_never, cast

from sqlalchemy import (
    Engine,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from knockabout.core.errors import KnockaboutError
from knockabout.store.accounts import AccountStore
from knockabout.store.content import ContentStore
from knockabout.store.fence import Fenced, fence_plain, fence_session, lease_lost, pairs_of
from knockabout.store.migrations import SQLITE_WAIT_MS, upgrade
from knockabout.store.ratings import RatingStore
from knockabout.store.schema import ActionRow, ChatRow, LeaseRow, TableRow
from knockabout.store.writer import Writer

if TYPE_CHECKING:
    from knockabout.store.writer_process import ProcessWriter


class StoreError(KnockaboutError):
    """The store cannot be opened or used."""


@dataclass
class StoredTable:
    """A table as stored. ``seats`` are dicts: kind, name, level, token (a hash or None)
    and, for a seat kept for an invite link, ``invite`` (the hash of its invite code).
    ``listed``: whether the public lobby shows it."""

    id: str
    game: str
    rules_version: str
    config: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    status: str = "waiting"
    content_hash: str = ""
    created_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    result: dict[str, Any] | None = None
    actions: list[str] = field(default_factory=list)
    listed: bool = True
    clock_step: int | None = None  # the step the deadline below belongs to
    clock_deadline: float | None = None  # when that step's timed decision runs out (time.time())
    move_time: float | None = None  # a turn-based table's seconds per move (None: a live table)
    undo: bool = False  # whether people may take back moves at this table


@dataclass(frozen=True, slots=True)
class CreateWrite:
    """Store a new table; with ``owner``, its lease too (generation 1, held by ``owner``)."""

    table: StoredTable
    owner: str | None = None


@dataclass(frozen=True, slots=True)
class SeatsWrite:
    """A table's seats and status now (the last one of a table in a transaction wins)."""

    table_id: str
    seats: list[dict[str, Any]]
    status: str
    lease: int | None = None  # the lease generation it was made under (see .fence); None: no fence


@dataclass(frozen=True, slots=True)
class ActionWrite:
    """One action appended to a table's log (a second write of a step is refused; only an
    :class:`UndoWrite` frees a step again)."""

    table_id: str
    step: int
    seat: int
    action: str
    by: str
    at: float
    lease: int | None = None


@dataclass(frozen=True, slots=True)
class UndoWrite:
    """Moves taken back: a table's steps from ``step`` on leave its log (a later step of
    that number is a new move)."""

    table_id: str
    step: int
    lease: int | None = None


@dataclass(frozen=True, slots=True)
class ClockWrite:
    """The deadline of the timed decision pending at ``step`` (None: nothing timed); the
    last one of a table in a transaction wins."""

    table_id: str
    step: int
    deadline: float | None
    lease: int | None = None


@dataclass(frozen=True, slots=True)
class ChatWrite:
    """A chat line said at a table (its fields as :class:`ChatRow`'s; ``n`` never repeats)."""

    table_id: str
    line: dict[str, Any]
    lease: int | None = None


@dataclass(frozen=True, slots=True)
class FinishWrite:
    """A table's game is over: its result, no clock and no lease any more."""

    table_id: str
    result: dict[str, Any]
    at: float
    lease: int | None = None


Write = CreateWrite | SeatsWrite | UndoWrite | ActionWrite | ClockWrite | FinishWrite | ChatWrite
WRITE_KINDS: tuple[type, ...] = (CreateWrite, SeatsWrite, UndoWrite, ActionWrite, ClockWrite, FinishWrite, ChatWrite)
Op = Write | Callable[[Session], None]
"""One write to the store: a declared :data:`Write`, or any function of a session (run in
its place, between the declared writes around it)."""


def create_op(t: StoredTable, owner: str | None = None) -> Op:
    return CreateWrite(t, owner)


def seats_op(table_id: str, seats: list[dict[str, Any]], status: str, lease: int | None = None) -> Op:
    return SeatsWrite(table_id, seats, status, lease)


def chat_op(table_id: str, line: dict[str, Any], lease: int | None = None) -> Op:
    return ChatWrite(table_id, dict(line), lease)


def action_op(table_id: str, step: int, seat: int, action: str, by: str, lease: int | None = None) -> Op:
    return ActionWrite(table_id, step, seat, action, by, time.time(), lease)


def undo_op(table_id: str, step: int, lease: int | None = None) -> Op:
    return UndoWrite(table_id, step, lease)


def finish_op(table_id: str, result: dict[str, Any], lease: int | None = None) -> Op:
    return FinishWrite(table_id, result, time.time(), lease)


def clock_op(table_id: str, step: int, deadline: float | None, lease: int | None = None) -> Op:
    return ClockWrite(table_id, step, deadline, lease)


def run_ops(s: Session, ops: Sequence[Op]) -> None:
    """Run ``ops`` in session ``s`` (one transaction, the caller's). Declared writes are
    batched by kind, one statement for many (all the actions of a group commit in one
    INSERT, all its clocks in one UPDATE), in an order that keeps their meaning: new
    tables (and their leases), the fence of the leases the writes were made under
    (:mod:`.fence`: raises :class:`~.fence.Fenced` if one moved on), then seats, undos, actions,
    clocks and finishes (a table's clock is never written after its finish, and a
    finished table's seats say ``finished`` too; its lease goes; the steps an undo deletes
    go before any new move of that step is written). A function op runs where it stands,
    after the writes queued before it."""
    batch: list[Write] = []
    for op in ops:
        if isinstance(op, (CreateWrite, SeatsWrite, UndoWrite, ActionWrite, ClockWrite, FinishWrite, ChatWrite)):
            batch.append(op)
        else:
            _run_writes(s, batch)
            batch = []
            op(s)
    _run_writes(s, batch)


def _run_writes(s: Session, writes: list[Write]) -> None:
    if not writes:
        return
    creates: list[CreateWrite] = []
    seats: dict[str, SeatsWrite] = {}
    undos: dict[str, int] = {}  # table -> the first step taken back
    actions: list[dict[str, Any]] = []
    clocks: dict[str, ClockWrite] = {}
    finishes: dict[str, FinishWrite] = {}
    chats: list[dict[str, Any]] = []
    for w in writes:
        match w:
            case CreateWrite():
                creates.append(w)
            case SeatsWrite():
                seats[w.table_id] = w
            case UndoWrite():
                undos[w.table_id] = min(w.step, undos.get(w.table_id, w.step))
            case ActionWrite():
                actions.append({"table_id": w.table_id, "step": w.step, "seat": w.seat, "action": w.action,
                                "by": w.by, "at": w.at, "lease": w.lease})
            case ClockWrite():
                clocks[w.table_id] = w
            case FinishWrite():
                finishes[w.table_id] = w
            case ChatWrite():
                chats.append({"table_id": w.table_id, **{k: w.line[k] for k in _CHAT_FIELDS}})
            case _:  # pragma: no cover - every write is listed above
                assert_never(w)
    for c in creates:
        s.add(_table_row(c.table))
    if creates:
        s.flush()  # a refused row fails here
        leased = [c for c in creates if c.owner is not None]
        if leased:
            s.execute(insert(_lease_table()), [{"table_id": c.table.id, "owner": c.owner, "generation": 1}
                                               for c in leased])
    fence_session(s, pairs_of(writes))
    statements = _statements()
    if seats:
        _update_rows(s, statements.seats,
                     [{"b_id": w.table_id, "b_seats": w.seats, "b_status": w.status} for w in seats.values()])
    if undos:
        s.execute(statements.undos, [{"b_id": k, "b_step": v} for k, v in undos.items()])
    if actions:
        s.execute(statements.actions, actions)
    if clocks:
        _update_rows(s, statements.clocks,
                     [{"b_id": w.table_id, "b_step": w.step, "b_deadline": w.deadline} for w in clocks.values()])
    if finishes:
        _update_rows(s, statements.finishes,
                     [{"b_id": w.table_id, "b_result": w.result, "b_at": w.at} for w in finishes.values()])
        s.execute(delete(_lease_table()).where(_lease_table().c.table_id.in_(finishes)))
    if chats:
        s.execute(insert(cast(Table, ChatRow.__table__)), chats)


def _lease_table() -> Table:
    return cast(Table, LeaseRow.__table__)


_CHAT_FIELDS = ("n", "channel", "sender", "seat", "name", "text", "step", "at", "phrase")


class PlainWrites:
    """The writer's quick way for the transactions a busy server makes nearly all the time:
    actions and clocks only, and nothing else. It runs them on the driver's own connection
    (sqlite3's or psycopg's), which costs a fraction of the CPU of the same transaction
    through a SQLAlchemy session (docs/measurements.md).

    Many rows go as *one* statement per :attr:`ROWS` rows: a multi-row ``INSERT ... VALUES
    (...), (...)`` for the actions and an ``UPDATE ... FROM (VALUES ...)`` for the clocks.
    ``executemany`` ran a statement per row, and sqlite3 lets go of the interpreter lock
    around every row's step; each time it asked for the lock back, the busy event loop
    could keep it for up to the interpreter's switch interval, so a commit of a hundred rows
    took far more wall time than CPU (docs/measurements.md).

    Anything else (a new table, seats, a finish, a function op), a driver it does not know,
    or a transaction the database refuses goes the usual way (:func:`run_ops` in a
    session): a refused one is rolled back here first, so that way raises what it always
    raised. Writes behind a lease that moved on are refused here as there
    (:class:`~.fence.Fenced`, after the rollback). The connection is kept by the writer
    thread for its life (one per store)."""

    ROWS = 100  # rows per statement (7 parameters each: far below SQLite's 32,766)

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        driver = engine.dialect.driver
        self.mark: str = {"pysqlite": "?", "psycopg": "%s", "psycopg2": "%s"}.get(driver, "")
        if driver == "pysqlite":
            import sqlite3  # UPDATE ... FROM came with SQLite 3.33

            if sqlite3.sqlite_version_info < (3, 33, 0):
                self.mark = ""
        self.usable = bool(self.mark)
        self._connection: Any = None
        self.transactions = 0  # committed this way (for tests)

    def run(self, ops: Sequence[Any]) -> bool:
        """Commit ``ops`` if they are actions and clocks only: True once durable; False
        (nothing written) when they must go the usual way."""
        if not self.usable:
            return False
        actions: list[tuple[Any, ...]] = []
        clocks: dict[str, ClockWrite] = {}  # a table's last clock in the transaction wins
        pairs: set[tuple[str, int]] = set()
        for op in ops:
            kind = type(op)
            if kind is ActionWrite:
                actions.append((op.table_id, op.step, op.seat, op.action, op.by, op.at, op.lease))
            elif kind is ClockWrite:
                clocks[op.table_id] = op
            else:
                return False
            if op.lease is not None:
                pairs.add((op.table_id, op.lease))
        if self._connection is None:
            self._connection = self.engine.raw_connection()
        conn = self._connection
        n = self.ROWS
        try:
            cursor = conn.cursor()
            try:
                try:
                    fence_plain(cursor, self.mark, pairs, self.engine.dialect.name == "postgresql")
                except Fenced:
                    conn.rollback()
                    raise
                for i in range(0, len(actions), n):
                    chunk = actions[i:i + n]
                    cursor.execute(_plain_insert(self.mark, len(chunk)), [v for row in chunk for v in row])
                rows = [(c.table_id, c.step, c.deadline) for c in clocks.values()]
                for i in range(0, len(rows), n):
                    chunk = rows[i:i + n]
                    cursor.execute(_plain_update(self.mark, len(chunk)), [v for row in chunk for v in row])
                    if cursor.rowcount != len(chunk):  # a clock of a table never stored: refused
                        conn.rollback()
                        return False
            finally:
                cursor.close()
            conn.commit()
        except Fenced:
            raise
        except Exception:
            self._drop()
            return False
        self.transactions += 1
        return True

    def _drop(self) -> None:
        """Let the connection go after a failure (it may be broken: the pool makes a new one)."""
        conn, self._connection = self._connection, None
        with contextlib.suppress(Exception):
            conn.rollback()
        with contextlib.suppress(Exception):
            conn.invalidate()

    def close(self) -> None:
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()
            self._connection = None


@functools.cache
def _plain_insert(mark: str, rows: int) -> str:
    """The INSERT of ``rows`` actions, with the driver's parameter mark."""
    one = "(" + ", ".join([mark] * 7) + ")"
    return f'INSERT INTO live_actions (table_id, step, seat, action, "by", at, lease) VALUES {", ".join([one] * rows)}'


@functools.cache
def _plain_update(mark: str, rows: int) -> str:
    """The UPDATE of ``rows`` tables' clocks. The first row's values are cast, so that
    PostgreSQL knows the list's column types even when every deadline is NULL."""
    first = f"(CAST({mark} AS VARCHAR(64)), CAST({mark} AS INTEGER), CAST({mark} AS DOUBLE PRECISION))"
    values = ", ".join([first] + [f"({mark}, {mark}, {mark})"] * (rows - 1))
    return ("UPDATE live_tables SET clock_step = v.column2, clock_deadline = v.column3 "
            f"FROM (VALUES {values}) AS v WHERE live_tables.id = v.column1")


@dataclass(frozen=True)
class _Statements:
    """The batched writes' statements, built once: building one (its clauses and its
    cache key, which SQLAlchemy memoizes per statement object) cost about as much Python
    as the rest of a small group commit."""

    seats: Any
    undos: Any
    actions: Any
    clocks: Any
    finishes: Any


@functools.cache
def _statements() -> _Statements:
    tables = cast(Table, TableRow.__table__)
    logs = cast(Table, ActionRow.__table__)
    by_id = tables.c.id == bindparam("b_id")
    return _Statements(
        seats=update(tables).where(by_id).values(seats=bindparam("b_seats"), status=bindparam("b_status")),
        undos=delete(logs).where(logs.c.table_id == bindparam("b_id"), logs.c.step >= bindparam("b_step")),
        actions=insert(cast(Table, ActionRow.__table__)),
        clocks=update(tables).where(by_id).values(clock_step=bindparam("b_step"),
                                                  clock_deadline=bindparam("b_deadline")),
        finishes=update(tables).where(by_id).values(
            status="finished", result=bindparam("b_result"), finished_at=bindparam("b_at"),
            clock_step=None, clock_deadline=None),
    )


def _update_rows(s: Session, stmt: Any, rows: list[dict[str, Any]]) -> None:
    """One UPDATE for many rows; a row that names no stored table is refused (where the
    driver counts the rows of a batch; PostgreSQL's and SQLite's do)."""
    result: Any = s.execute(stmt, rows)
    dialect = s.get_bind().dialect
    counts = dialect.supports_sane_multi_rowcount if len(rows) > 1 else dialect.supports_sane_rowcount
    if counts and result.rowcount != len(rows):
        missing = ", ".join(repr(r["b_id"]) for r in rows)
        raise StoreError(f"no stored table among {missing}" if len(rows) > 1 else f"no stored table {missing}")


def _table_row(t: StoredTable) -> TableRow:
    seed, seed_text = _seed_columns(t.seed)
    return TableRow(
        id=t.id, game=t.game, rules_version=t.rules_version, content_hash=t.content_hash, config=t.config,
        seed=seed, seed_text=seed_text, listed=t.listed, seats=t.seats, status=t.status,
        created_at=t.created_at, finished_at=t.finished_at, result=t.result,
        clock_step=t.clock_step, clock_deadline=t.clock_deadline, move_time=t.move_time, undo=t.undo,
    )


_BIG_SEED = 1 << 63


def _seed_columns(seed: int) -> tuple[int, str | None]:
    """(``seed``, ``seed_text``) for a seed: SQL integers hold 64 bits, larger seeds go as text."""
    if 0 <= seed < _BIG_SEED:
        return seed, None
    return 0, str(seed)


def _seed_of(row: TableRow) -> int:
    return int(row.seed_text) if row.seed_text else row.seed


def database_url(url: str) -> URL:
    """A SQLAlchemy URL from text; ``postgres://`` and ``postgresql://`` (no driver named)
    mean psycopg 3, the driver knockabout installs."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StoreError(f"{url!r} is not a database URL (e.g. sqlite:///path/knockabout.db or "
                         "postgresql://user:password@host/db)") from None
    if parsed.drivername in ("postgres", "postgresql"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def default_data_dir() -> Path:
    """``$KNOCKABOUT_DATA``, else ``$XDG_DATA_HOME/knockabout``, else ``~/.local/share/knockabout``."""
    env = os.environ.get("KNOCKABOUT_DATA")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "knockabout"


def end_idle_transactions(url: URL, seconds: float) -> URL:
    """``url`` with PostgreSQL told to end a session idle inside a transaction for
    ``seconds`` (its locks go with it; see :class:`Store`), added to the connection
    ``options`` the URL may set already (unless they set this one); other databases
    unchanged."""
    if url.get_backend_name() != "postgresql":
        return url
    own = url.query.get("options", "")
    own = " ".join(own) if isinstance(own, tuple) else own
    if "idle_in_transaction_session_timeout" in own:
        return url
    ms = max(1, round(seconds * 1000))
    options = f"{own} -c idle_in_transaction_session_timeout={ms}".strip()
    return url.update_query_dict({"options": options})


def open_engine(url: URL) -> Engine:
    """The engine for ``url``: SQLite with its pragmas on every connection (see
    :func:`_sqlite_pragmas`); other databases test a pooled connection before using it (a
    database may restart under a long-running server). A SQLite database in memory lives in
    one connection, so every thread (the writer's too) shares that one connection."""
    if url.get_backend_name() == "sqlite":
        pool = {"poolclass": StaticPool} if in_memory(url) else {}
        engine = create_engine(url, connect_args={"check_same_thread": False}, **pool)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def in_memory(url: URL) -> bool:
    """Whether ``url`` is a SQLite database in memory (which only its own process sees)."""
    return url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")


WRITERS = ("process", "thread")
"""Where :meth:`Store.commit` commits: a writer process of the store's own
(:mod:`.writer_process`), or a thread of this process (:mod:`.writer`)."""


class Store:
    """Tables and their action logs in a SQL database.

    ``writer``: where :meth:`commit` commits (:data:`WRITERS`). ``"process"`` takes the
    commits and their wait for the interpreter lock out of a busy server's process; it
    commits declared writes only, and falls back to the thread for a SQLite database in
    memory or an event loop that cannot watch a pipe. ``"thread"`` also runs function ops.

    ``idle_transaction_seconds`` (PostgreSQL): how long the database keeps a session of
    this store that sits idle inside a transaction before it ends it. A server stopped or
    cut off from the network in the middle of a write holds its fence's lease rows locked
    (:mod:`.fence`); without this, another host could not take those tables until the
    database noticed the lost connection, which may take hours. A server gives its lease
    time, so that its tables can be taken as soon as its leases run out.
    """

    def __init__(self, url: str | None = None, data_dir: Path | None = None, *, writer: str = "thread",
                 idle_transaction_seconds: float | None = None) -> None:
        if writer not in WRITERS:
            raise StoreError(f"no store writer {writer!r} (choose one of: {', '.join(WRITERS)})")
        self.writer_kind = writer
        if url is None:
            folder = data_dir or default_data_dir()
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the data directory {folder}: {exc.strerror}") from None
            url = f"sqlite:///{folder / 'knockabout.db'}"
        parsed = database_url(url)
        self.url = parsed.render_as_string(hide_password=True)  # for messages: never shows a password
        if idle_transaction_seconds is not None:
            parsed = end_idle_transactions(parsed, idle_transaction_seconds)
        try:
            self.engine = open_engine(parsed)
            upgrade(self.engine)  # the schema's migrations this database has not had yet
        except Exception as exc:  # any driver error becomes one clear line
            raise StoreError(f"cannot open the database {self.url!r}: {_one_line(exc)}") from None

        self._parsed = parsed
        self._writer: Writer | ProcessWriter | None = None
        self.ratings = RatingStore(self.engine)  # each player's rating at each game (see .ratings)
        self.content = ContentStore(self.engine)  # uploaded content versions (see .content)
        self.accounts = AccountStore(self.engine)  # accounts, their seats and sessions (see .accounts)

    def close(self) -> None:
        self.close_writer()
        self.engine.dispose()

    def close_writer(self) -> None:
        """Commit what is queued and stop the writer (the store still reads and runs)."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def run(self, *ops: Op) -> None:
        """Run ``ops`` in one transaction, now, on this thread (:class:`~.fence.LeaseLost`,
        writing nothing, if one was made under a lease that moved on)."""
        try:
            with Session(self.engine) as s, s.begin():
                run_ops(s, ops)
        except Fenced as fenced:
            table_id, generation = min(fenced.pairs)
            raise lease_lost(table_id, generation) from None

    async def commit(self, *ops: Op) -> None:
        """Run ``ops`` in one transaction on the writer (grouped with whatever else is
        queued); returns once they are durable, raises what they raised."""
        await self.open_writer().write(list(ops))

    def open_writer(self) -> Writer | ProcessWriter:
        """The writer :meth:`commit` uses, started now if it is not running (a server starts
        it as it starts, so that its first write does not wait for a process to start)."""
        from knockabout.store.writer_process import ProcessWriter  # (it imports this module)

        writer = self._writer
        if writer is not None and not (isinstance(writer, ProcessWriter) and writer.broken):
            return writer
        if writer is not None:  # a writer process that died: a new one takes over
            writer.close()
        if self.writer_kind == "process" and not in_memory(self._parsed) and ProcessWriter.usable():
            self._writer = ProcessWriter(self._parsed, WRITE_KINDS)
        else:
            self._writer = Writer(self.engine, run_ops, PlainWrites(self.engine))
        return self._writer

    @property
    def writer(self) -> Writer | ProcessWriter | None:
        """The writer, once :meth:`commit` has started it."""
        return self._writer

    # -- writes (each its own transaction)
    def create(self, t: StoredTable) -> None:
        self.run(create_op(t))

    def update_seats(self, table_id: str, seats: list[dict[str, Any]], status: str) -> None:
        self.run(seats_op(table_id, seats, status))

    def append_action(self, table_id: str, step: int, seat: int, action: str, by: str) -> None:
        """Add one action to a table's log (a step, once written, changes only by an undo)."""
        self.run(action_op(table_id, step, seat, action, by))

    def undo(self, table_id: str, step: int) -> None:
        """Take a table's steps from ``step`` on out of its log (moves taken back)."""
        self.run(undo_op(table_id, step))

    def finish(self, table_id: str, result: dict[str, Any]) -> None:
        self.run(finish_op(table_id, result))

    # -- reads
    def _load(self, s: Session, row: TableRow) -> StoredTable:
        actions = s.scalars(
            select(ActionRow.action).where(ActionRow.table_id == row.id).order_by(ActionRow.step)
        ).all()
        return StoredTable(
            id=row.id,
            game=row.game,
            rules_version=row.rules_version,
            config=dict(row.config),
            seed=_seed_of(row),
            seats=[dict(x) for x in row.seats],
            status=row.status,
            content_hash=row.content_hash,
            created_at=row.created_at,
            finished_at=row.finished_at,
            result=row.result,
            actions=list(actions),
            listed=row.listed,
            clock_step=row.clock_step,
            clock_deadline=row.clock_deadline,
            move_time=row.move_time,
            undo=row.undo,
        )

    def get(self, table_id: str) -> StoredTable | None:
        with Session(self.engine) as s:
            row = s.get(TableRow, table_id)
            return None if row is None else self._load(s, row)

    def chat(self, table_id: str, channel: str | None = None) -> list[dict[str, Any]]:
        """A table's chat lines in order (``channel``: only that channel's)."""
        query = select(ChatRow).where(ChatRow.table_id == table_id)
        if channel is not None:
            query = query.where(ChatRow.channel == channel)
        with Session(self.engine) as s:
            return [{k: getattr(r, k) for k in _CHAT_FIELDS} for r in s.scalars(query.order_by(ChatRow.n))]

    def unfinished(self) -> list[StoredTable]:
        """Every table still waiting or playing, oldest first."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(TableRow).where(TableRow.status != "finished").order_by(TableRow.created_at)
            ).all()
            return [self._load(s, r) for r in rows]

    def recent(self, limit: int = 50, *, listed_only: bool = False) -> list[StoredTable]:
        """The latest tables (without their action logs), newest first; ``listed_only``:
        only those their creators chose to show in the lobby."""
        query = select(TableRow)
        if listed_only:
            query = query.where(TableRow.listed.is_(True))
        with Session(self.engine) as s:
            rows = s.scalars(query.order_by(TableRow.created_at.desc()).limit(limit)).all()
            return [
                StoredTable(
                    id=r.id, game=r.game, rules_version=r.rules_version, config=dict(r.config), seed=_seed_of(r),
                    seats=[dict(x) for x in r.seats], status=r.status, content_hash=r.content_hash,
                    created_at=r.created_at, finished_at=r.finished_at, result=r.result, listed=r.listed,
                    move_time=r.move_time, undo=r.undo,
                )
                for r in rows
            ]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """SQLite checks foreign keys only when asked, per connection (an action for a table
    that was never stored is refused on both databases, as PostgreSQL always does); WAL
    lets readers go on while the writer commits, and a commit costs one sync, not two."""
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {SQLITE_WAIT_MS}")  # first: switching to WAL may wait too
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.close()


def _one_line(exc: Exception) -> str:
    """The driver's own message on one line, without SQLAlchemy's background links."""
    orig = getattr(exc, "orig", None)
    text = " ".join(part.strip() for part in str(orig if orig is not None else exc).splitlines() if part.strip())
    return text or type(exc).__name__
