"""Boggle in the room: a round's time to type the paper lists

``boggle_rounds.entry_s``: after a round played in the room's countdown, how long
the players have to type the lists they wrote on paper (0, the server default for
every existing row: a round played in Discord has no such time). A round's
``ends_at`` is then the end of that time, when its lists close.

On SQLite the column is added and dropped in place (``recreate="never"``), as in
0011 and 0014: rebuilding the table would drop it, and its lists by cascade.

Revision ID: 0015_boggle_room
Revises: 0014_henyo_aloud
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_boggle_room"
down_revision = "0014_henyo_aloud"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("boggle_rounds", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("entry_s", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("boggle_rounds", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("entry_s")
