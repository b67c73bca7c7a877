"""Tournaments: entrants, rounds, pairings, the director's log

Revision ID: 0008_tournaments
Revises: 0007_signups_sessions
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_tournaments"
down_revision = "0007_signups_sessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("game_kind", sa.String(length=16), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_tournaments_guild_id_guilds")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(
            "ix_tournaments_channel_status", ["channel_id", "status"], unique=False
        )
        batch_op.create_index("ix_tournaments_guild_status", ["guild_id", "status"], unique=False)

    op.create_table(
        "tournament_entrants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("partner_id", sa.BigInteger(), nullable=True),
        sa.Column("label", sa.String(length=100), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("withdrawn_round", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["partner_id"], ["players.id"], name=op.f("fk_tournament_entrants_partner_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_entrants_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["players.id"], name=op.f("fk_tournament_entrants_user_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_entrants")),
        sa.UniqueConstraint(
            "tournament_id", "number", name="uq_tournament_entrants_tournament_id_number"
        ),
    )
    with op.batch_alter_table("tournament_entrants", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_entrants_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "tournament_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_rounds_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_rounds")),
        sa.UniqueConstraint(
            "tournament_id", "number", name="uq_tournament_rounds_tournament_id_number"
        ),
    )

    op.create_table(
        "tournament_pairings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("first_id", sa.Integer(), nullable=False),
        sa.Column("second_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("spread", sa.Integer(), nullable=False),
        sa.Column("first_total", sa.Integer(), nullable=True),
        sa.Column("second_total", sa.Integer(), nullable=True),
        sa.Column("forfeit", sa.Boolean(), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=True),
        sa.Column("void", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["first_id"],
            ["tournament_entrants.id"],
            name=op.f("fk_tournament_pairings_first_id_tournament_entrants"),
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_tournament_pairings_game_id_games")
        ),
        sa.ForeignKeyConstraint(
            ["second_id"],
            ["tournament_entrants.id"],
            name=op.f("fk_tournament_pairings_second_id_tournament_entrants"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_pairings_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_pairings")),
        sa.UniqueConstraint("game_id", name=op.f("uq_tournament_pairings_game_id")),
        sa.UniqueConstraint(
            "tournament_id", "round", "board", name="uq_tournament_pairings_tournament_id_round"
        ),
    )

    op.create_table(
        "tournament_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.BigInteger(), nullable=True),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_log_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_log")),
    )
    with op.batch_alter_table("tournament_log", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_log_tournament_id"), ["tournament_id"], unique=False
        )


def downgrade() -> None:
    op.drop_table("tournament_log")
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_rounds")
    with op.batch_alter_table("tournament_entrants", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_entrants_tournament_id"))
    op.drop_table("tournament_entrants")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index("ix_tournaments_guild_status")
        batch_op.drop_index("ix_tournaments_channel_status")
    op.drop_table("tournaments")
