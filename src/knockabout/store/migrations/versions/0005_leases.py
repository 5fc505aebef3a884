"""Table leases: which host holds each unfinished table, for servers sharing a database.

``table_leases`` (a row per unfinished table: its holder, generation, when it was let go,
a holder asking for it), ``lease_holders`` (each server's hold and when it runs out) and
``live_actions.lease`` (the lease generation that wrote each action; empty for the actions
written before). A table without a lease
row is taken by the first server that wants it, as before this revision.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from knockabout.store.migrations.columns import moment, table_id

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "table_leases",
        table_id(linked=False),
        sa.Column("owner", sa.String(128), nullable=True),
        sa.Column("generation", sa.Integer(), nullable=False),
        moment("released_at", nullable=True),
        sa.Column("wanted_by", sa.String(128), nullable=True),
    )
    op.create_index("ix_table_leases_owner", "table_leases", ["owner"])
    op.create_table(
        "lease_holders",
        sa.Column("name", sa.String(128), primary_key=True),
        sa.Column("host", sa.String(128), nullable=False),
        moment("expires_at"),
    )
    op.create_index("ix_lease_holders_expires_at", "lease_holders", ["expires_at"])
    with op.batch_alter_table("live_actions") as batch:
        batch.add_column(sa.Column("lease", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("live_actions") as batch:
        batch.drop_column("lease")
    op.drop_index("ix_lease_holders_expires_at", "lease_holders")
    op.drop_table("lease_holders")
    op.drop_index("ix_table_leases_owner", "table_leases")
    op.drop_table("table_leases")
