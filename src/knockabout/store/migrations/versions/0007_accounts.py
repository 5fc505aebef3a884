"""Accounts: accounts, the seats they sat in, their sessions and the server's secrets.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from knockabout.store.migrations.columns import moment, refers, seat, table_id

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        moment("created_at"),
        moment("deleted_at", nullable=True),
    )
    op.create_table(
        "account_seats",
        table_id(),
        seat(key=True),
        refers("account_id", "accounts.id"),
        moment("linked_at"),
    )
    op.create_index("ix_account_seats_account_id", "account_seats", ["account_id"])
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        refers("account_id", "accounts.id"),
        moment("created_at"),
        moment("expires_at"),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(255), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
    op.drop_index("ix_sessions_account_id", "sessions")
    op.drop_table("sessions")
    op.drop_index("ix_account_seats_account_id", "account_seats")
    op.drop_table("account_seats")
    op.drop_table("accounts")
