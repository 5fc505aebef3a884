"""Alembic's entry point for knockabout's migrations: they run on the connection
:func:`knockabout.store.migrations.upgrade` opened (inside its transaction)."""

from __future__ import annotations

from alembic import context

from knockabout.store.schema import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("knockabout's migrations run through knockabout.store.migrations.upgrade(engine)")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
