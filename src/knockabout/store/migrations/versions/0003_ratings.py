"""Ratings: ``ratings`` (each player's Weng-Lin rating at each game, by ladder key) and
``rating_changes`` (what each rated table did to each seat's rating; their presence marks
the table as rated).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from knockabout.store.migrations.columns import game, moment, player, seat, table_id

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.create_table(
        "ratings",
        game(key=True),
        player(key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        moment("updated_at"),
    )
    op.create_table(
        "rating_changes",
        table_id(),
        seat(key=True),
        player(),
        game(),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        moment("at"),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
