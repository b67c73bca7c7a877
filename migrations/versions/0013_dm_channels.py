"""Members' DM channels, remembered: ``dm_channels``

discord.py keeps 128 DM channels in memory, so most DMs (and every DM after a
restart) first cost a ``POST /users/@me/channels``. A member's DM channel id is
stored here the first time Discord gives it, and a DM goes straight to it.

Revision ID: 0013_dm_channels
Revises: 0012_outbox_claims
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_dm_channels"
down_revision = "0012_outbox_claims"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dm_channels",
        sa.Column("user_id", sa.BigInteger(), nullable=False, autoincrement=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_dm_channels")),
    )


def downgrade() -> None:
    op.drop_table("dm_channels")
