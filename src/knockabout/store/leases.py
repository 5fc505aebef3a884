"""Table leases: which host holds each unfinished table, when hosts share one database.

Two tables (:mod:`.schema`):

* ``lease_holders``: one row per *holder* (a server: the host's name, with ``/N`` for
  worker N of ``serve --workers``) with the time its hold runs out, by the database's clock
  (:func:`~.fence.now_sql`: hosts whose clocks differ still agree). A holder renews its
  row every few seconds: **one** row, however many tables it holds.
* ``table_leases``: one row per unfinished table naming its holder (``owner``), the
  lease's ``generation`` (one more at each taking and each release), when it was let go
  (``released_at``, for one nobody holds) and ``wanted_by``, a holder that asked for it.

A table's lease runs out when its holder's row does: the holder stopped renewing (it died,
or was stopped, or cut off). Then any holder may take the table (:meth:`Leases.claim`),
which raises the generation. Every write a holder makes carries the generation it holds,
and the database refuses it once the generation has moved on (:mod:`.fence`), so a host
that comes back after its hold ran out writes nothing more.

A new table's lease is made with the table (``create_op(..., owner=)``); a finished
table's is deleted with its finish. A table without a lease row (made before leases, or by
a tool) is taken by inserting one. The hosts alive are those with a holder alive, so that
they agree, without talking, on which of them takes a table nobody holds
(:func:`preferred`).

Everything here is synchronous (SQLAlchemy Core on the store's engine): a server calls
it on a thread, never on its event loop.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Engine,
    Float,
    Table,
    and_,
    case,
    func,
    insert,
    literal,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, IntegrityError

from knockabout.store.fence import now_sql
from knockabout.store.schema import HolderRow, LeaseRow, TableRow

GONE = -1e9
"""``Lease.left`` of a lease whose holder has no row at all (as good as run out long ago)."""


@dataclass(frozen=True)
class Lease:
    """A table's lease as read: ``left`` is the seconds until it runs out by the database's
    clock (its holder's hold; for a lease nobody holds, since it was let go: negative)."""

    table_id: str
    owner: str | None
    generation: int
    left: float
    wanted_by: str | None = None

    @property
    def free(self) -> bool:
        """Whether any holder may take the table now (nobody holds it, or the hold ran out)."""
        return self.owner is None or self.left < 0


def host_of(holder: str) -> str:
    """The host a holder's name belongs to (``h2/1`` -> ``h2``)."""
    return holder.split("/", 1)[0]


def preferred(table_id: str, hosts: Iterable[str]) -> str | None:
    """The host that should take ``table_id`` when nobody holds it: the highest of a hash of
    (host, table) over the hosts alive (rendezvous hashing: each host's share is even, and
    when a host goes only its own tables change hands)."""
    best: tuple[bytes, str] | None = None
    for host in hosts:
        score = hashlib.blake2b(f"{host}\0{table_id}".encode(), digest_size=8).digest()
        if best is None or score > best[0]:
            best = (score, host)
    return None if best is None else best[1]


def _table(row: type[Any]) -> Table:
    return cast(Table, row.__table__)


class Leases:
    """The lease operations of one holder (``owner``, of host ``host``) on ``engine``; its
    hold runs ``seconds`` from each renewal."""

    def __init__(self, engine: Engine, owner: str, seconds: float) -> None:
        self.engine = engine
        self.owner = owner
        self.host = host_of(owner)
        self.seconds = seconds
        self.leases = _table(LeaseRow)
        self.holders = _table(HolderRow)
        self.now: ColumnElement[float] = literal_column(now_sql(engine.dialect.name), Float)

    def _read(self) -> Any:
        """The leases with the seconds each has left (see :class:`Lease`)."""
        c, h = self.leases.c, self.holders.c
        left = case((c.owner.is_(None), func.coalesce(c.released_at, 0.0) - self.now),
                    else_=func.coalesce(h.expires_at - self.now, literal(GONE)))
        return select(c.table_id, c.owner, c.generation, left, c.wanted_by).select_from(
            self.leases.outerjoin(self.holders, h.name == c.owner))

    # -- reading
    def get(self, table_id: str) -> Lease | None:
        """``table_id``'s lease (None: it has no lease row)."""
        with self.engine.connect() as conn:
            row = conn.execute(self._read().where(self.leases.c.table_id == table_id)).first()
        return None if row is None else Lease(row[0], row[1], row[2], float(row[3]), row[4])

    def held(self) -> dict[str, int]:
        """The tables whose lease names this holder, with their generations."""
        c = self.leases.c
        with self.engine.connect() as conn:
            return {r[0]: r[1] for r in conn.execute(select(c.table_id, c.generation).where(c.owner == self.owner))}

    def wanted(self) -> list[tuple[str, int, str]]:
        """This holder's tables another holder asked for: (table, generation, who asked)."""
        c = self.leases.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(c.table_id, c.generation, c.wanted_by)
                                .where(c.owner == self.owner, c.wanted_by.is_not(None), c.wanted_by != self.owner))
            return [(r[0], r[1], r[2]) for r in rows]

    def free(self, limit: int = 500) -> list[Lease]:
        """Leases anyone may take now: nobody holds them, or their holder's hold ran out (found
        through the holders that ran out, so the leases are read by their owner's index)."""
        c, h = self.leases.c, self.holders.c
        with self.engine.connect() as conn:
            gone = [r[0] for r in conn.execute(select(h.name).where(h.expires_at < self.now))]
            where = c.owner.is_(None) if not gone else or_(c.owner.is_(None), c.owner.in_(gone))
            rows = conn.execute(self._read().where(where).limit(limit))
            return sorted((Lease(r[0], r[1], r[2], float(r[3]), r[4]) for r in rows), key=lambda x: x.left)

    def unleased(self) -> list[str]:
        """Unfinished tables without a lease row (made before leases, or by a tool)."""
        t = _table(TableRow).c
        c = self.leases.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(t.id).select_from(_table(TableRow).outerjoin(self.leases, c.table_id == t.id))
                                .where(t.status != "finished", c.table_id.is_(None)).order_by(t.created_at))
            return [r[0] for r in rows]

    def alive(self) -> list[str]:
        """The hosts alive now (a holder of theirs renewed within its hold)."""
        h = self.holders.c
        with self.engine.connect() as conn:
            return sorted({r[0] for r in conn.execute(select(h.host).where(h.expires_at >= self.now))})

    # -- writing
    def renew(self) -> int:
        """Push this holder's hold ``seconds`` on (one row, whatever it holds); returns how
        many tables its leases name. A connection the database had ended (this server was
        stopped or cut off in the middle of a renewal, past the store's idle time) is
        dropped and the renewal made once more on a new one: it is the renewal that tells
        a server which of its tables were taken while it was away."""
        try:
            return self._renew()
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            return self._renew()

    def _renew(self) -> int:
        h = self.holders.c
        until = self.now + self.seconds
        name = self.engine.dialect.name
        with self.engine.begin() as conn:
            if name in ("postgresql", "sqlite"):
                dialect_insert = postgresql_insert if name == "postgresql" else sqlite_insert
                stmt = dialect_insert(self.holders).values(name=self.owner, host=self.host, expires_at=until)
                conn.execute(stmt.on_conflict_do_update(index_elements=[h.name], set_={"expires_at": until}))
            else:
                updated: Any = conn.execute(update(self.holders).where(h.name == self.owner).values(expires_at=until))
                if updated.rowcount == 0:
                    conn.execute(insert(self.holders).values(name=self.owner, host=self.host, expires_at=until))
            c = self.leases.c
            return int(conn.execute(select(func.count()).select_from(self.leases).where(c.owner == self.owner))
                       .scalar_one())

    def claim(self, table_id: str, seen: Lease | None) -> int | None:
        """Take ``table_id`` if its lease is as ``seen`` and free (or already this holder's,
        as after a restart), or if it had no lease row (``seen`` None): the new generation,
        or None when another holder got there first or the lease is not free."""
        c, h = self.leases.c, self.holders.c
        if seen is None:
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(self.leases).values(table_id=table_id, owner=self.owner, generation=1))
            except IntegrityError:
                return None
            return 1
        running = select(h.name).where(h.expires_at >= self.now)
        with self.engine.begin() as conn:
            result: Any = conn.execute(
                update(self.leases)
                .where(c.table_id == table_id, c.generation == seen.generation,
                       or_(c.owner.is_(None), c.owner == self.owner, c.owner.not_in(running)))
                .values(owner=self.owner, generation=seen.generation + 1, released_at=None, wanted_by=None))
            return seen.generation + 1 if result.rowcount == 1 else None

    def ask(self, table_id: str) -> None:
        """Ask ``table_id``'s holder to let it go to this holder (it does at its next renewal)."""
        c = self.leases.c
        with self.engine.begin() as conn:
            conn.execute(update(self.leases)
                         .where(c.table_id == table_id, c.owner.is_not(None), c.owner != self.owner)
                         .values(wanted_by=self.owner))

    def release(self, table_id: str, generation: int) -> bool:
        """Let ``table_id`` go (if this holder still holds it at ``generation``): nobody
        holds it then, and its generation moves on, so that a write still on its way is
        refused; ``wanted_by`` still names who asked for it (the others leave it to them).
        False when it was not this holder's any more."""
        c = self.leases.c
        with self.engine.begin() as conn:
            result: Any = conn.execute(
                update(self.leases)
                .where(and_(c.table_id == table_id, c.generation == generation, c.owner == self.owner))
                .values(owner=None, generation=generation + 1, released_at=self.now))  # (wanted_by stays)
            return bool(result.rowcount == 1)

    def leave(self) -> None:
        """End this holder's hold now (a graceful stop): whatever its leases still name is
        free at once, and its host no longer counts as alive for it."""
        h = self.holders.c
        with self.engine.begin() as conn:
            conn.execute(update(self.holders).where(h.name == self.owner).values(expires_at=0.0))
