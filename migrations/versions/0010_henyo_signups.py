"""Library Henyo registers on the club's one sign-up list

Every Henyo event gets a ``signup_lists`` row (owner_kind 'henyo', owner_id the
event, capacity its pairs, team_size 2; closed for a closed event) and every
pair a ``signups`` entry with its old position, its registration time and, for
a withdrawn pair, status 'withdrawn' and its time (a disqualified pair stays
entered: it keeps its place). ``henyo_teams`` keeps what only Henyo knows (the
roles, a disqualification) and points at its entry (``signup_id``); its own
``position``, ``registered_at`` and ``withdrawn_at`` go.

On SQLite the table is rebuilt (batch), and dropping the old table would delete
every round of its pairs by cascade (foreign keys are on). So the rounds' team
ids are set aside, cleared for the rebuild (the copy keeps every team's id) and
put back after it.

Revision ID: 0010_henyo_signups
Revises: 0009_events
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_henyo_signups"
down_revision = "0009_events"
branch_labels = None
depends_on = None

OWNER = "henyo"


def _round_teams(bind: sa.Connection) -> list[tuple[int, int]]:
    """The rounds' team ids, cleared so rebuilding henyo_teams deletes no round."""
    rows = [
        (int(r[0]), int(r[1]))
        for r in bind.execute(
            sa.text("SELECT id, team_id FROM henyo_rounds WHERE team_id IS NOT NULL")
        )
    ]
    if rows:
        op.execute("UPDATE henyo_rounds SET team_id = NULL")
    return rows


def _restore_round_teams(bind: sa.Connection, rows: list[tuple[int, int]]) -> None:
    for round_id, team_id in rows:
        bind.execute(
            sa.text("UPDATE henyo_rounds SET team_id = :team WHERE id = :id"),
            {"team": team_id, "id": round_id},
        )


def upgrade() -> None:
    bind = op.get_bind()
    with op.batch_alter_table("henyo_teams", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("signup_id", sa.Integer(), nullable=True))
    events = bind.execute(
        sa.text("SELECT id, guild_id, pairs, status, created_at FROM henyo_events ORDER BY id")
    ).all()
    for event_id, guild_id, pairs, status, created_at in events:
        list_id = bind.execute(
            sa.text(
                "INSERT INTO signup_lists (guild_id, owner_kind, owner_id, capacity, team_size,"
                " status, version, created_at) VALUES (:guild, :owner, :event, :pairs, 2,"
                " :status, 1, :at) RETURNING id"
            ),
            {
                "guild": guild_id,
                "owner": OWNER,
                "event": event_id,
                "pairs": pairs,
                "status": "open" if status == "open" else "closed",
                "at": created_at,
            },
        ).scalar_one()
        teams = bind.execute(
            sa.text(
                "SELECT id, position, guesser_id, answerer_id, status, registered_at,"
                " withdrawn_at FROM henyo_teams WHERE event_id = :event ORDER BY position"
            ),
            {"event": event_id},
        ).all()
        for team_id, position, guesser, answerer, team_status, registered_at, withdrawn in teams:
            signup_id = bind.execute(
                sa.text(
                    "INSERT INTO signups (list_id, position, user_id, partner_id, wants_partner,"
                    " status, created_at, withdrawn_at) VALUES (:list, :position, :guesser,"
                    " :answerer, :no, :status, :at, :withdrawn_at) RETURNING id"
                ),
                {
                    "list": list_id,
                    "position": position,
                    "guesser": guesser,
                    "answerer": answerer,
                    "no": False,
                    "status": "withdrawn" if team_status == "withdrawn" else "entered",
                    "at": registered_at,
                    "withdrawn_at": withdrawn if team_status == "withdrawn" else None,
                },
            ).scalar_one()
            bind.execute(
                sa.text(
                    "UPDATE henyo_teams SET signup_id = :signup,"
                    " status = CASE WHEN status = 'withdrawn' THEN 'registered' ELSE status END"
                    " WHERE id = :id"
                ),
                {"signup": signup_id, "id": team_id},
            )
    rounds = _round_teams(bind)
    with op.batch_alter_table("henyo_teams", schema=None) as batch_op:
        batch_op.alter_column("signup_id", existing_type=sa.Integer(), nullable=False)
        batch_op.drop_constraint("uq_henyo_teams_event_id_position", type_="unique")
        batch_op.create_unique_constraint("uq_henyo_teams_signup_id", ["signup_id"])
        batch_op.create_foreign_key(
            batch_op.f("fk_henyo_teams_signup_id_signups"),
            "signups",
            ["signup_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch_op.drop_column("position")
        batch_op.drop_column("registered_at")
        batch_op.drop_column("withdrawn_at")
    _restore_round_teams(bind, rounds)


def downgrade() -> None:
    bind = op.get_bind()
    with op.batch_alter_table("henyo_teams", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("position", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("registered_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True))
    entries = bind.execute(
        sa.text(
            "SELECT t.id, t.status, s.position, s.status, s.created_at, s.withdrawn_at"
            " FROM henyo_teams t JOIN signups s ON s.id = t.signup_id"
        )
    ).all()
    for team_id, team_status, position, status, created_at, withdrawn_at in entries:
        bind.execute(
            sa.text(
                "UPDATE henyo_teams SET position = :position, registered_at = :at,"
                " withdrawn_at = :withdrawn_at, status = :status WHERE id = :id"
            ),
            {
                "position": position,
                "at": created_at,
                "withdrawn_at": withdrawn_at,
                "status": "withdrawn" if status == "withdrawn" else team_status,
                "id": team_id,
            },
        )
    rounds = _round_teams(bind)
    with op.batch_alter_table("henyo_teams", schema=None) as batch_op:
        batch_op.drop_constraint("fk_henyo_teams_signup_id_signups", type_="foreignkey")
        batch_op.drop_constraint("uq_henyo_teams_signup_id", type_="unique")
        batch_op.drop_column("signup_id")
        batch_op.alter_column("position", existing_type=sa.Integer(), nullable=False)
        batch_op.alter_column(
            "registered_at", existing_type=sa.DateTime(timezone=True), nullable=False
        )
        batch_op.create_unique_constraint(
            "uq_henyo_teams_event_id_position", ["event_id", "position"]
        )
    _restore_round_teams(bind, rounds)
    op.execute("DELETE FROM signup_lists WHERE owner_kind = 'henyo'")
