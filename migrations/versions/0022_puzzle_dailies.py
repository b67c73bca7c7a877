"""The club's daily puzzle (issue #31): ``puzzle_dailies``

One row per club and day: the puzzle posted that day in the club's puzzle channel
(unique ``guild_id, day``: posted once a day, whatever runs the job; unique
``guild_id, puzzle_id``: a puzzle is the club's daily once).

Revision ID: 0022_puzzle_dailies
Revises: 0021_daily_boggle_achievements
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022_puzzle_dailies"
down_revision = "0021_daily_boggle_achievements"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzle_dailies",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("puzzle_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("posted_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_puzzle_dailies_guild_id_guilds")
        ),
        sa.ForeignKeyConstraint(
            ["puzzle_id"],
            ["puzzles.id"],
            name=op.f("fk_puzzle_dailies_puzzle_id_puzzles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzle_dailies")),
        sa.UniqueConstraint("guild_id", "day", name="uq_puzzle_dailies_guild_id_day"),
        sa.UniqueConstraint("guild_id", "puzzle_id", name="uq_puzzle_dailies_guild_id_puzzle_id"),
    )


def downgrade() -> None:
    op.drop_table("puzzle_dailies")
