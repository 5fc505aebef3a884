"""The studio's playtests: ``content_versions`` (uploaded content's files, by their hash),
``content_uploads`` (each uploader's list) and ``content_tables`` (tables made to play one).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from knockabout.store.migrations.columns import game, moment, refers, table_id

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.create_table(
        "content_versions",
        sa.Column("id", sa.String(32), primary_key=True),
        game(),
        sa.Column("files", sa.JSON(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        moment("created_at"),
    )
    op.create_table(
        "content_uploads",
        sa.Column("owner", sa.String(64), primary_key=True),
        refers("version_id", "content_versions.id", key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        moment("uploaded_at"),
    )
    op.create_table(
        "content_tables",
        refers("version_id", "content_versions.id", key=True),
        table_id(),
        sa.Column("owner", sa.String(64), nullable=False),
        moment("created_at"),
    )


def downgrade() -> None:
    op.drop_table("content_tables")
    op.drop_table("content_uploads")
    op.drop_table("content_versions")
