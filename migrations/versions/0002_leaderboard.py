"""Leaderboard: index results by guild and time, for the all-games tables of a period

The all-games table of a week, month or season filters ``results`` by guild and
``played_at`` only; ``ix_results_guild_kind_played`` has the game kind between
the two, so that query read every result of the guild. This index serves it,
and holds the columns the query reads (player, outcome), so it never visits
the table rows.

Revision ID: 0002_leaderboard
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from alembic import op

revision = "0002_leaderboard"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.create_index(
            "ix_results_guild_played",
            ["guild_id", "played_at", "player_id", "outcome"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_index("ix_results_guild_played")
