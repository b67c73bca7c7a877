"""Tournaments: entrants, rounds, pairings, the director's log

Revision ID: 0008_tournaments
Revises: 0007_signups_sessions
Create Date: 2026-12-02
"""

from __future__ import annotations

revision = "0008_tournaments"
down_revision = "0007_signups_sessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
