"""Durable timers: job rows with a due time, claimed with a lease and run once.

Lifecycle: ``due → claimed (by one process, until lease_until) → done``; a failed
run goes back to ``due`` with backoff and is ``parked`` after ``max_attempts``.
A job's database effects and its ``done`` mark commit in one transaction, so an
interrupted job runs again from the start and a finished job never runs twice.
A claim whose lease expired (its process died) is due again.

A job kind may register a ``prepare`` step: slow work (a chess engine's move,
the Scrabble computer's search) that runs *before* the job's transaction,
from the payload alone, so it never holds the database's write lock (SQLite
has one for the whole file). Its result is handed to the handler, which must
check it still applies (the game may have moved meanwhile) and may do the
work itself when it gets None.

Claiming is a compare-and-set ``UPDATE … WHERE status …``; on PostgreSQL the
candidates are first picked with ``FOR UPDATE SKIP LOCKED`` so several processes
don't queue behind each other's rows.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import and_, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.dml import rowcount
from bot.db.engine import create_read_session_factory
from bot.db.models import JobRecord, utcnow
from bot.db.uow import ReadUnitOfWork, UnitOfWork
from bot.messages.i18n import language_of, use_language

log = logging.getLogger(__name__)

JobHandler = Callable[
    ..., Awaitable[None]
]  # (uow, job) or, with a prepare step, (uow, job, prepared)
JobPreparer = Callable[[dict[str, Any]], Awaitable[Any]]
Clock = Callable[[], datetime]


def default_process_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


@dataclass(frozen=True)
class JobSpec:
    """How one job kind runs: its ``on_<event>`` handler and an optional prepare step."""

    handler: JobHandler
    prepare: JobPreparer | None = None


class HasJobs(Protocol):
    """Every service with timers says which job kinds it handles, one way:
    ``job_handlers()`` maps each kind to its ``on_<event>`` method."""

    def job_handlers(self) -> Mapping[str, JobSpec]: ...


@dataclass
class JobOutcome:
    job_id: int
    kind: str
    ok: bool


class Scheduler:
    def __init__(
        self,
        session_factory: async_sessionmaker[AsyncSession],
        *,
        process_id: str | None = None,
        clock: Clock = utcnow,
        lease: timedelta = timedelta(seconds=120),
        poll_seconds: float = 1.0,
        max_attempts: int = 5,
        batch_size: int = 20,
    ) -> None:
        self._factory = session_factory
        self.process_id = process_id or default_process_id()
        self.clock = clock
        self.lease = lease
        self.poll_seconds = poll_seconds
        self.max_attempts = max_attempts
        self.batch_size = batch_size
        self.handlers: dict[str, JobHandler] = {}
        self.preparers: dict[str, JobPreparer] = {}
        self._claimed: dict[
            int, tuple[str, dict[str, Any]]
        ] = {}  # kind and payload, from the claim
        self._wake = asyncio.Event()
        self._read_factory: async_sessionmaker[AsyncSession] | None = None
        self._stopping = False
        self.after_job: list[Callable[[JobOutcome], None]] = []

    def register(
        self, kind: str, handler: JobHandler, *, prepare: JobPreparer | None = None
    ) -> None:
        """``handler(uow, job)`` runs in the job's transaction; with ``prepare``,
        ``prepare(payload)`` runs first, outside any transaction, and the handler
        is called as ``handler(uow, job, prepared)``."""
        if kind in self.handlers:
            raise ValueError(f"a handler for job kind {kind!r} is already registered")
        self.handlers[kind] = handler
        if prepare is not None:
            self.preparers[kind] = prepare

    def register_service(self, service: HasJobs) -> None:
        """Register every job kind a service handles (its ``job_handlers()``)."""
        for kind, spec in service.job_handlers().items():
            self.register(kind, spec.handler, prepare=spec.prepare)

    def wake(self) -> None:
        """Look for due jobs now (call after committing a job due soon)."""
        self._wake.set()

    def wake_for(self, uow: UnitOfWork) -> Callable[[], None]:
        """An after-commit hook: wake the scheduler if ``uow`` scheduled a job due
        before its next look (within ``poll_seconds``). A move reschedules its turn
        clock days ahead: waking for it cost two transactions for nothing."""

        def wake_if_due_soon() -> None:
            due = uow.earliest_job_due
            if due is not None and due <= self.clock() + timedelta(seconds=self.poll_seconds):
                self._wake.set()

        return wake_if_due_soon

    def _due_condition(self, now: datetime) -> Any:
        return or_(
            and_(JobRecord.status == "due", JobRecord.due_at <= now),
            and_(JobRecord.status == "claimed", JobRecord.lease_until < now),
        )

    async def claim(self, limit: int | None = None) -> list[int]:
        """Claim up to ``limit`` due jobs for this process; return their ids."""
        now = self.clock()
        limit = limit or self.batch_size
        async with self._factory() as session:
            stmt = (
                select(JobRecord.id, JobRecord.kind, JobRecord.payload)
                .where(self._due_condition(now), JobRecord.kind.in_(list(self.handlers)))
                .order_by(JobRecord.due_at, JobRecord.id)
                .limit(limit)
            )
            if session.get_bind().dialect.name == "postgresql":
                stmt = stmt.with_for_update(skip_locked=True)
            rows = list(await session.execute(stmt))
            info = {row.id: (row.kind, dict(row.payload or {})) for row in rows}
            claimed = []
            for job_id in info:
                result = await session.execute(
                    update(JobRecord)
                    .where(JobRecord.id == job_id, self._due_condition(now))
                    .values(
                        status="claimed", claimed_by=self.process_id, lease_until=now + self.lease
                    )
                )
                if rowcount(result) == 1:
                    claimed.append(job_id)
            await session.commit()
        for job_id in claimed:
            self._claimed[job_id] = info[job_id]
        return claimed

    async def _language_for(self, payload: Mapping[str, Any]) -> tuple[str, int | None]:
        """The language of the guild a job was scheduled for (``guild_id`` in its
        payload), read as it is now; without one, the default."""
        guild_id = payload.get("guild_id")
        if not isinstance(guild_id, int):
            return language_of(None), None
        async with ReadUnitOfWork(self._reader()) as uow:
            guild = await uow.guilds.get(guild_id)
            return language_of(guild.settings if guild else None), guild_id

    async def run_job(self, job_id: int) -> JobOutcome | None:
        """Run one claimed job: its effects and its ``done`` commit together."""
        uow = UnitOfWork(self._factory)
        kind, payload = self._claimed.pop(job_id, ("?", None))
        try:
            prepared = None
            preparer = self.preparers.get(kind)
            if preparer is not None and payload is not None:
                # Outside any transaction, and in the job's guild's language as its
                # handler is: a preparer writes posts too (a round's game threads).
                language, guild_id = await self._language_for(payload)
                with use_language(language, guild_id):
                    prepared = await preparer(payload)
            async with uow:
                job = await uow.session.get(JobRecord, job_id)
                if job is None:
                    return None
                kind = job.kind
                # Take the row (and, on PostgreSQL, its lock) before doing the work:
                # if our lease was lost to another process, do nothing.
                result = await uow.session.execute(
                    update(JobRecord)
                    .where(
                        JobRecord.id == job_id,
                        JobRecord.status == "claimed",
                        JobRecord.claimed_by == self.process_id,
                    )
                    .values(status="done", finished_at=self.clock(), last_error=None)
                    .execution_options(synchronize_session=False)
                )
                if rowcount(result) != 1:
                    return None
                await uow.session.refresh(job)
                handler = self.handlers[job.kind]
                # A job speaks its guild's language as it is now (the guild it was
                # scheduled for is in its payload: JobRepository.schedule).
                guild_id = job.payload.get("guild_id") if job.payload else None
                guild = await uow.guilds.get(guild_id) if isinstance(guild_id, int) else None
                with use_language(language_of(guild.settings if guild else None), guild_id):
                    if job.kind in self.preparers:
                        await handler(uow, job, prepared)
                    else:
                        await handler(uow, job)
                await uow.commit()
            outcome = JobOutcome(job_id, kind, True)
        except Exception as exc:
            log.exception("job %s (%s) failed", job_id, kind)
            await self._record_failure(job_id, exc)
            outcome = JobOutcome(job_id, kind, False)
        for hook in self.after_job:
            try:
                hook(outcome)
            except Exception:
                log.exception("after-job hook failed")
        return outcome

    async def _record_failure(self, job_id: int, exc: BaseException) -> None:
        async with self._factory() as session:
            job = await session.get(JobRecord, job_id)
            if job is None or job.claimed_by != self.process_id:
                return
            job.attempts += 1
            job.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            job.claimed_by = None
            job.lease_until = None
            if job.attempts >= self.max_attempts:
                job.status = "parked"
                log.error("job %s (%s) parked after %s attempts", job_id, job.kind, job.attempts)
            else:
                job.status = "due"
                job.due_at = self.clock() + timedelta(seconds=min(300, 2**job.attempts))
            await session.commit()

    async def run_due(self, limit: int | None = None) -> list[JobOutcome]:
        """Claim and run everything due now (one pass)."""
        outcomes = []
        for job_id in await self.claim(limit):
            outcome = await self.run_job(job_id)
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

    def _reader(self) -> async_sessionmaker[AsyncSession]:
        """Sessions for lookups (on PostgreSQL without a transaction of their own)."""
        if self._read_factory is None:
            bind = self._factory.kw.get("bind")
            self._read_factory = (
                create_read_session_factory(bind) if bind is not None else self._factory
            )
        return self._read_factory

    async def next_due_in(self) -> float | None:
        async with self._reader()() as session:
            due = (
                await session.execute(
                    select(JobRecord.due_at)
                    .where(JobRecord.status == "due", JobRecord.kind.in_(list(self.handlers)))
                    .order_by(JobRecord.due_at)
                    .limit(1)
                )
            ).scalar_one_or_none()
        if due is None:
            return None
        return max(0.0, (due - self.clock()).total_seconds())

    def stop(self) -> None:
        """Finish the pass under way and return from ``run_forever`` (a clean
        shutdown: a job cancelled mid-transaction would have its rollback cut off)."""
        self._stopping = True
        self._wake.set()

    async def run_forever(self) -> None:
        """Poll for due jobs until stopped or cancelled. Errors are logged, never fatal."""
        while not self._stopping:
            try:
                while not self._stopping and await self.run_due():
                    pass
                wait = await self.next_due_in()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler pass failed")
                wait = None
            if self._stopping:
                return
            timeout = self.poll_seconds if wait is None else min(self.poll_seconds, wait)
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=timeout)
            except TimeoutError:
                pass
