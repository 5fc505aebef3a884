"""The kinds of column the migrations make again and again: a table's id, a seat, a game, a
player, a moment, each with the one type the store gives it everywhere.

A migration's schema is history once it has run on someone's database, so a builder here is
never changed: a migration that needs another kind of column adds a builder (or writes the
``sa.Column`` out). ``tests/store/test_migrations.py`` checks that the migrations together
make exactly the schema of :mod:`knockabout.store.schema`.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa


def table_id(*, linked: bool = True) -> sa.Column[Any]:
    """``table_id``, part of the primary key: the live table a row is about (``linked``: as a
    foreign key to ``live_tables.id``)."""
    return _column("table_id", sa.String(64), *([sa.ForeignKey("live_tables.id")] if linked else []), key=True)


def seat(*, key: bool = False, nullable: bool = False) -> sa.Column[Any]:
    """``seat``: a seat's number at its table."""
    return _column("seat", sa.Integer(), key=key, nullable=nullable)


def game(*, key: bool = False) -> sa.Column[Any]:
    """``game``: a game's id."""
    return _column("game", sa.String(64), key=key)


def player(*, key: bool = False) -> sa.Column[Any]:
    """``player``: a rated player's name."""
    return _column("player", sa.String(80), key=key)


def moment(name: str, *, nullable: bool = False) -> sa.Column[Any]:
    """A moment, in seconds since the epoch (``nullable``: empty until it happens)."""
    return _column(name, sa.Float(), nullable=nullable)


def refers(name: str, target: str, *, key: bool = False) -> sa.Column[Any]:
    """A 32-character id naming a row of another table (``target``, e.g. ``"accounts.id"``)."""
    return _column(name, sa.String(32), sa.ForeignKey(target), key=key)


def _column(name: str, kind: sa.types.TypeEngine[Any], *more: Any, key: bool = False,
            nullable: bool = False) -> sa.Column[Any]:
    """A column of the primary key (``key``), else one that may be empty or not (``nullable``)."""
    if key:
        return sa.Column(name, kind, *more, primary_key=True)
    return sa.Column(name, kind, *more, nullable=nullable)
