"""The durable timers' rows, as services see them: schedule, move or cancel a job
inside the caller's unit of work (the scheduler claims and runs them).

A unit of work's job changes are queued and written together (issue #32: a move
moved two or three timers, a statement each): the last word for a key wins (a
schedule then a cancel of one key is a cancel, a cancel then a schedule a schedule,
two schedules the second), and the queue goes out as at most one upsert of every
job scheduled (multi-row VALUES … ON CONFLICT) and one cancel (``key IN (…)``), on
PostgreSQL as one statement. It is written by the session (``bot.db.session``)
before the unit of work's next statement, flush or commit, so whatever the unit of
work reads or writes after a schedule or cancel (``by_key``, the game it saves
next) finds the jobs as if each had been written when it was asked for, and row
locks are taken in the same order as before."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from bot.db.models import JobRecord, utcnow
from bot.db.session import ClubSession, defer_write
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
# In ``session.info``: the session's job changes not yet written (``_JobWrites``).
QUEUED = "clubbot_job_writes"

_JOBS: Table = JobRecord.__table__  # type: ignore[assignment]
_GIVEN = ("key", "kind", "payload", "due_at", "created_at")
# A job scheduled or moved is due again from scratch; these columns say so.
_FRESH: dict[str, Any] = {
    "status": "due",
    "attempts": 0,
    "claimed_by": None,
    "lease_until": None,
    "finished_at": None,
}
_PENDING = ("due", "claimed")
# Rows per upsert: a tournament's round may schedule a job per board at once.
_MOST_ROWS = 200
_STATEMENTS: dict[tuple[str, int, bool], Any] = {}


def _cancel() -> Any:
    return (
        update(_JOBS)
        .where(_JOBS.c.key.in_(bindparam("cancel_keys", expanding=True)))
        .where(_JOBS.c.status.in_(_PENDING))
        .values(status="cancelled", finished_at=bindparam("cancelled_at"))
    )


def _statement(dialect: str, rows: int, cancelling: bool) -> Any:
    """Add ``rows`` jobs, a keyed one moving the job with its key (due again, from
    scratch), and with ``cancelling`` (PostgreSQL) cancel the keys ``cancel_keys`` in
    the same statement; ``rows`` 0 is the cancel alone. Built once per shape with its
    parameters bound at execution (building and hashing a statement at every move
    costs more CPU than a round trip)."""
    shape = (dialect, rows, cancelling)
    statement = _STATEMENTS.get(shape)
    if statement is not None:
        return statement
    if rows == 0:
        statement = _cancel()
    else:
        insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
        values = [
            {name: bindparam(f"{name}_{row}", type_=_JOBS.c[name].type) for name in _GIVEN}
            | {"status": "due", "attempts": 0}
            for row in range(rows)
        ]
        base = insert(_JOBS).values(values)
        moved = {name: base.excluded[name] for name in ("kind", "payload", "due_at")} | _FRESH
        statement = base.on_conflict_do_update(index_elements=[_JOBS.c.key], set_=moved)
        if cancelling:  # disjoint keys: no row is touched twice
            statement = statement.add_cte(_cancel().returning(_JOBS.c.id).cte("cancelled"))
    _STATEMENTS[shape] = statement
    return statement


class _JobWrites:
    """One session's job changes not yet written, the last word per key."""

    __slots__ = ("cancels", "moves", "unkeyed")

    def __init__(self) -> None:
        self.moves: dict[str, dict[str, Any]] = {}  # key -> the row it is due as
        self.cancels: set[str] = set()
        self.unkeyed: list[dict[str, Any]] = []

    def __bool__(self) -> bool:
        return bool(self.moves or self.cancels or self.unkeyed)

    def discard(self) -> None:
        self.moves, self.cancels, self.unkeyed = {}, set(), []

    def write(self, session: Session) -> None:
        moves, cancels, unkeyed = self.moves, self.cancels, self.unkeyed
        self.discard()  # what follows may fail: the transaction is lost then anyway
        # In key order, so two units of work lock the rows they share in one order.
        rows = [moves[key] for key in sorted(moves)] + unkeyed
        dialect = session.get_bind().dialect.name
        cancel_params: dict[str, Any] = {}
        if cancels:
            cancel_params = {"cancel_keys": sorted(cancels), "cancelled_at": utcnow()}
            if not rows or dialect != "postgresql":
                session.execute(_statement(dialect, 0, False), cancel_params)
        for start in range(0, len(rows), _MOST_ROWS):
            chunk = rows[start : start + _MOST_ROWS]
            params = {
                f"{name}_{row}": values[name] for row, values in enumerate(chunk) for name in _GIVEN
            }
            cancelling = bool(cancel_params) and dialect == "postgresql"
            if cancelling:
                params |= cancel_params
                cancel_params = {}
            session.execute(_statement(dialect, len(chunk), cancelling), params)


def _held(session: AsyncSession, key: str) -> list[JobRecord]:
    """The session's own copies of the job with ``key`` (usually none: a job's run
    holds its own row)."""
    held = []
    for state in session.identity_map.all_states():
        if state.class_ is JobRecord:
            job = state.obj()
            if job is not None and job.__dict__.get("key") == key:
                held.append(job)
    return held


class JobRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def _note_due(self, due_at: datetime) -> None:
        earliest = self.session.info.get(EARLIEST_DUE)
        if earliest is None or due_at < earliest:
            self.session.info[EARLIEST_DUE] = due_at

    def _queue(self) -> _JobWrites:
        if not isinstance(self.session.sync_session, ClubSession):
            # Nothing would send the queue: a unit of work's sessions come from
            # bot.db.engine.create_session_factory.
            raise TypeError("jobs are scheduled on a ClubSession (a unit of work's session)")
        info = self.session.info
        queue: _JobWrites | None = info.get(QUEUED)
        if queue is None:
            queue = info[QUEUED] = _JobWrites()
        if not queue:  # empty: not waiting to be written
            defer_write(info, queue)
        return queue

    async def schedule(
        self,
        kind: str,
        due_at: datetime,
        payload: dict[str, Any] | None = None,
        *,
        key: str | None = None,
    ) -> None:
        """Add a job, or with the same ``key`` move the pending one (due again, from
        scratch); written with the unit of work's other job changes (see the module).

        A copy of the job the session holds (a job that reschedules itself) is
        updated at once."""
        self._note_due(due_at)
        row: dict[str, Any] = {
            "key": key,
            "kind": kind,
            "payload": _with_guild(payload),
            "due_at": due_at,
            "created_at": utcnow(),
        }
        queue = self._queue()
        if key is None:
            queue.unkeyed.append(row)
            return
        queue.cancels.discard(key)
        queue.moves[key] = row
        for job in _held(self.session, key):
            moved = {"kind": kind, "payload": dict(row["payload"]), "due_at": due_at}
            for name, value in (moved | _FRESH).items():
                set_committed_value(job, name, value)

    async def cancel(self, key: str) -> None:
        """Cancel a pending job by key (a job already done is left alone); written
        with the unit of work's other job changes (see the module)."""
        queue = self._queue()
        queue.moves.pop(key, None)
        queue.cancels.add(key)
        for job in _held(self.session, key):
            if job.__dict__.get("status") in _PENDING:
                set_committed_value(job, "status", "cancelled")
                set_committed_value(job, "finished_at", utcnow())

    async def by_key(self, key: str) -> JobRecord | None:
        """The job with ``key``, as this unit of work left it (its queued changes are
        written before the read)."""
        return (
            await self.session.execute(select(JobRecord).where(JobRecord.key == key))
        ).scalar_one_or_none()
