"""Table leases: which host holds each unfinished table, for servers sharing a database.

Revision ID: 0005
Revises: 0004

``table_leases`` (a row per unfinished table: owner, generation, expiry, a host asking for
it), ``lease_hosts`` (the hosts alive) and ``live_actions.lease`` (the lease generation
that wrote each action; empty for the actions written before). A table without a lease
row is taken by the first server that wants it, as before this revision.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("owner", sa.String(128), nullable=True),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("wanted_by", sa.String(128), nullable=True),
    )
    op.create_index("ix_table_leases_owner", "table_leases", ["owner"])
    op.create_index("ix_table_leases_expires_at", "table_leases", ["expires_at"])
    op.create_table(
        "lease_hosts",
        sa.Column("name", sa.String(128), primary_key=True),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    with op.batch_alter_table("live_actions") as batch:
        batch.add_column(sa.Column("lease", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("live_actions") as batch:
        batch.drop_column("lease")
    op.drop_table("lease_hosts")
    op.drop_index("ix_table_leases_expires_at", "table_leases")
    op.drop_index("ix_table_leases_owner", "table_leases")
    op.drop_table("table_leases")
