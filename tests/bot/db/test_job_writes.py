"""A unit of work's job changes go out together (issue #32): a Scrabble play moved its
turn clock and reminder and cancelled its ending window, a chess move its flag and
reminder, a statement each. They are queued, the last word per key wins, and are
written as one upsert (and, on SQLite, one cancel beside it; on PostgreSQL the cancel
rides in the same statement) before the unit of work's next statement or commit.

Statements are counted as the driver is handed them (``before_cursor_execute``) on
SQLite and on PostgreSQL."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import event, select

from bot.db.models import GameRecord, JobRecord
from bot.services import ServiceContext
from bot.services.chess import ChessService, PlayerRef
from tests.bot.services.scrabble_support import Words, first_play, make_service, request, started
from tests.clock import FakeClock

_JOB_WRITE = re.compile(r"\b(INSERT INTO|UPDATE) jobs\b")


@contextmanager
def statements(ctx: ServiceContext) -> Iterator[list[str]]:
    """Every statement the test's database is sent meanwhile, in order."""
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement)

    engine = ctx.session_factory.kw["bind"].sync_engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", record)


def job_writes(sent: list[str]) -> list[str]:
    """The statements that write jobs (a statement with a cancel in its WITH is one)."""
    return [s for s in sent if _JOB_WRITE.search(s)]


def on_postgres(ctx: ServiceContext) -> bool:
    return ctx.session_factory.kw["bind"].dialect.name == "postgresql"


async def due_jobs(ctx: ServiceContext) -> dict[str, tuple[dict[str, Any], datetime]]:
    """The pending jobs by key: their payloads and due times."""
    async with ctx.reader() as uow:
        rows = await uow.session.execute(
            select(JobRecord.key, JobRecord.payload, JobRecord.due_at).where(
                JobRecord.status == "due"
            )
        )
        return {key: (payload, due_at) for key, payload, due_at in rows if key}


async def test_a_scrabble_play_writes_its_timers_together(ctx: ServiceContext) -> None:
    service = make_service(ctx, Words())
    game_id = await started(service, request(clock="1d"))
    with statements(ctx) as sent:
        await first_play(service, ctx, game_id)
    writes = job_writes(sent)
    # The turn clock and its reminder moved, the ending window (none) cancelled: three
    # statements before, one now (the cancel apart on SQLite, which has no UPDATE in WITH).
    if on_postgres(ctx):
        assert len(writes) == 1, writes
    else:
        assert [w.split()[0].upper() for w in writes] == ["UPDATE", "INSERT"], writes
    jobs = await due_jobs(ctx)
    for purpose in ("turn", "reminder"):
        assert jobs[f"scrabble:{game_id}:{purpose}"][0]["moves"] == 1


async def test_a_chess_move_writes_its_timers_in_one_statement(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    alice, bob = PlayerRef(1, "alice"), PlayerRef(2, "bob")
    service = ChessService(ctx, engine=None, rng=random.Random(7))
    snap = await service.starting.challenge(
        guild_id=10,
        guild_name="Club",
        channel_id=20,
        challenger=alice,
        opponent=bob,
        time_control="3d",
        color="white",
    )
    await service.starting.accept(snap.game_id, bob)
    await service.starting.open_in(snap.game_id, 30)
    with statements(ctx) as sent:
        await service.moves.play(snap.game_id, alice.user_id, "e4", reply_channel_id=30)
    assert len(job_writes(sent)) == 1, job_writes(sent)  # the flag and the reminder: two before
    jobs = await due_jobs(ctx)
    for name in ("timeout", "reminder"):
        assert jobs[f"chess:{name}:{snap.game_id}"][0]["ply"] == 1


async def test_the_last_word_for_a_key_wins(ctx: ServiceContext, clock: FakeClock) -> None:
    now = clock()
    async with ctx.uow() as uow:
        for key in ("was:due", "was:moved-twice"):
            await uow.jobs.schedule("test", now + timedelta(days=1), {"n": 0}, key=key)
        await uow.commit()
    with statements(ctx) as sent:
        async with ctx.uow() as uow:
            # scheduled then cancelled: a cancel (nothing was pending, nothing is)
            await uow.jobs.schedule("test", now + timedelta(hours=1), {"n": 1}, key="new")
            await uow.jobs.cancel("new")
            # cancelled then scheduled: a schedule
            await uow.jobs.cancel("was:due")
            await uow.jobs.schedule("test", now + timedelta(hours=2), {"n": 2}, key="was:due")
            # scheduled twice: the second
            for n in (3, 4):
                due = now + timedelta(hours=n)
                await uow.jobs.schedule("test", due, {"n": n}, key="was:moved-twice")
            await uow.commit()
    assert len(job_writes(sent)) == (1 if on_postgres(ctx) else 2), job_writes(sent)
    jobs = await due_jobs(ctx)
    assert set(jobs) == {"was:due", "was:moved-twice"}
    assert jobs["was:due"] == ({"n": 2}, now + timedelta(hours=2))
    assert jobs["was:moved-twice"] == ({"n": 4}, now + timedelta(hours=4))
    async with ctx.reader() as uow:
        assert await uow.jobs.by_key("new") is None


async def test_what_a_unit_of_work_does_next_sees_its_job_changes(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    now = clock()
    async with ctx.uow() as uow:
        await uow.jobs.schedule("test", now + timedelta(days=1), {}, key="pending")
        await uow.commit()
    with statements(ctx) as sent:
        async with ctx.uow() as uow:
            await uow.jobs.cancel("pending")
            await uow.jobs.schedule("test", now + timedelta(days=2), {"n": 1}, key="fresh")
            # the next statement, whatever it reads, goes out after the job changes
            # (so locks are taken in the order the unit of work asked for them)
            assert await uow.session.get(GameRecord, 1) is None
            rows = await uow.session.execute(select(JobRecord.key, JobRecord.status))
            assert dict(rows.all()) == {"pending": "cancelled", "fresh": "due"}
            first_read = next(i for i, s in enumerate(sent) if s.lstrip().startswith("SELECT"))
            assert job_writes(sent[:first_read]) and not job_writes(sent[first_read:])
            await uow.commit()


async def test_job_changes_rolled_back_are_never_sent(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    with statements(ctx) as sent:
        async with ctx.uow() as uow:
            await uow.jobs.schedule("test", clock(), {}, key="forgotten")
        async with ctx.uow() as uow:  # nothing to write: no statement either
            await uow.commit()
    assert job_writes(sent) == []
    async with ctx.reader() as uow:
        assert await uow.jobs.by_key("forgotten") is None


async def test_a_job_queued_before_a_savepoint_outlives_its_rollback(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    async with ctx.uow() as uow:
        await uow.jobs.schedule("test", clock(), {}, key="before")
        try:
            async with uow.session.begin_nested():
                raise RuntimeError("the savepoint's work fails")
        except RuntimeError:
            pass
        await uow.commit()
    async with ctx.reader() as uow:
        job = await uow.jobs.by_key("before")
        assert job is not None and job.status == "due"


async def test_a_job_queued_in_a_savepoint_rolled_back_is_not_written(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    async with ctx.uow() as uow:
        try:
            async with uow.session.begin_nested():
                await uow.jobs.schedule("test", clock(), {}, key="inside")
                raise RuntimeError("the savepoint's work fails")
        except RuntimeError:
            pass
        await uow.commit()
    async with ctx.reader() as uow:
        assert await uow.jobs.by_key("inside") is None
