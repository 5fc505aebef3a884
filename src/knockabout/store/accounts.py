"""Accounts in the store: who they are, the seats they sat in, their sessions, and what
their games came to.

Everything here is synchronous, each call its own short transaction on the store's engine
(the server calls it on a worker thread); accounts change rarely, so none of it goes
through the tables' group commit. Passwords arrive already hashed and sessions by the
hash of their id: this module never sees a secret a person typed or a cookie holds.

What other parts build on (ratings, matching, profiles):

- :meth:`AccountStore.get`, :meth:`AccountStore.by_name` — an :class:`Account` (``deleted``
  accounts keep their row and id, with the name replaced; leave them out of ladders);
- :meth:`AccountStore.accounts_at`, :meth:`AccountStore.account_ids_at` — which account
  sat in which seat of a table (the ids are what rating a finished table reads);
- :meth:`AccountStore.names` — the names of living accounts (the leaderboards');
- :meth:`AccountStore.games` and :meth:`AccountStore.results` — an account's tables as
  :class:`AccountGame` (its seat, the names shown, the stored result, won/drawn/lost);
- :meth:`AccountStore.link_seat` — record that an account holds a seat.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from knockabout.core.errors import KnockaboutError
from knockabout.store.schema import AccountRow, AccountSeatRow, SecretRow, SessionRow, TableRow

DELETED_NAME = "deleted player"
"""The name a deleted account's seats and profile show instead of its own."""


class NameTaken(KnockaboutError):
    """An account of that name exists already."""


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    created_at: float
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class AccountGame:
    """One table an account sat at, as stored: ``seat`` is the account's, ``names`` every
    seat's name as the table showed it, ``result`` the stored outcome (None until finished)."""

    table_id: str
    game: str
    status: str
    seat: int
    names: list[str]
    result: dict[str, Any] | None
    created_at: float
    finished_at: float | None
    listed: bool

    @property
    def finished(self) -> bool:
        return self.status == "finished" and self.result is not None

    @property
    def drawn(self) -> bool:
        return self.finished and bool(self.result and self.result.get("draw"))

    @property
    def won(self) -> bool:
        """A win: the account's seat among the winners of a game that was not a draw."""
        return self.finished and not self.drawn and self.seat in (self.result or {}).get("winners", ())

    @property
    def lost(self) -> bool:
        return self.finished and not self.drawn and not self.won


def name_key(name: str) -> str:
    """A name as names are compared: ``Ann`` and ``ann`` are one account."""
    return name.casefold()


def _account(row: AccountRow) -> Account:
    return Account(id=row.id, name=row.name, created_at=row.created_at, deleted=row.deleted_at is not None)


class AccountStore:
    """Accounts, their seats and sessions in the store's database (see the module's text)."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    # -- accounts
    def create(self, name: str, password_hash: str) -> Account:
        """A new account; :class:`NameTaken` when the name (case folded) is in use."""
        account = Account(id=secrets.token_urlsafe(12), name=name, created_at=self.clock())
        try:
            with Session(self.engine) as s, s.begin():
                s.add(AccountRow(id=account.id, name=name, name_key=name_key(name), password_hash=password_hash,
                                 created_at=account.created_at))
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is taken; choose another") from None
        return account

    def get(self, account_id: str) -> Account | None:
        with Session(self.engine) as s:
            row = s.get(AccountRow, account_id)
            return None if row is None else _account(row)

    def by_name(self, name: str) -> Account | None:
        """The living account of that name (case folded), or None."""
        with Session(self.engine) as s:
            row = s.scalars(select(AccountRow).where(AccountRow.name_key == name_key(name))).first()
            return None if row is None else _account(row)

    def login_facts(self, name: str) -> tuple[Account, str] | None:
        """The living account of that name and its password hash, or None."""
        with Session(self.engine) as s:
            row = s.scalars(select(AccountRow).where(AccountRow.name_key == name_key(name))).first()
            if row is None or row.password_hash is None:
                return None
            return _account(row), row.password_hash

    def password_hash(self, account_id: str) -> str | None:
        with Session(self.engine) as s:
            row = s.get(AccountRow, account_id)
            return None if row is None else row.password_hash

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account_id, AccountRow.deleted_at.is_(None))
                      .values(password_hash=password_hash))

    def delete(self, account_id: str) -> list[tuple[str, int]]:
        """Delete an account: its sessions end, its name and password go (the row stays, so
        its games still count as one player's), and every seat it held shows
        :data:`DELETED_NAME` in the stored tables. Returns those seats (table id, seat)."""
        with Session(self.engine) as s, s.begin():
            row = s.get(AccountRow, account_id)
            if row is None or row.deleted_at is not None:
                return []
            row.name, row.name_key, row.password_hash, row.deleted_at = DELETED_NAME, None, None, self.clock()
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            held = s.execute(select(AccountSeatRow.table_id, AccountSeatRow.seat)
                             .where(AccountSeatRow.account_id == account_id)).all()
            seats_of: dict[str, list[int]] = {}
            for table_id, seat in held:
                seats_of.setdefault(table_id, []).append(seat)
            for table in s.scalars(select(TableRow).where(TableRow.id.in_(seats_of))).all():
                shown = [dict(x) for x in table.seats]
                for seat in seats_of[table.id]:
                    if 0 <= seat < len(shown):
                        shown[seat]["name"] = DELETED_NAME
                table.seats = shown
            return [(t, seat) for t, seat in held]

    # -- sessions
    def start_session(self, account_id: str, id_hash: str, lifetime: float) -> None:
        now = self.clock()
        with Session(self.engine) as s, s.begin():
            s.add(SessionRow(id_hash=id_hash, account_id=account_id, created_at=now, expires_at=now + lifetime))

    def session_account(self, id_hash: str) -> Account | None:
        """The living account whose unexpired session has this hash, or None."""
        with Session(self.engine) as s:
            row = s.execute(select(AccountRow).join(SessionRow, SessionRow.account_id == AccountRow.id)
                            .where(SessionRow.id_hash == id_hash, SessionRow.expires_at > self.clock(),
                                   AccountRow.deleted_at.is_(None))).scalars().first()
            return None if row is None else _account(row)

    def end_session(self, id_hash: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.id_hash == id_hash))

    def end_sessions(self, account_id: str) -> None:
        """End every session of an account (a changed password logs out everywhere)."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))

    def end_expired_sessions(self) -> int:
        with Session(self.engine) as s, s.begin():
            result: Any = s.execute(delete(SessionRow).where(SessionRow.expires_at <= self.clock()))
            return int(result.rowcount or 0)

    # -- seats
    def link_seat(self, table_id: str, seat: int, account_id: str) -> bool:
        """Record that ``account_id`` holds ``seat`` of ``table_id``; False when another
        account holds it already (the first link stays)."""
        with Session(self.engine) as s, s.begin():
            held = s.get(AccountSeatRow, (table_id, seat))
            if held is not None:
                return held.account_id == account_id
            s.add(AccountSeatRow(table_id=table_id, seat=seat, account_id=account_id, linked_at=self.clock()))
        return True

    def claim(self, account_id: str, tokens: Iterable[tuple[str, str]]) -> list[tuple[str, int]]:
        """Link to ``account_id`` the seats whose token hashes it shows: ``tokens`` are
        (table id, SHA-256 of the seat token), as a guest's browser kept them. A seat held by
        another account already, or a hash no seat has, is left alone. Returns the seats
        now the account's (table id, seat)."""
        wanted: dict[str, set[str]] = {}
        for table_id, token_hash in tokens:
            wanted.setdefault(table_id, set()).add(token_hash)
        if not wanted:
            return []
        out: list[tuple[str, int]] = []
        with Session(self.engine) as s, s.begin():
            rows = s.execute(select(TableRow.id, TableRow.seats).where(TableRow.id.in_(wanted))).all()
            held = {(r.table_id, r.seat): r.account_id for r in s.scalars(
                select(AccountSeatRow).where(AccountSeatRow.table_id.in_(wanted))).all()}
            for table_id, seats in rows:
                for i, seat in enumerate(seats):
                    token = seat.get("token")
                    if not token or not any(secrets.compare_digest(token, h) for h in wanted[table_id]):
                        continue
                    owner = held.get((table_id, i))
                    if owner is None:
                        s.add(AccountSeatRow(table_id=table_id, seat=i, account_id=account_id,
                                             linked_at=self.clock()))
                    elif owner != account_id:
                        continue
                    out.append((table_id, i))
        return out

    def accounts_at(self, table_id: str) -> dict[int, Account]:
        """The accounts that hold seats of a table, by seat."""
        with Session(self.engine) as s:
            rows = s.execute(select(AccountSeatRow.seat, AccountRow)
                             .join(AccountRow, AccountRow.id == AccountSeatRow.account_id)
                             .where(AccountSeatRow.table_id == table_id)).all()
            return {seat: _account(row) for seat, row in rows}

    def account_ids_at(self, table_id: str) -> dict[int, str]:
        """The ids of the accounts that hold seats of a table, by seat (what rating a
        finished table needs)."""
        with Session(self.engine) as s:
            rows = s.execute(select(AccountSeatRow.seat, AccountSeatRow.account_id)
                             .where(AccountSeatRow.table_id == table_id)).all()
            return {seat: account_id for seat, account_id in rows}

    def names(self, account_ids: Iterable[str]) -> dict[str, str]:
        """The names of the living accounts among ``account_ids``, by id."""
        wanted = list(account_ids)
        if not wanted:
            return {}
        with Session(self.engine) as s:
            rows = s.execute(select(AccountRow.id, AccountRow.name)
                             .where(AccountRow.id.in_(wanted), AccountRow.deleted_at.is_(None))).all()
            return {account_id: name for account_id, name in rows}

    def games(self, account_id: str, limit: int = 20, *, listed_only: bool = False,
              finished_only: bool = False) -> list[AccountGame]:
        """The account's latest tables, newest first."""
        query = (select(AccountSeatRow.seat, TableRow)
                 .join(TableRow, TableRow.id == AccountSeatRow.table_id)
                 .where(AccountSeatRow.account_id == account_id))
        if listed_only:
            query = query.where(TableRow.listed.is_(True))
        if finished_only:
            query = query.where(TableRow.status == "finished")
        with Session(self.engine) as s:
            rows = s.execute(query.order_by(TableRow.created_at.desc()).limit(limit)).all()
            return [_game(seat, t) for seat, t in rows]

    def results(self, account_id: str) -> list[AccountGame]:
        """Every finished game of the account, oldest first (what its statistics count)."""
        query = (select(AccountSeatRow.seat, TableRow)
                 .join(TableRow, TableRow.id == AccountSeatRow.table_id)
                 .where(AccountSeatRow.account_id == account_id, TableRow.status == "finished")
                 .order_by(TableRow.finished_at))
        with Session(self.engine) as s:
            return [_game(seat, t) for seat, t in s.execute(query).all()]

    # -- the server's secrets
    def secret(self, name: str, make: Callable[[], str]) -> str:
        """The server secret ``name``, made with ``make`` the first time it is asked for
        (whoever asks first wins; every later asker gets that one)."""
        with Session(self.engine) as s:
            row = s.get(SecretRow, name)
            if row is not None:
                return row.value
        try:
            with Session(self.engine) as s, s.begin():
                s.add(SecretRow(name=name, value=make()))
        except IntegrityError:
            pass  # another server made it meanwhile
        with Session(self.engine) as s:
            made = s.get(SecretRow, name)
            assert made is not None
            return made.value


def _game(seat: int, t: TableRow) -> AccountGame:
    return AccountGame(table_id=t.id, game=t.game, status=t.status, seat=seat,
                       names=[str(x.get("name") or f"Seat {i + 1}") for i, x in enumerate(t.seats)],
                       result=t.result, created_at=t.created_at, finished_at=t.finished_at, listed=t.listed)
