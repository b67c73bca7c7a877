"""Games events: the library's prize event across games

``games_events``: an event (its games, its number of pairs; registration is a
``signup_lists`` row with owner_kind 'event'). ``games_event_rounds``: one round
per game, unique per event and game, pointing at what plays it (a Henyo event, a
Boggle round, a tournament). ``games_event_prizes``: the host's prize lines.

Revision ID: 0009_events
Revises: 0008_tournaments
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_events"
down_revision = "0008_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("games", sa.JSON(), nullable=False),
        sa.Column("pairs", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("card_message_id", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_games_events_guild_id_guilds")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games_events")),
    )
    with op.batch_alter_table("games_events", schema=None) as batch_op:
        batch_op.create_index("ix_games_events_guild_status", ["guild_id", "status"], unique=False)
        batch_op.create_index(
            "ix_games_events_channel_status", ["channel_id", "status"], unique=False
        )

    op.create_table(
        "games_event_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("ref_id", sa.Integer(), nullable=False),
        sa.Column("pairs", sa.JSON(), nullable=False),
        sa.Column("started_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["games_events.id"],
            name=op.f("fk_games_event_rounds_event_id_games_events"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games_event_rounds")),
        sa.UniqueConstraint("event_id", "game", name="uq_games_event_rounds_event_id_game"),
    )
    with op.batch_alter_table("games_event_rounds", schema=None) as batch_op:
        batch_op.create_index("ix_games_event_rounds_game_ref_id", ["game", "ref_id"], unique=False)

    op.create_table(
        "games_event_prizes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(length=200), nullable=False),
        sa.Column("written_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["games_events.id"],
            name=op.f("fk_games_event_prizes_event_id_games_events"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games_event_prizes")),
        sa.UniqueConstraint(
            "event_id", "game", "place", name="uq_games_event_prizes_event_id_game_place"
        ),
    )


def downgrade() -> None:
    op.drop_table("games_event_prizes")
    with op.batch_alter_table("games_event_rounds", schema=None) as batch_op:
        batch_op.drop_index("ix_games_event_rounds_game_ref_id")
    op.drop_table("games_event_rounds")
    with op.batch_alter_table("games_events", schema=None) as batch_op:
        batch_op.drop_index("ix_games_events_channel_status")
        batch_op.drop_index("ix_games_events_guild_status")
    op.drop_table("games_events")
