"""A commit wakes the scheduler only for a job due before its next look (issue #32):
a move moves its turn clock days ahead, and waking for that cost two transactions
per command for nothing; a job due now is still run at once."""

from __future__ import annotations

from datetime import timedelta

from bot.services import ServiceContext
from tests.clock import FakeClock


async def test_a_job_due_in_days_does_not_wake_the_scheduler(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    async with ctx.uow() as uow:
        await uow.jobs.schedule("test", clock() + timedelta(days=3), {}, key="turn:1")
        await uow.commit()
    assert not ctx.scheduler._wake.is_set()

    async with ctx.uow() as uow:  # nothing scheduled at all
        await uow.commit()
    assert not ctx.scheduler._wake.is_set()


async def test_a_job_due_before_the_next_look_wakes_it(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    async with ctx.uow() as uow:
        await uow.jobs.schedule("test", clock() + timedelta(days=3), {}, key="turn:1")
        await uow.jobs.schedule("test", clock(), {}, key="computer:1")  # due now
        await uow.commit()
    assert ctx.scheduler._wake.is_set()


async def test_a_rescheduled_job_is_the_sessions_copy_too(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    # A job's run holds its own row: when it moves itself, the copy follows at once
    # (the move itself is queued and written with the unit of work's other job changes).
    async with ctx.uow() as uow:
        await uow.jobs.schedule("test", clock() + timedelta(days=1), {"n": 1}, key="k")
        held = await uow.jobs.by_key("k")
        assert held is not None and held.payload == {"n": 1}
        await uow.jobs.schedule("test", clock() + timedelta(days=2), {"n": 2}, key="k")
        assert held.payload == {"n": 2} and held.status == "due"
        assert held.due_at == clock() + timedelta(days=2)
        await uow.commit()
    async with ctx.reader() as uow:
        job = await uow.jobs.by_key("k")
        assert job is not None and job.payload == {"n": 2}
        assert job.due_at == clock() + timedelta(days=2)
