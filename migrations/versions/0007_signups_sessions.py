"""Sign-ups (one waiting-list mechanism) and the society's club sessions

Revision ID: 0007_signups_sessions
Revises: 0006_game_numbers
Create Date: 2026-12-02
"""

from __future__ import annotations

revision = "0007_signups_sessions"
down_revision = "0006_game_numbers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
