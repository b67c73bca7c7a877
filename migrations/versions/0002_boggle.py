"""Word Boggle: weekly schedules, rounds, submissions

Revision ID: 0002_boggle
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_boggle"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "boggle_schedules",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("weekday", sa.Integer(), nullable=False),
        sa.Column("local_time", sa.String(length=5), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("dice", sa.String(length=16), nullable=False),
        sa.Column("duration_s", sa.Integer(), nullable=False),
        sa.Column("min_length", sa.Integer(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_boggle_schedules_guild_id_guilds")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_boggle_schedules")),
        sa.UniqueConstraint("guild_id", name="uq_boggle_schedules_guild_id"),
    )

    op.create_table(
        "boggle_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("schedule_id", sa.Integer(), nullable=True),
        sa.Column("occurrence", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("dice", sa.String(length=16), nullable=False),
        sa.Column("min_length", sa.Integer(), nullable=False),
        sa.Column("duration_s", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("grid", sa.String(length=200), nullable=True),
        sa.Column("lexicon", sa.String(length=200), nullable=False),
        sa.Column("opens_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_by", sa.BigInteger(), nullable=True),
        sa.Column("cancel_reason", sa.String(length=32), nullable=True),
        sa.Column("season", sa.String(length=64), nullable=True),
        sa.Column("results", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("scored_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_boggle_rounds_guild_id_guilds")
        ),
        sa.ForeignKeyConstraint(
            ["schedule_id"],
            ["boggle_schedules.id"],
            name=op.f("fk_boggle_rounds_schedule_id_boggle_schedules"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_boggle_rounds")),
        sa.UniqueConstraint("guild_id", "number", name="uq_boggle_rounds_guild_id_number"),
        sa.UniqueConstraint(
            "schedule_id", "occurrence", name="uq_boggle_rounds_schedule_id_occurrence"
        ),
    )
    with op.batch_alter_table("boggle_rounds", schema=None) as batch_op:
        batch_op.create_index("ix_boggle_rounds_guild_status", ["guild_id", "status"], unique=False)
        batch_op.create_index("ix_boggle_rounds_status", ["status"], unique=False)

    op.create_table(
        "boggle_submissions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.Column("words", sa.JSON(), nullable=False),
        sa.Column("first_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_source_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_boggle_submissions_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["boggle_rounds.id"],
            name=op.f("fk_boggle_submissions_round_id_boggle_rounds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_boggle_submissions")),
        sa.UniqueConstraint(
            "round_id", "player_id", name="uq_boggle_submissions_round_id_player_id"
        ),
    )


def downgrade() -> None:
    op.drop_table("boggle_submissions")
    with op.batch_alter_table("boggle_rounds", schema=None) as batch_op:
        batch_op.drop_index("ix_boggle_rounds_status")
        batch_op.drop_index("ix_boggle_rounds_guild_status")
    op.drop_table("boggle_rounds")
    op.drop_table("boggle_schedules")
