"""Henyo's strict mode: an event or a round may take the bare Oo / Hindi / Pwede only

``henyo_events.strict`` and ``henyo_rounds.strict``, false for every existing
row (the server default): before this revision the polite forms (Opo, Oo po,
Hindi po, Pwede po) were penalised everywhere; from now on they are allowed
unless the host asks for ``strict``.

On SQLite the columns are added and dropped in place (``recreate="never"``):
rebuilding either table would drop the old one, and with foreign keys on that
deletes every pair and round of its events by cascade.

Revision ID: 0011_henyo_strict
Revises: 0010_henyo_signups
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_henyo_strict"
down_revision = "0010_henyo_signups"
branch_labels = None
depends_on = None

TABLES = ("henyo_events", "henyo_rounds")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table, schema=None, recreate="never") as batch_op:
            batch_op.add_column(
                sa.Column("strict", sa.Boolean(), nullable=False, server_default=sa.false())
            )


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table, schema=None, recreate="never") as batch_op:
            batch_op.drop_column("strict")
