"""Library Henyo: events, pairs, rounds, round events, club words

Revision ID: 0002_henyo
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_henyo"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "henyo_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("pairs", sa.Integer(), nullable=False),
        sa.Column("time_limit_ms", sa.Integer(), nullable=False),
        sa.Column("penalty_ms", sa.Integer(), nullable=False),
        sa.Column("categories", sa.JSON(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("list_message_id", sa.BigInteger(), nullable=True),
        sa.Column("winner_team_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_henyo_events_guild_id_guilds")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_henyo_events")),
    )
    with op.batch_alter_table("henyo_events", schema=None) as batch_op:
        batch_op.create_index(
            "ix_henyo_events_channel_status", ["channel_id", "status"], unique=False
        )
        batch_op.create_index("ix_henyo_events_guild_status", ["guild_id", "status"], unique=False)

    op.create_table(
        "henyo_words",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("text", sa.String(length=100), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("category", sa.String(length=16), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("added_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_henyo_words_guild_id_guilds")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_henyo_words")),
        sa.UniqueConstraint("guild_id", "key", name="uq_henyo_words_guild_id_key"),
    )

    op.create_table(
        "henyo_teams",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("guesser_id", sa.BigInteger(), nullable=False),
        sa.Column("answerer_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["answerer_id"], ["players.id"], name=op.f("fk_henyo_teams_answerer_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["henyo_events.id"],
            name=op.f("fk_henyo_teams_event_id_henyo_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["guesser_id"], ["players.id"], name=op.f("fk_henyo_teams_guesser_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_henyo_teams")),
        sa.UniqueConstraint("event_id", "position", name="uq_henyo_teams_event_id_position"),
    )

    op.create_table(
        "henyo_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=True),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("guesser_id", sa.BigInteger(), nullable=False),
        sa.Column("answerer_id", sa.BigInteger(), nullable=False),
        sa.Column("word", sa.String(length=100), nullable=False),
        sa.Column("word_key", sa.String(length=100), nullable=False),
        sa.Column("category", sa.String(length=16), nullable=True),
        sa.Column("language", sa.String(length=8), nullable=True),
        sa.Column("word_source", sa.String(length=8), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("cancel_reason", sa.String(length=32), nullable=True),
        sa.Column("time_limit_ms", sa.Integer(), nullable=False),
        sa.Column("penalty_ms", sa.Integer(), nullable=False),
        sa.Column("announce_message_id", sa.BigInteger(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("guess_message_id", sa.BigInteger(), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("elapsed_ms", sa.Integer(), nullable=True),
        sa.Column("penalties", sa.Integer(), nullable=False),
        sa.Column("final_ms", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["answerer_id"], ["players.id"], name=op.f("fk_henyo_rounds_answerer_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["henyo_events.id"],
            name=op.f("fk_henyo_rounds_event_id_henyo_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["guesser_id"], ["players.id"], name=op.f("fk_henyo_rounds_guesser_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_henyo_rounds_guild_id_guilds")
        ),
        sa.ForeignKeyConstraint(
            ["team_id"],
            ["henyo_teams.id"],
            name=op.f("fk_henyo_rounds_team_id_henyo_teams"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_henyo_rounds")),
    )
    with op.batch_alter_table("henyo_rounds", schema=None) as batch_op:
        batch_op.create_index(
            "ix_henyo_rounds_channel_status", ["channel_id", "status"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_henyo_rounds_event_id"), ["event_id"], unique=False)

    op.create_table(
        "henyo_round_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("source_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("reply", sa.String(length=8), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("elapsed_ms", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["henyo_rounds.id"],
            name=op.f("fk_henyo_round_events_round_id_henyo_rounds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_henyo_round_events")),
        sa.UniqueConstraint(
            "round_id", "source_id", name="uq_henyo_round_events_round_id_source_id"
        ),
    )


def downgrade() -> None:
    op.drop_table("henyo_round_events")
    with op.batch_alter_table("henyo_rounds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_henyo_rounds_event_id"))
        batch_op.drop_index("ix_henyo_rounds_channel_status")
    op.drop_table("henyo_rounds")
    op.drop_table("henyo_teams")
    op.drop_table("henyo_words")
    with op.batch_alter_table("henyo_events", schema=None) as batch_op:
        batch_op.drop_index("ix_henyo_events_guild_status")
        batch_op.drop_index("ix_henyo_events_channel_status")
    op.drop_table("henyo_events")
