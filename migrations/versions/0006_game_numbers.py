"""Games: a number per guild and game kind (Chess #1 is the club's first chess game)

Revision ID: 0006_game_numbers
Revises: 0005_command_syncs
Create Date: 2026-12-02
"""

from __future__ import annotations

revision = "0006_game_numbers"
down_revision = "0005_command_syncs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
