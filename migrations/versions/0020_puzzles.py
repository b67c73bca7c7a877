"""Puzzles from the club's finished games: ``puzzles``, ``puzzle_attempts``

``puzzles``: one position of a finished game (one row per game and ply), with its own
Glicko-2 rating. ``puzzle_attempts``: one member's go at one puzzle.

Revision ID: 0020_puzzles
Revises: 0019_schedule_times
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020_puzzles"
down_revision = "0019_schedule_times"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_puzzles_guild_id_guilds")
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_puzzles_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzles")),
        sa.UniqueConstraint("game_id", "ply", name="uq_puzzles_game_id_ply"),
    )
    op.create_index("ix_puzzles_guild_id_kind", "puzzles", ["guild_id", "kind"])
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("puzzle_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("answers", sa.JSON(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=True),
        sa.Column("rating_after", sa.Float(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["puzzle_id"],
            ["puzzles.id"],
            name=op.f("fk_puzzle_attempts_puzzle_id_puzzles"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_puzzle_attempts_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzle_attempts")),
        sa.UniqueConstraint(
            "puzzle_id", "player_id", name="uq_puzzle_attempts_puzzle_id_player_id"
        ),
    )
    op.create_index(
        "ix_puzzle_attempts_guild_id_player_id", "puzzle_attempts", ["guild_id", "player_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_puzzle_attempts_guild_id_player_id", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_index("ix_puzzles_guild_id_kind", table_name="puzzles")
    op.drop_table("puzzles")
