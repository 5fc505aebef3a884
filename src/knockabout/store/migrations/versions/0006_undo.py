"""Undo: ``live_tables.undo``, whether people may take back moves at the table (false for
every table made before it).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.add_column("live_tables", sa.Column("undo", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("live_tables") as batch:
        batch.drop_column("undo")
