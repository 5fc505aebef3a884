"""The fence on every write: a write made under a table's lease commits only while that
lease is current.

A host that holds a table writes with the *generation* of its lease on the table
(:mod:`.leases`): every declared write carries it (``lease=``). Each transaction that
holds such writes first runs :func:`fence_session` (or, on the writer's quick path,
:func:`fence_plain`), which checks that each lease it names still has the generation the
write was made under. On PostgreSQL it reads those lease rows ``FOR UPDATE``, which locks
them until the transaction ends, so a host taking a table (which updates the row) waits
for a write already past the fence to commit, and reads the table's log after it; on
SQLite it is an ``UPDATE`` that changes nothing (its row count says how many are
current), which takes the database's write lock, with the same effect. A write behind a
generation that has moved on (another host took the table, or this host let it go) is
refused with :class:`LeaseLost` and writes nothing, so a host that was cut off, or
stopped, and comes back late cannot change a table another host now plays.

:class:`Fenced` is how a transaction says which leases failed; the group commit
(:func:`knockabout.store.writer.commit_group`) then fails the writes behind those leases
alone and commits the rest.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Table, and_, or_, select, update
from sqlalchemy.orm import Session

from knockabout.core.errors import KnockaboutError
from knockabout.store.schema import LeaseRow

Pair = tuple[str, int]
"""A table's id and the generation of its lease a write was made under."""

CHUNK = 100
"""Leases per fence statement (two parameters each)."""


class LeaseLost(KnockaboutError):
    """A write refused because its table's lease moved on: another host holds the table
    now (or this host let it go), so nothing was written."""


class Fenced(Exception):
    """Raised inside a transaction: the leases ``pairs`` are not current (the transaction
    is rolled back)."""

    def __init__(self, pairs: Iterable[Pair]) -> None:
        self.pairs = frozenset(pairs)
        shown = ", ".join(f"{t} (lease {g})" for t, g in sorted(self.pairs))
        super().__init__(f"leases moved on: {shown}")


def lease_lost(table_id: str, generation: int) -> LeaseLost:
    return LeaseLost(f"table {table_id!r} is held by another server now (its lease moved past generation "
                     f"{generation}); the write was refused and nothing changed",
                     plain="this table moved to another server; reconnecting")


def pairs_of(ops: Iterable[Any]) -> set[Pair]:
    """The (table, lease generation) pairs the declared writes ``ops`` were made under."""
    out: set[Pair] = set()
    for op in ops:
        lease = getattr(op, "lease", None)
        if lease is not None:
            out.add((op.table_id, lease))
    return out


def _leases() -> Table:
    table: Table = LeaseRow.__table__  # type: ignore[assignment]
    return table


def fence_session(s: Session, pairs: set[Pair]) -> None:
    """The fence, in session ``s``'s transaction: raises :class:`Fenced` if any of ``pairs``
    is not its table's current lease."""
    if not pairs:
        return
    leases = _leases()
    ordered = sorted(pairs)
    if s.get_bind().dialect.name == "postgresql":
        ids = sorted({t for t, _ in ordered})
        rows = s.execute(select(leases.c.table_id, leases.c.generation).where(leases.c.table_id.in_(ids))
                         .order_by(leases.c.table_id).with_for_update()).all()
        _check(ordered, {(r[0], r[1]) for r in rows})
        return
    matched = 0
    for i in range(0, len(ordered), CHUNK):
        chunk = ordered[i:i + CHUNK]
        where = or_(*(and_(leases.c.table_id == t, leases.c.generation == g) for t, g in chunk))
        result: Any = s.execute(update(leases).where(where).values(generation=leases.c.generation))
        matched += result.rowcount
    if matched != len(ordered):
        rows = s.execute(select(leases.c.table_id, leases.c.generation)
                         .where(leases.c.table_id.in_({t for t, _ in ordered}))).all()
        _check(ordered, {(r[0], r[1]) for r in rows})


def _check(pairs: list[Pair], current: set[Pair]) -> None:
    missing = set(pairs) - current
    if missing:
        raise Fenced(missing)


@functools.cache
def fence_statement(mark: str, pairs: int) -> str:
    """SQLite's fence: an ``UPDATE`` of ``pairs`` leases that changes nothing (with the
    driver's parameter mark); its row count says how many are current."""
    one = f"(table_id = {mark} AND generation = {mark})"
    return f"UPDATE table_leases SET generation = generation WHERE {' OR '.join([one] * pairs)}"


@functools.cache
def lock_statement(mark: str, tables: int) -> str:
    """PostgreSQL's fence: the leases of ``tables`` tables, locked in the order of their ids
    (as the renewal locks them: two transactions never wait for each other in a circle)."""
    return (f"SELECT table_id, generation FROM table_leases WHERE table_id IN ({', '.join([mark] * tables)}) "
            "ORDER BY table_id FOR UPDATE")


def fence_plain(cursor: Any, mark: str, pairs: set[Pair], postgresql: bool) -> None:
    """The fence on a driver's own cursor (the writer's quick path), in its transaction:
    raises :class:`Fenced` if any of ``pairs`` is not its table's current lease."""
    if not pairs:
        return
    ordered = sorted(pairs)
    ids = sorted({t for t, _ in ordered})
    if postgresql:
        cursor.execute(lock_statement(mark, len(ids)), ids)
        _check(ordered, {(r[0], r[1]) for r in cursor.fetchall()})
        return
    matched = 0
    for i in range(0, len(ordered), CHUNK):
        chunk = ordered[i:i + CHUNK]
        cursor.execute(fence_statement(mark, len(chunk)), [v for pair in chunk for v in pair])
        matched += cursor.rowcount
    if matched != len(ordered):
        marks = ", ".join([mark] * len(ids))
        cursor.execute(f"SELECT table_id, generation FROM table_leases WHERE table_id IN ({marks})", ids)
        _check(ordered, {(r[0], r[1]) for r in cursor.fetchall()})


def touches(ops: Sequence[Any], pairs: frozenset[Pair]) -> bool:
    """Whether any of the declared writes ``ops`` was made under one of ``pairs``."""
    return any((getattr(op, "table_id", None), getattr(op, "lease", None)) in pairs for op in ops)


def now_sql(dialect: str) -> str:
    """The database's clock, in seconds since 1970, as SQL (leases expire by it, so hosts
    whose own clocks differ still agree on when a lease ran out)."""
    if dialect == "postgresql":
        return "CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)"
    if dialect == "sqlite":
        return "((julianday('now') - 2440587.5) * 86400.0)"
    return "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) AS DOUBLE PRECISION)"
