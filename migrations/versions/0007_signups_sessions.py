"""Sign-ups (one waiting-list mechanism) and the society's club sessions

``signup_lists`` / ``signups``: the one sign-up mechanism sessions, tournaments
and games events share (places unique per list, so two joins at once cannot take
the same one). ``club_sessions`` / ``session_boards``: a session night and its
boards (Scrabble games). ``word_explanations``: a pair's explanation of its word.

Revision ID: 0007_signups_sessions
Revises: 0006_game_numbers
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_signups_sessions"
down_revision = "0006_game_numbers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "signup_lists",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("owner_kind", sa.String(length=16), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("capacity", sa.Integer(), nullable=True),
        sa.Column("team_size", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_signup_lists_guild_id_guilds")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signup_lists")),
        sa.UniqueConstraint("owner_kind", "owner_id", name="uq_signup_lists_owner_kind_owner_id"),
    )
    op.create_table(
        "signups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("list_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("partner_id", sa.BigInteger(), nullable=True),
        sa.Column("wants_partner", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("added_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("checked_in_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["list_id"],
            ["signup_lists.id"],
            name=op.f("fk_signups_list_id_signup_lists"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["partner_id"], ["players.id"], name=op.f("fk_signups_partner_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["players.id"], name=op.f("fk_signups_user_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signups")),
        sa.UniqueConstraint("list_id", "position", name="uq_signups_list_id_position"),
    )
    with op.batch_alter_table("signups", schema=None) as batch_op:
        batch_op.create_index("ix_signups_user_id", ["user_id"], unique=False)

    op.create_table(
        "club_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("moderator_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("groups", sa.JSON(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_club_sessions_guild_id_guilds")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_sessions")),
    )
    with op.batch_alter_table("club_sessions", schema=None) as batch_op:
        batch_op.create_index(
            "ix_club_sessions_channel_status", ["channel_id", "status"], unique=False
        )

    op.create_table(
        "session_boards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_session_boards_game_id_games")
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["club_sessions.id"],
            name=op.f("fk_session_boards_session_id_club_sessions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_session_boards")),
        sa.UniqueConstraint("game_id", name=op.f("uq_session_boards_game_id")),
        sa.UniqueConstraint("session_id", "number", name="uq_session_boards_session_id_number"),
    )
    op.create_table(
        "word_explanations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_word_explanations_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_word_explanations")),
        sa.UniqueConstraint("game_id", "ply", name="uq_word_explanations_game_id_ply"),
    )


def downgrade() -> None:
    op.drop_table("word_explanations")
    op.drop_table("session_boards")
    with op.batch_alter_table("club_sessions", schema=None) as batch_op:
        batch_op.drop_index("ix_club_sessions_channel_status")
    op.drop_table("club_sessions")
    with op.batch_alter_table("signups", schema=None) as batch_op:
        batch_op.drop_index("ix_signups_user_id")
    op.drop_table("signups")
    op.drop_table("signup_lists")
