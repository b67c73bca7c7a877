"""Games: a number per guild and game kind (Chess #1 is the club's first chess game)

``games.number`` is what members see and type (``#3``); the id stays internal
(buttons posted earlier carry it). Existing games get number = id, so every
number a member has seen still names the same game; new games take the next
number of their guild and kind, and a unique index refuses a second game with
the same one (two games made at once: one retries with the next number).

Both steps avoid rebuilding ``games`` on SQLite: a batch rebuild drops the
table, and with foreign keys on that deletes every seat and move by cascade.
So the column is added NOT NULL with a placeholder default (kept on SQLite,
where removing a default needs the rebuild; the repository always sets the
number) and the uniqueness is an index rather than a table constraint.

Revision ID: 0006_game_numbers
Revises: 0005_command_syncs
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0006_game_numbers"
down_revision = "0005_command_syncs"
branch_labels = None
depends_on = None

UNIQUE_NUMBER = "uq_games_guild_kind_number"


def upgrade() -> None:
    op.add_column("games", sa.Column("number", sa.Integer(), nullable=False, server_default="0"))
    bind = op.get_bind()
    # A new database has no games to number: its first start writes nothing to games.
    if context.is_offline_mode() or bind.execute(sa.text("SELECT 1 FROM games LIMIT 1")).first():
        op.execute("UPDATE games SET number = id")
    if bind.dialect.name != "sqlite":
        op.alter_column("games", "number", server_default=None)
    op.create_index(UNIQUE_NUMBER, "games", ["guild_id", "kind", "number"], unique=True)


def downgrade() -> None:
    op.drop_index(UNIQUE_NUMBER, table_name="games")
    # Not in a batch: SQLite (3.35+) drops a column in place, without the rebuild.
    op.drop_column("games", "number")
