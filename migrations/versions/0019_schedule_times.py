"""Agreed game times and the server's scheduled events: ``time_proposals``, ``guild_events``

``time_proposals``: ``/schedule propose`` in a league or tournament game on a long
clock; ``/schedule accept`` (or a button) agrees one of its times. ``guild_events``:
a club session, a tournament round or a league season as a Discord scheduled event,
with Discord's id once the sync job has made it.

Revision ID: 0019_schedule_times
Revises: 0018_boggle_schedule_room
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_schedule_times"
down_revision = "0018_boggle_schedule_room"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "time_proposals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("proposer_id", sa.BigInteger(), nullable=False),
        sa.Column("times", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("agreed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("accepted_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_time_proposals_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_time_proposals")),
    )
    op.create_index("ix_time_proposals_game_id_status", "time_proposals", ["game_id", "status"])
    op.create_table(
        "guild_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("owner_kind", sa.String(length=24), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("location", sa.String(length=100), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("discord_id", sa.BigInteger(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("synced_version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_guild_events")),
        sa.UniqueConstraint(
            "owner_kind", "owner_id", name=op.f("uq_guild_events_owner_kind_owner_id")
        ),
    )


def downgrade() -> None:
    op.drop_table("guild_events")
    op.drop_index("ix_time_proposals_game_id_status", table_name="time_proposals")
    op.drop_table("time_proposals")
