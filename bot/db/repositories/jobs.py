"""The durable timers' rows, as services see them: schedule, move or cancel a job
inside the caller's unit of work (the scheduler claims and runs them)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, update
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


class JobRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def schedule(
        self,
        kind: str,
        due_at: datetime,
        payload: dict[str, Any] | None = None,
        *,
        key: str | None = None,
    ) -> JobRecord:
        """Add a job, or with the same ``key`` move the pending one (due again, from scratch)."""
        if key is not None:
            existing = await self.by_key(key)
            if existing is not None:
                existing.kind = kind
                existing.payload = _with_guild(payload)
                existing.due_at = due_at
                existing.status = "due"
                existing.attempts = 0
                existing.claimed_by = None
                existing.lease_until = None
                existing.finished_at = None
                return existing
        job = JobRecord(
            kind=kind,
            key=key,
            payload=_with_guild(payload),
            due_at=due_at,
            status="due",
            attempts=0,
        )
        self.session.add(job)
        await self.session.flush()
        return job

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
