"""Slash commands: the tree last synced to Discord, so a start syncs only what changed

One row per application and scope ("global" or "guild:<id>") holding the
sha256 of the command payload sent in the last successful sync.

Revision ID: 0005_command_syncs
Revises: 0004_seat_hints
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_command_syncs"
down_revision = "0004_seat_hints"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "command_syncs",
        sa.Column("application_id", sa.BigInteger(), nullable=False, autoincrement=False),
        sa.Column("scope", sa.String(length=40), nullable=False),
        sa.Column("tree_hash", sa.String(length=64), nullable=False),
        sa.Column("synced_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("application_id", "scope", name=op.f("pk_command_syncs")),
    )


def downgrade() -> None:
    op.drop_table("command_syncs")
