"""Join the Boggle, Henyo and leaderboard branches into one head.

Each feature branched off 0001 on its own; this revision changes nothing in the
schema. From here ``alembic upgrade head`` (singular) works again, and new
revisions have a single parent.

Revision ID: 0003_merge_features
Revises: 0002_boggle, 0002_henyo, 0002_leaderboard
"""

revision = "0003_merge_features"
down_revision = ("0002_boggle", "0002_henyo", "0002_leaderboard")
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
