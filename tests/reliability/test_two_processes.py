"""Two bot processes (shards 0 and 1 of 2) sharing one PostgreSQL database.

Both start at the same moment on an empty database; 200 jobs written straight
into it fire exactly once between them (each DMs a member through the outbox,
which both processes send from); 300 outbox rows to ten channels are each sent
by one process only, each channel in order; a DM, which Discord delivers to shard 0
only, reaches the Boggle round of a guild that shard 1's process owns (and a
non-member's does not); and a first list DM'd while shard 0's process is down
is read back when it restarts.
Skipped without ``TEST_DATABASE_URL``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.db.engine import create_engine, create_session_factory
from bot.db.repositories import OutboxRepository
from bot.messages.post import Post
from tests.conftest import reset_postgres
from tests.reliability import tally
from tests.reliability.games import probe_dms, schedule_probes
from tests.reliability.harness import World, assert_once, postgres_url, small_word_list

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.skipif(not postgres_url(), reason="TEST_DATABASE_URL is not set"),
]

JOBS = 200


@pytest.fixture
async def sharded(tmp_path: Path) -> AsyncIterator[World]:
    url = postgres_url()
    assert url
    await reset_postgres(url)
    w = World(tmp_path, url)
    w.lexicon = small_word_list(tmp_path)
    await w.open(guild_shard=(0, 2))
    w.far_guild, w.far_channel, _ = w.add_guild("Far Shard Club", shard=(1, 2))
    problems: list[str] = []
    try:
        yield w
    finally:
        problems = await w.close()
    if problems:
        pytest.fail("the bots misbehaved:\n  " + "\n  ".join(problems), pytrace=False)


async def test_two_shards_start_together_and_fire_200_jobs_exactly_once(sharded: World) -> None:
    world = sharded
    bots = [
        world.bot(f"shard{i}", SHARD_COUNT="2", SHARD_IDS=str(i), RELIABILITY_PROBE_JOBS="1")
        for i in (0, 1)
    ]
    await asyncio.gather(*(b.start() for b in bots))
    assert sorted(s.shard for s in world.dc.gateway.live_sessions()) == [(0, 2), (1, 2)]

    frank = world["frank"]
    await schedule_probes(world, frank.id, JOBS, sleep=0.01)
    await world.wait_value("select count(*) from jobs where status = 'done'", JOBS, timeout=60)
    await world.wait_value("select count(*) from outbox where sent_at is null", 0, timeout=60)
    await world.settle(1.0)

    assert probe_dms(world, frank) == {n: 1 for n in range(JOBS)}
    assert await world.db.value("select count(*) from outbox") == JOBS
    runners = dict(await world.db.rows("select claimed_by, count(*) from jobs group by claimed_by"))
    assert len(runners) == 2, f"one process ran every job: {runners}"
    tally.add("jobs fired exactly once across two processes", JOBS)


ROWS = 300
CHANNELS = 10


async def test_two_shards_send_every_outbox_row_once_and_each_channel_in_order(
    sharded: World,
) -> None:
    """Both processes send from the one outbox: each row is claimed by one of them
    (nothing is posted twice, not even a repeat Discord's nonce would fold), and each
    channel's posts arrive in the order they were written, though channels go out
    side by side."""
    world = sharded
    bots = [world.bot(f"shard{i}", SHARD_COUNT="2", SHARD_IDS=str(i)) for i in (0, 1)]
    await asyncio.gather(*(b.start() for b in bots))
    channels = [world.dc.add_text_channel(world.guild, f"room-{n}") for n in range(CHANNELS)]
    engine = create_engine(world.database_url)
    try:
        async with create_session_factory(engine)() as session:
            for n in range(ROWS):
                channel = channels[n % CHANNELS]
                OutboxRepository(session).to_channel(channel.id, Post(content=f"row {n}"))
            await session.commit()
    finally:
        await engine.dispose()
    await world.wait_value("select count(*) from outbox where sent_at is null", 0, timeout=90)
    await world.settle(1.0)

    assert world.dc.repeated_nonces == []
    for index, channel in enumerate(channels):
        posted = [m.content for m in world.dc.messages_in(channel)]
        assert posted == [f"row {n}" for n in range(index, ROWS, CHANNELS)], channel.name
    assert await world.db.value("select count(*) from outbox where claimed_by is not null") == 0
    tally.add("outbox rows sent exactly once across two processes", ROWS)


def _member_checks(world: World, guild: object, user: object) -> list[int]:
    """Statuses of the bot's REST look-ups of ``user`` in ``guild`` (200 member, 404 not)."""
    path = f"/guilds/{guild.id}/members/{user.id}"  # type: ignore[attr-defined]
    return [r.status for r in world.dc.requests if r.method == "GET" and r.path.endswith(path)]


async def test_a_dm_handled_by_shard_zero_reaches_a_boggle_round_owned_by_shard_one(
    sharded: World,
) -> None:
    world = sharded
    dc = world.dc
    alice, bob = world["alice"], world["bob"]
    dc.remove_member(world.far_guild, bob)  # Bob belongs to shard 0's guild only
    bots = [world.bot(f"shard{i}", SHARD_COUNT="2", SHARD_IDS=str(i)) for i in (0, 1)]
    await asyncio.gather(*(b.start() for b in bots))

    started = await dc.slash(world.moderator, world.far_channel, "boggle start", duration="3m")
    await started.wait_done()
    grid = await world.wait_post(world.far_channel, re.compile(r"Word Boggle — round #\d+"))
    await dc.dm(alice, "canoe tonic", at=grid.created_at + timedelta(seconds=15))
    reply = await world.wait_post(
        alice, re.compile(r"has \*\*2\*\*|no Word Boggle round"), timeout=10
    )
    assert "has **2**" in reply.content, reply.content
    player = await world.db.value("select player_id from boggle_submissions")
    assert player == alice.id
    assert_once(world.bot_posts(alice, "has **2**"), "receipt")

    # Her next list is added without asking Discord again whether she is a member.
    await dc.dm(alice, "civet", at=grid.created_at + timedelta(seconds=25))
    await world.wait_post(alice, re.compile(r"has \*\*3\*\*"), timeout=10)
    assert _member_checks(world, world.far_guild, alice) == [200]

    # Bob is not a member of the far guild: Discord says so, and his words go nowhere.
    await dc.dm(bob, "covet envoy", at=grid.created_at + timedelta(seconds=30))
    hint = await world.wait_post(bob, "no Word Boggle round", timeout=10)
    assert "has **" not in hint.content
    assert _member_checks(world, world.far_guild, bob) == [404]
    assert (
        await world.db.value(
            "select count(*) from boggle_submissions where player_id = :p", p=bob.id
        )
        == 0
    )


async def test_shard_zeros_restart_reads_back_a_first_boggle_list_for_a_round_owned_by_shard_one(
    sharded: World,
) -> None:
    world = sharded
    dc = world.dc
    shard0, shard1 = (world.bot(f"shard{i}", SHARD_COUNT="2", SHARD_IDS=str(i)) for i in (0, 1))
    await asyncio.gather(shard0.start(), shard1.start())
    started = await dc.slash(world.moderator, world.far_channel, "boggle start", duration="3m")
    await started.wait_done()
    grid = await world.wait_post(world.far_channel, re.compile(r"Word Boggle — round #\d+"))

    # Shard 0 (the DMs' shard) goes down; Carol, who never played, sends her list meanwhile.
    await shard0.kill("shard 0 idle, during shard 1's round")
    for session in dc.gateway.live_sessions():
        if session.shard == (0, 2):
            session.valid = False  # Discord drops the dead process's session
    carol = world["carol"]
    await dc.dm(carol, "canoe tonic", at=grid.created_at + timedelta(seconds=20))
    await shard0.start()
    # Shard 0's process does not hold the far guild: its members come from Discord.
    await world.wait_post(carol, re.compile(r"has \*\*2\*\*"), timeout=10)
    await world.settle()
    assert await world.db.value("select player_id from boggle_submissions") == carol.id
    assert_once(world.bot_posts(carol, "has **2**"), "receipt")
