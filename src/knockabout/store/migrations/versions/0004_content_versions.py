"""The studio's playtests: ``content_versions`` (uploaded content's files, by their hash),
``content_uploads`` (each uploader's list) and ``content_tables`` (tables made to play one).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "content_versions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("files", sa.JSON(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "content_uploads",
        sa.Column("owner", sa.String(64), primary_key=True),
        sa.Column("version_id", sa.String(32), sa.ForeignKey("content_versions.id"), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("uploaded_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "content_tables",
        sa.Column("version_id", sa.String(32), sa.ForeignKey("content_versions.id"), primary_key=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("live_tables.id"), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("content_tables")
    op.drop_table("content_uploads")
    op.drop_table("content_versions")
