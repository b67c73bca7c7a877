"""Leagues (issue #30): a league, its seasons, each season's divisions

Each division is played as a tournament (``league_divisions.tournament_id``); a
season's sign-ups are the club's one sign-up list (owner_kind 'league').

Revision ID: 0016_leagues
Revises: 0015_boggle_room
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_leagues"
down_revision = "0015_boggle_room"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("game_kind", sa.String(length=16), nullable=False),
        sa.Column("team_size", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("current_season", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_leagues_guild_id_guilds")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_leagues")),
    )
    with op.batch_alter_table("leagues", schema=None) as batch_op:
        batch_op.create_index("ix_leagues_guild_status", ["guild_id", "status"], unique=False)

    op.create_table(
        "league_seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("carried", sa.JSON(), nullable=False),
        sa.Column("results", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["leagues.id"],
            name=op.f("fk_league_seasons_league_id_leagues"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_seasons")),
        sa.UniqueConstraint("league_id", "number", name="uq_league_seasons_league_id_number"),
    )

    op.create_table(
        "league_divisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["league_seasons.id"],
            name=op.f("fk_league_divisions_season_id_league_seasons"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_league_divisions_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_divisions")),
        sa.UniqueConstraint("season_id", "number", name="uq_league_divisions_season_id_number"),
        sa.UniqueConstraint("tournament_id", name=op.f("uq_league_divisions_tournament_id")),
    )


def downgrade() -> None:
    op.drop_table("league_divisions")
    op.drop_table("league_seasons")
    with op.batch_alter_table("leagues", schema=None) as batch_op:
        batch_op.drop_index("ix_leagues_guild_status")
    op.drop_table("leagues")
