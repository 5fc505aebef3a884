"""Turn-based tables and chat: ``live_tables.move_time`` (seconds per move; null for a
live table) and ``chat_lines`` (each line said at a table, in order).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from knockabout.store.migrations.columns import moment, seat, table_id

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.add_column("live_tables", sa.Column("move_time", sa.Float(), nullable=True))
    op.create_table(
        "chat_lines",
        table_id(),
        sa.Column("n", sa.Integer(), primary_key=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("sender", sa.String(64), nullable=False),
        seat(nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        moment("at"),
        sa.Column("phrase", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("chat_lines")
    with op.batch_alter_table("live_tables") as batch:
        batch.drop_column("move_time")
