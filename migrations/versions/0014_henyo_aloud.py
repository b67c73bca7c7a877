"""Henyo played aloud: the host referees a round from a console

``henyo_events.referee`` and ``henyo_rounds.referee`` (``typed`` for every
existing row, the server default: those rounds were refereed from the channel),
``henyo_rounds.show_word_on_screen`` (false: the room's screen keeps the secret),
and ``henyo_presses``, each press of the host's console in order.

On SQLite the columns are added and dropped in place (``recreate="never"``), as
in 0011: rebuilding a table would drop it, and its pairs and rounds by cascade.

Revision ID: 0014_henyo_aloud
Revises: 0013_dm_channels
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_henyo_aloud"
down_revision = "0013_dm_channels"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("henyo_events", "henyo_rounds"):
        with op.batch_alter_table(table, schema=None, recreate="never") as batch_op:
            batch_op.add_column(
                sa.Column("referee", sa.String(length=8), nullable=False, server_default="typed")
            )
    with op.batch_alter_table("henyo_rounds", schema=None, recreate="never") as batch_op:
        batch_op.add_column(
            sa.Column(
                "show_word_on_screen", sa.Boolean(), nullable=False, server_default=sa.false()
            )
        )
    op.create_table(
        "henyo_presses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("via", sa.String(length=8), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("elapsed_ms", sa.Integer(), nullable=True),
        sa.Column("undone", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("reverts", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["henyo_rounds.id"],
            name=op.f("fk_henyo_presses_round_id_henyo_rounds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_henyo_presses")),
        sa.UniqueConstraint("round_id", "seq", name="uq_henyo_presses_round_id_seq"),
    )


def downgrade() -> None:
    op.drop_table("henyo_presses")
    with op.batch_alter_table("henyo_rounds", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("show_word_on_screen")
    for table in ("henyo_events", "henyo_rounds"):
        with op.batch_alter_table(table, schema=None, recreate="never") as batch_op:
            batch_op.drop_column("referee")
