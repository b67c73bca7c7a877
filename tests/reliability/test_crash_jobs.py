"""Crash safety of the scheduler and the outbox, with a test-only job kind.

``reliability.probe`` jobs (registered by ``botproc`` only) each DM a member
``probe <n>`` through the outbox, in the job's own transaction. The bot is
killed inside a job before its commit and again after Discord accepted a DM
but before the outbox marked it sent; in the end every job has run once and
every DM arrived once.
"""

from __future__ import annotations

import pytest

from tests.reliability.games import probe_dms, schedule_probes
from tests.reliability.harness import World, crash_point

pytestmark = pytest.mark.slow

LEASE = 120.0


async def test_jobs_killed_mid_run_and_dms_killed_mid_send_happen_exactly_once(
    any_world: World,
) -> None:
    world = any_world
    db = world.db
    erin = world["erin"]
    bot = world.bot(RELIABILITY_PROBE_JOBS="1")
    jobs = 6

    # -- the third job dies before its commit --------------------------------------------------------
    await bot.start(crash=[crash_point("before_commit", "INSERT outbox", nth=3)])
    await schedule_probes(world, erin.id, jobs)
    await bot.wait_crashed()
    statuses = dict(await db.rows("select status, count(*) from jobs group by status"))
    # The scheduler claims a batch: the rest wait for the dead process's lease to run out.
    assert statuses == {"done": 2, "claimed": jobs - 2}, statuses
    assert await db.value("select count(*) from outbox") == 2

    # -- after the dead process's lease, the jobs run; a DM dies after Discord took it ---------------
    world.time_passes(seconds=LEASE + 30)
    await bot.start(crash=[crash_point("outbox_sent", "user", nth=2)], wait_ready=False)
    await bot.wait_crashed()

    # -- a clean start (after the lease of the jobs that process claimed): everything once ------------
    world.time_passes(seconds=LEASE + 30)
    await bot.start()
    await world.wait_value("select count(*) from jobs where status = 'done'", jobs)
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    assert await db.value("select count(*) from outbox") == jobs
    assert probe_dms(world, erin) == {n: 1 for n in range(jobs)}
