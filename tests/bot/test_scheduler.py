"""The durable scheduler on a real SQLite file and on PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime, timedelta

from sqlalchemy import func, select

from bot.db.models import GuildRecord, JobRecord
from bot.db.uow import UnitOfWork
from bot.messages.i18n import current_guild, current_language
from bot.scheduler import Scheduler
from tests.clock import FakeClock


async def _schedule(factory, kind: str, due: datetime, payload=None, key=None) -> None:
    async with UnitOfWork(factory) as uow:
        await uow.jobs.schedule(kind, due, payload or {}, key=key)
        await uow.commit()


async def test_job_due_while_the_bot_was_down_runs_once_at_start(
    session_factory, clock: FakeClock
) -> None:
    t0 = clock.start
    await _schedule(session_factory, "remind", t0 - timedelta(hours=3))
    ran: list[int] = []

    async def handler(uow, job):
        ran.append(job.id)

    first = Scheduler(session_factory, clock=clock)
    first.register("remind", handler)
    assert len(await first.run_due()) == 1
    # A second start (or a second pass) finds nothing to do.
    second = Scheduler(session_factory, clock=clock)
    second.register("remind", handler)
    assert await second.run_due() == []
    assert len(ran) == 1


async def test_jobs_not_yet_due_wait(session_factory, clock: FakeClock) -> None:
    t0 = clock.start
    await _schedule(session_factory, "remind", t0 + timedelta(minutes=5))
    sched = Scheduler(session_factory, clock=clock)
    calls = []

    async def handler(uow, job):
        calls.append(job.id)

    sched.register("remind", handler)
    assert await sched.run_due() == []
    assert 299 <= await sched.next_due_in() <= 300
    clock.now = t0 + timedelta(minutes=5)
    assert len(await sched.run_due()) == 1


async def test_a_jobs_effects_and_done_mark_commit_together(
    session_factory, clock: FakeClock
) -> None:
    t0 = clock.start
    await _schedule(session_factory, "close", t0)
    attempts = 0

    async def handler(uow, job):
        nonlocal attempts
        attempts += 1
        uow.session.add(GuildRecord(id=1000 + attempts, name="x", settings={}))
        await uow.session.flush()
        if attempts == 1:
            raise RuntimeError("crash in the middle of the job")

    sched = Scheduler(session_factory, clock=clock)
    sched.register("close", handler)
    [outcome] = await sched.run_due()
    assert not outcome.ok
    async with session_factory() as s:
        assert (await s.execute(select(func.count()).select_from(GuildRecord))).scalar() == 0
        job = (await s.execute(select(JobRecord))).scalar_one()
        assert job.status == "due" and job.attempts == 1 and "crash" in job.last_error
    clock.now = t0 + timedelta(minutes=10)  # past the backoff
    [outcome] = await sched.run_due()
    assert outcome.ok
    async with session_factory() as s:
        assert [g.id for g in (await s.execute(select(GuildRecord))).scalars()] == [1002]


async def test_a_job_that_keeps_failing_is_parked(session_factory, clock: FakeClock) -> None:
    t0 = clock.start
    await _schedule(session_factory, "broken", t0)
    sched = Scheduler(session_factory, clock=clock, max_attempts=3)

    async def handler(uow, job):
        raise ValueError("always")

    sched.register("broken", handler)
    for _ in range(5):
        await sched.run_due()
        clock.now += timedelta(hours=1)
    async with session_factory() as s:
        job = (await s.execute(select(JobRecord))).scalar_one()
        assert job.status == "parked" and job.attempts == 3


async def test_a_claim_whose_process_died_is_due_again_after_its_lease(
    session_factory, clock: FakeClock
) -> None:
    t0 = clock.start
    await _schedule(session_factory, "remind", t0)
    dead = Scheduler(session_factory, clock=clock, process_id="dead", lease=timedelta(seconds=60))
    dead.register("remind", lambda uow, job: asyncio.sleep(0))
    assert len(await dead.claim()) == 1  # claimed, then the process "dies" before running it
    ran = []

    async def handler(uow, job):
        ran.append(job.id)

    alive = Scheduler(session_factory, clock=clock, process_id="alive")
    alive.register("remind", handler)
    assert await alive.run_due() == []  # lease still held
    clock.now = t0 + timedelta(seconds=61)
    assert len(await alive.run_due()) == 1
    # The dead process waking up late cannot run it again.
    assert await dead.run_job(ran[0]) is None
    assert len(ran) == 1


async def test_rescheduling_by_key_moves_the_timer_and_cancel_stops_it(
    session_factory, clock: FakeClock
) -> None:
    t0 = clock.start
    await _schedule(
        session_factory, "clock", t0 + timedelta(minutes=3), {"ply": 1}, key="game:1:clock"
    )
    await _schedule(
        session_factory, "clock", t0 + timedelta(minutes=6), {"ply": 2}, key="game:1:clock"
    )
    async with session_factory() as s:
        jobs = list((await s.execute(select(JobRecord))).scalars())
    assert len(jobs) == 1 and jobs[0].payload == {"ply": 2}
    async with UnitOfWork(session_factory) as uow:
        await uow.jobs.cancel("game:1:clock")
        job = await uow.jobs.by_key("game:1:clock")
        assert job is not None and job.status == "cancelled"
        await uow.commit()
    clock.now = t0 + timedelta(hours=1)
    sched = Scheduler(session_factory, clock=clock)
    sched.register("clock", lambda uow, job: asyncio.sleep(0))
    assert await sched.run_due() == []


async def test_two_schedulers_run_each_of_200_jobs_exactly_once(
    session_factory, clock: FakeClock
) -> None:
    t0 = clock.start
    async with UnitOfWork(session_factory) as uow:
        for i in range(200):
            await uow.jobs.schedule("tick", t0 - timedelta(seconds=i), {"i": i})
        await uow.commit()
    runs: dict[int, list[str]] = {}

    def make(name: str) -> Scheduler:
        sched = Scheduler(session_factory, clock=clock, process_id=name, batch_size=7)

        async def handler(uow, job):
            runs.setdefault(job.payload["i"], []).append(name)
            await asyncio.sleep(0)

        sched.register("tick", handler)
        return sched

    a, b = make("a"), make("b")

    async def drain(s: Scheduler) -> None:
        while await s.run_due():
            pass

    await asyncio.gather(drain(a), drain(b))
    assert sorted(runs) == list(range(200))
    assert all(len(v) == 1 for v in runs.values())
    async with session_factory() as s:
        statuses = (
            await s.execute(select(JobRecord.status, func.count()).group_by(JobRecord.status))
        ).all()
    assert dict(statuses) == {"done": 200}


async def test_run_forever_fires_a_job_scheduled_while_running(
    session_factory, clock: FakeClock
) -> None:
    fired = asyncio.Event()

    async def handler(uow, job):
        fired.set()

    sched = Scheduler(session_factory, clock=clock, poll_seconds=5)
    sched.register("soon", handler)
    task = asyncio.create_task(sched.run_forever())
    try:
        await asyncio.sleep(0.05)
        async with UnitOfWork(session_factory) as uow:
            await uow.jobs.schedule("soon", clock())
            uow.on_commit(sched.wake)
            await uow.commit()
        await asyncio.wait_for(fired.wait(), timeout=3)
    finally:
        # Wait for the loop to stop before the engine is disposed: a pass cut
        # off mid-query must release its connection first.
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_stopping_lets_the_job_under_way_commit_and_then_returns(
    session_factory, clock: FakeClock
) -> None:
    started, release = asyncio.Event(), asyncio.Event()

    async def handler(uow, job):
        started.set()
        await release.wait()  # still inside the job's unit of work when stop() comes

    sched = Scheduler(session_factory, clock=clock, poll_seconds=5)
    sched.register("slow", handler)
    async with UnitOfWork(session_factory) as uow:
        await uow.jobs.schedule("slow", clock())
        await uow.commit()
    task = asyncio.create_task(sched.run_forever())
    await asyncio.wait_for(started.wait(), timeout=3)
    sched.stop()
    release.set()
    await asyncio.wait_for(task, timeout=3)  # returns by itself: nothing was cancelled
    assert not task.cancelled()
    async with session_factory() as s:
        assert (await s.execute(select(JobRecord.status))).scalars().all() == ["done"]


async def test_a_prepare_step_runs_before_the_transaction_and_hands_its_result_to_the_job(
    session_factory,
    clock: FakeClock,
) -> None:
    t0 = clock.start
    await _schedule(session_factory, "think", t0 - timedelta(seconds=1), {"position": 7})
    events: list[tuple[str, object]] = []
    failures = {"left": 1}

    async def prepare(payload):
        if failures["left"]:
            failures["left"] -= 1
            raise RuntimeError("the engine is not ready")
        events.append(("prepare", payload["position"]))
        return payload["position"] * 6

    async def handler(uow, job, prepared):
        events.append(("handler", prepared))
        uow.session.add(GuildRecord(id=prepared, name="made by the job", settings={}))

    sched = Scheduler(session_factory, clock=clock)
    sched.register("think", handler, prepare=prepare)
    first = await sched.run_due()
    assert [o.ok for o in first] == [
        False
    ] and events == []  # a failed prepare is a failed run: retried
    clock.now += timedelta(minutes=10)
    second = await sched.run_due()
    assert [o.ok for o in second] == [True]
    assert events == [("prepare", 7), ("handler", 42)]
    async with session_factory() as session:
        assert (await session.get(GuildRecord, 42)).name == "made by the job"
        job = (await session.execute(select(JobRecord))).scalar_one()
        assert job.status == "done" and job.attempts == 1


async def test_a_prepare_step_speaks_its_guild_s_language_as_its_handler_does(
    session_factory, clock: FakeClock
) -> None:
    # A round's game threads are named and announced in the prepare step: in a
    # Filipino club they must be in Filipino, not in the process's default.
    async with UnitOfWork(session_factory) as uow:
        uow.session.add(GuildRecord(id=77, name="Aklatan", settings={"language": "fil"}))
        await uow.commit()
    await _schedule(session_factory, "open", clock.start, {"guild_id": 77})
    await _schedule(session_factory, "open", clock.start, {"no": "guild"})
    spoken: list[tuple[str, str, int | None]] = []

    async def prepare(payload):
        spoken.append(("prepare", current_language(), current_guild()))

    async def handler(uow, job, prepared):
        spoken.append(("handler", current_language(), current_guild()))

    sched = Scheduler(session_factory, clock=clock)
    sched.register("open", prepare=prepare, handler=handler)
    assert len(await sched.run_due()) == 2
    assert sorted(spoken) == [
        ("handler", "en", None),
        ("handler", "fil", 77),
        ("prepare", "en", None),
        ("prepare", "fil", 77),
    ]
    assert current_language() == "en"  # and nothing stays set after the job
