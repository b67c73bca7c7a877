"""Games events: the library's prize event across games

Revision ID: 0009_events
Revises: 0008_tournaments
Create Date: 2026-12-02
"""

from __future__ import annotations

revision = "0009_events"
down_revision = "0008_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
