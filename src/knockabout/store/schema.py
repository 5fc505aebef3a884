"""The store's tables, as SQLAlchemy declares them. The database gets them through the
migrations in :mod:`knockabout.store.migrations` (never ``create_all``): a change here is a
new migration there, and ``tests/store/test_migrations.py`` checks that the migrations
make exactly these tables on SQLite and PostgreSQL.

Live play: ``live_tables`` (one row per table), ``live_actions`` (its log, which only grows
but for moves taken back: see :class:`~knockabout.store.store.UndoWrite`) and ``chat_lines``
(what was said at it). Ratings: ``ratings`` (each player's at each game) and
``rating_changes`` (what each rated table changed).
The studio's playtests: ``content_versions`` (uploaded content, immutable),
``content_uploads`` (each uploader's list of them) and ``content_tables`` (the tables made
to play one).
Hosts sharing one database (:mod:`knockabout.store.leases`): ``table_leases`` (which server
holds each unfinished table, and the lease's generation, which fences every write) and
``lease_holders`` (each server's hold, with the time it runs out unless renewed).
Accounts: ``accounts``, ``account_seats`` (which account sat in which seat of which
table), ``sessions`` (logged-in browsers, by the hash of their session id) and
``server_secrets`` (the key session cookies are signed with, made once per database so
that every worker and restart of a server shares it).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Integer, String, Text, false, true
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "live_tables"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    rules_version: Mapped[str] = mapped_column(String(32))
    content_hash: Mapped[str] = mapped_column(String(128), default="")
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # a seed below 2**63 (else 0, and seed_text holds it)
    seed_text: Mapped[str | None] = mapped_column(String(80), nullable=True, default=None)
    listed: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    clock_step: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    clock_deadline: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)
    move_time: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)  # turn-based: s per move
    undo: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # people may take back moves


class ActionRow(Base):
    __tablename__ = "live_actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("live_tables.id"), primary_key=True)
    step: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    by: Mapped[str] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float)
    # the generation of the table's lease its writer held (None: written without a lease)
    lease: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)


class ChatRow(Base):
    """One chat line said at a table (see ``server/chat.py``): in order by ``n``."""

    __tablename__ = "chat_lines"

    table_id: Mapped[str] = mapped_column(ForeignKey("live_tables.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(16))
    sender: Mapped[str] = mapped_column(String(64))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    step: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)


class RatingRow(Base):
    """A player's rating at one game (see ``knockabout.ladder.ratings``): ``player`` is a
    ladder key (``account:ID`` or ``bot:LEVEL``), ``mu`` and ``sigma`` the Weng-Lin estimate."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    player: Mapped[str] = mapped_column(String(80), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    draws: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[float] = mapped_column(Float)


class RatingChangeRow(Base):
    """What a rated table did to one seat's rating (``mu`` before and after): the table's
    end panel and the profiles show it, and its presence marks the table as rated."""

    __tablename__ = "rating_changes"

    table_id: Mapped[str] = mapped_column(ForeignKey("live_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(80), index=True)
    game: Mapped[str] = mapped_column(String(64))
    mu_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)


class ContentVersionRow(Base):
    """An uploaded content version (:mod:`knockabout.core.content_versions`): its files,
    never changed (``id`` is their hash). Kept while an upload or a table names it."""

    __tablename__ = "content_versions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    files: Mapped[dict[str, str]] = mapped_column(JSON)
    size: Mapped[int] = mapped_column(Integer)  # characters in its files
    created_at: Mapped[float] = mapped_column(Float)


class ContentUploadRow(Base):
    """A content version in its uploader's list: who (an account's id), what it is (the
    document's kind and name) and when."""

    __tablename__ = "content_uploads"

    owner: Mapped[str] = mapped_column(String(64), primary_key=True)
    version_id: Mapped[str] = mapped_column(ForeignKey("content_versions.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(80))
    uploaded_at: Mapped[float] = mapped_column(Float)


class ContentTableRow(Base):
    """A table made to play a content version (its config names the version too): the
    version's playtest tables, and what keeps its files after its uploader removes it."""

    __tablename__ = "content_tables"

    version_id: Mapped[str] = mapped_column(ForeignKey("content_versions.id"), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("live_tables.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)


class LeaseRow(Base):
    """Which holder has an unfinished table. ``owner`` None: nobody (let go at
    ``released_at``, by the database's clock, or never taken); a lease whose holder's hold
    ran out (``lease_holders``) is free too; ``generation`` grows by one at each taking and
    each release, and a write carrying another generation is refused; ``wanted_by``: a
    holder that has asked for the table (its connections reach that holder now)."""

    __tablename__ = "table_leases"

    table_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    owner: Mapped[str | None] = mapped_column(String(128), nullable=True, index=True)
    generation: Mapped[int] = mapped_column(Integer)
    released_at: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)
    wanted_by: Mapped[str | None] = mapped_column(String(128), nullable=True, default=None)


class HolderRow(Base):
    """A holder (a server: one ``knockabout serve``, or one worker of ``--workers``) of host
    ``host``, holding its tables until ``expires_at`` (the database's clock) unless it renews."""

    __tablename__ = "lease_holders"

    name: Mapped[str] = mapped_column(String(128), primary_key=True)
    host: Mapped[str] = mapped_column(String(128))
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class AccountRow(Base):
    """A person's account. ``name_key`` is the name as compared (case folded), unique
    while the account lives; a deleted account keeps its row (its games still point at
    it) with the name replaced, no key and no password."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str | None] = mapped_column(String(32), nullable=True, unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    deleted_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class AccountSeatRow(Base):
    """An account sat in ``seat`` of table ``table_id`` (made when the seat was taken while
    logged in, or claimed later with the seat's token)."""

    __tablename__ = "account_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("live_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    linked_at: Mapped[float] = mapped_column(Float)


class SessionRow(Base):
    """A logged-in browser: the SHA-256 of its session id (the cookie holds the id, signed)."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)


class SecretRow(Base):
    """A server secret kept in the database (``session-key``: what session cookies are signed with)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(255))
