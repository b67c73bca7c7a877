"""Boggle in the room, every week: a weekly round's time to type the paper lists

``boggle_schedules.entry_s``: a weekly round played in the room (``/boggle schedule
where:room``) gives each of its rounds this time to type the lists after the
countdown, as ``/boggle start where:room`` does (0, the server default for every
existing schedule: its rounds are played in Discord).

On SQLite the column is added and dropped in place (``recreate="never"``), as in
0015: the table is small, but rebuilding it is needless.

Revision ID: 0018_boggle_schedule_room
Revises: 0017_seeks
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_boggle_schedule_room"
down_revision = "0017_seeks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("boggle_schedules", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("entry_s", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("boggle_schedules", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("entry_s")
