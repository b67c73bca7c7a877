"""Scrabble hints: how many each member asked for, shown when the game ends

A counter on the member's seat row, raised in one UPDATE per hint: it never
conflicts with the game's own version-checked state.

Revision ID: 0004_seat_hints
Revises: 0003_merge_features
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_seat_hints"
down_revision = "0003_merge_features"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_seats", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("hints_used", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("game_seats", schema=None) as batch_op:
        batch_op.drop_column("hints_used")
