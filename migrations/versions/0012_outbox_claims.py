"""Outbox rows are claimed before they are sent: ``claimed_by`` and ``claimed_until``

Several processes share one database: each claims the rows it sends (a lease,
taken in a short transaction with ``FOR UPDATE SKIP LOCKED`` on PostgreSQL), sends
them with no transaction open, and marks them sent. A claim whose lease ran out
(its process died mid-send) is anyone's again; the post's nonce keeps a resend
from showing twice. Existing rows are unclaimed.

Revision ID: 0012_outbox_claims
Revises: 0011_henyo_strict
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_outbox_claims"
down_revision = "0011_henyo_strict"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("claimed_by", sa.String(64), nullable=True))
        batch_op.add_column(sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("claimed_until")
        batch_op.drop_column("claimed_by")
