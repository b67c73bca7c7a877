"""Open challenges: ``seeks``

``/scrabble seek`` and ``/chess seek`` post a challenge any member may accept; each
is a row here (``open → taken | cancelled | expired``, with a version so two
accepts at once make one game). Rematches need no table: the presses are kept in
the finished game's options.

Revision ID: 0017_seeks
Revises: 0016_leagues
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_seeks"
down_revision = "0016_leagues"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("taken_by", sa.BigInteger(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["guild_id"], ["guilds.id"], name=op.f("fk_seeks_guild_id_guilds")),
        sa.ForeignKeyConstraint(["user_id"], ["players.id"], name=op.f("fk_seeks_user_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seeks")),
    )
    op.create_index("ix_seeks_guild_id_user_id_status", "seeks", ["guild_id", "user_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_seeks_guild_id_user_id_status", table_name="seeks")
    op.drop_table("seeks")
