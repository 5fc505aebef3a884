"""Live tables and their action logs: the schema of release 0.1.0.

A database that release made has these tables already (it had no migrations): they are
kept, and only the columns that release's own store added on opening an older database
are added where missing. A new database gets them whole.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from knockabout.store.migrations.columns import game, moment, seat, table_id

revision = "0001"
down_revision = None


def later_columns() -> list[sa.Column[Any]]:
    """The live_tables columns added after the first version that stored tables."""
    return [
        sa.Column("seed_text", sa.String(80), nullable=True),
        sa.Column("listed", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("clock_step", sa.Integer(), nullable=True),
        moment("clock_deadline", nullable=True),
    ]


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if inspector.has_table("live_tables"):
        have = {c["name"] for c in inspector.get_columns("live_tables")}
        for column in later_columns():
            if column.name not in have:
                op.add_column("live_tables", column)
    else:
        op.create_table(
            "live_tables",
            sa.Column("id", sa.String(64), primary_key=True),
            game(),
            sa.Column("rules_version", sa.String(32), nullable=False),
            sa.Column("content_hash", sa.String(128), nullable=False),
            sa.Column("config", sa.JSON(), nullable=False),
            sa.Column("seed", sa.BigInteger(), nullable=False),
            sa.Column("seed_text", sa.String(80), nullable=True),
            sa.Column("listed", sa.Boolean(), server_default=sa.true(), nullable=False),
            sa.Column("seats", sa.JSON(), nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            moment("created_at"),
            moment("finished_at", nullable=True),
            sa.Column("result", sa.JSON(), nullable=True),
            sa.Column("clock_step", sa.Integer(), nullable=True),
            moment("clock_deadline", nullable=True),
        )
        op.create_index("ix_live_tables_status", "live_tables", ["status"])
    if not inspector.has_table("live_actions"):
        op.create_table(
            "live_actions",
            table_id(),
            sa.Column("step", sa.Integer(), primary_key=True),
            seat(),
            sa.Column("action", sa.Text(), nullable=False),
            sa.Column("by", sa.String(16), nullable=False),
            moment("at"),
        )


def downgrade() -> None:
    op.drop_table("live_actions")
    op.drop_index("ix_live_tables_status", "live_tables")
    op.drop_table("live_tables")
