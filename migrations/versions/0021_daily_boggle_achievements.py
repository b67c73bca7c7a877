"""The daily Boggle grid and achievements (issue #31): ``boggle_daily``,
``boggle_daily_plays``, ``achievements``

Revision ID: 0021_daily_boggle_achievements
Revises: 0020_puzzles
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021_daily_boggle_achievements"
down_revision = "0020_puzzles"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "boggle_daily",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("dice", sa.String(length=16), nullable=False),
        sa.Column("min_length", sa.Integer(), nullable=False),
        sa.Column("duration_s", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("grid", sa.String(length=200), nullable=False),
        sa.Column("lexicon", sa.String(length=200), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("results", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("scored_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_boggle_daily_guild_id_guilds")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_boggle_daily")),
        sa.UniqueConstraint("guild_id", "day", name="uq_boggle_daily_guild_id_day"),
    )
    op.create_table(
        "boggle_daily_plays",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("daily_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.Column("words", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["daily_id"],
            ["boggle_daily.id"],
            name=op.f("fk_boggle_daily_plays_daily_id_boggle_daily"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_boggle_daily_plays_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_boggle_daily_plays")),
        sa.UniqueConstraint(
            "daily_id", "player_id", name="uq_boggle_daily_plays_daily_id_player_id"
        ),
    )
    op.create_index(
        "ix_boggle_daily_plays_guild_player_day",
        "boggle_daily_plays",
        ["guild_id", "player_id", "day"],
    )
    op.create_index("ix_boggle_daily_plays_ends_at", "boggle_daily_plays", ["ends_at"])
    op.create_table(
        "achievements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("earned_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_achievements")),
        sa.UniqueConstraint(
            "guild_id", "player_id", "code", name="uq_achievements_guild_id_player_id_code"
        ),
    )


def downgrade() -> None:
    op.drop_table("achievements")
    op.drop_index("ix_boggle_daily_plays_ends_at", table_name="boggle_daily_plays")
    op.drop_index("ix_boggle_daily_plays_guild_player_day", table_name="boggle_daily_plays")
    op.drop_table("boggle_daily_plays")
    op.drop_table("boggle_daily")
