"""The durable timers' rows, as services see them: schedule, move or cancel a job
inside the caller's unit of work (the scheduler claims and runs them)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.dml import rowcount
from bot.db.models import JobRecord, utcnow
from bot.messages.i18n import current_guild


def _with_guild(payload: dict[str, Any] | None) -> dict[str, Any]:
    """The payload with the guild being served, so the job speaks that guild's
    language when it runs (a payload that names its guild keeps its own)."""
    payload = dict(payload or {})
    guild_id = current_guild()
    if guild_id is not None:
        payload.setdefault("guild_id", guild_id)
    return payload


# In ``session.info``: the earliest due time of the jobs this session scheduled, so
# the scheduler is woken after the commit only when one is due before its next look.
EARLIEST_DUE = "clubbot_earliest_job_due"


_UPSERTS: dict[str, Any] = {}


def _upsert(dialect: str) -> Any:
    """Add a keyed job or move the one with its key (due again, from scratch), the
    row returned: one statement, built once per dialect with its parameters bound at
    execution (built afresh at every move, its construction and cache key cost more
    CPU than the round trip it saved)."""
    statement = _UPSERTS.get(dialect)
    if statement is None:
        insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
        given = ("key", "kind", "payload", "due_at", "created_at")
        base = insert(JobRecord).values(
            {name: bindparam(name) for name in given} | {"status": "due", "attempts": 0}
        )
        moved: dict[str, Any] = {n: base.excluded[n] for n in ("kind", "payload", "due_at")}
        moved |= {
            "status": "due",
            "attempts": 0,
            "claimed_by": None,
            "lease_until": None,
            "finished_at": None,
        }
        statement = base.on_conflict_do_update(
            index_elements=[JobRecord.key], set_=moved
        ).returning(JobRecord)
        _UPSERTS[dialect] = statement
    return statement


class JobRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def _note_due(self, due_at: datetime) -> None:
        earliest = self.session.info.get(EARLIEST_DUE)
        if earliest is None or due_at < earliest:
            self.session.info[EARLIEST_DUE] = due_at

    async def schedule(
        self,
        kind: str,
        due_at: datetime,
        payload: dict[str, Any] | None = None,
        *,
        key: str | None = None,
    ) -> JobRecord:
        """Add a job, or with the same ``key`` move the pending one (due again, from scratch).

        A keyed job is one statement, an upsert (a turn's clock is moved at every
        move: a read and a write were two round trips); the row it returns replaces
        the session's copy, so a job that reschedules itself sees its new state."""
        self._note_due(due_at)
        if key is None:
            job = JobRecord(
                kind=kind, payload=_with_guild(payload), due_at=due_at, status="due", attempts=0
            )
            self.session.add(job)
            await self.session.flush()
            return job
        params = {
            "key": key,
            "kind": kind,
            "payload": _with_guild(payload),
            "due_at": due_at,
            "created_at": utcnow(),
        }
        upserted: JobRecord = (
            await self.session.scalars(
                _upsert(self.session.get_bind().dialect.name),
                params,
                execution_options={"populate_existing": True},
            )
        ).one()
        return upserted

    async def cancel(self, key: str) -> bool:
        """Cancel a pending job by key; a job already done is left alone."""
        result = await self.session.execute(
            update(JobRecord)
            .where(JobRecord.key == key, JobRecord.status.in_(("due", "claimed")))
            .values(status="cancelled", finished_at=utcnow())
        )
        return rowcount(result) > 0

    async def by_key(self, key: str) -> JobRecord | None:
        return (
            await self.session.execute(select(JobRecord).where(JobRecord.key == key))
        ).scalar_one_or_none()
