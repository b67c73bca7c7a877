"""Crash safety of a tournament's pairing (issue #19: "a restart at any point … during
pairing loses nothing and pairs nothing twice").

Round 2 is paired in the transaction that records round 1's last result (the
game's finish job). The bot, a real process, is killed with SIGKILL right before
that commit (the work is lost: the job runs again after the restart) and right
after it (the work is durable, but its announcement and its games' threads were
not made yet). Either way round 2 is paired once, announced once, and each of
its games gets one thread with one first board.
"""

from __future__ import annotations

import re

import pytest

from tests.reliability import tally
from tests.reliability.harness import World, assert_once, crash_point

pytestmark = pytest.mark.slow

LEASE_SECONDS = 130  # the scheduler's lease (120 s), and a little more


async def _round_one(world: World) -> None:
    """Three members in a chess round robin; round 1's one game ends in a resignation."""
    dc = world.dc
    ix = await dc.slash(
        world.moderator, world.channel, "tournament new", game="chess", format="round_robin"
    )
    tid = int(re.search(r"\(#(\d+)\)", ix.answer.content).group(1))  # type: ignore[union-attr]
    post = await world.wait_post(world.channel, f"(tournament #{tid})")
    for name in ("alice", "bob", "carol"):
        await dc.click(world[name], post, f"tournament:join:{tid}")
    await dc.slash(world.moderator, world.channel, "tournament start")
    thread = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(world.channel) if t.name.startswith("R1 ")), None),
        15,
        "round 1's thread",
    )
    await world.wait_post(thread, "Game on", timeout=15)
    black = world[thread.name.split(" vs ")[1]]
    await dc.slash(black, thread, "chess resign", wait=False)


async def _round_two_once(world: World) -> None:
    dc = world.dc
    thread = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(world.channel) if t.name.startswith("R2 ")), None),
        20,
        "round 2's thread",
    )
    await world.wait_post(thread, "Game on", timeout=15)
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    assert await world.db.rows("select count(*) from tournament_rounds where number = 2") == [(1,)]
    # One game and a bye, as the Berger table says: not one board more.
    assert await world.db.rows("select count(*) from tournament_pairings where round = 2") == [(2,)]
    assert await world.db.rows(
        "select count(*) from tournament_pairings where round = 2 and game_id is not null"
    ) == [(1,)]
    assert_once(world.bot_posts(world.channel, "round 2 of 3: pairings"), "round 2's pairings")
    assert_once(world.bot_posts(world.channel, "standings after round 1"), "standings")
    assert len([t for t in dc.threads_in(world.channel) if t.name.startswith("R2 ")]) == 1
    assert_once(world.bot_posts(thread, "Game on"), "round 2's first board")


async def test_a_pairing_killed_before_its_commit_is_paired_once_after_the_restart(
    world: World,
) -> None:
    bot = world.bot()
    await bot.start(crash=[crash_point("before_commit", "tournament_rounds", nth=2)])
    await _round_one(world)
    await bot.wait_crashed()
    assert await world.db.rows("select count(*) from tournament_rounds") == [(1,)]
    # The finish job's claim runs out while the bot is down: it runs again from the start.
    world.time_passes(seconds=LEASE_SECONDS)
    await bot.start()
    await _round_two_once(world)
    tally.add("kill points: a tournament round's pairing before its commit")


async def test_a_pairing_killed_after_its_commit_is_announced_and_opened_once(
    world: World,
) -> None:
    bot = world.bot()
    await bot.start(crash=[crash_point("commit", "tournament_rounds", nth=2)])
    await _round_one(world)
    await bot.wait_crashed()
    assert await world.db.rows("select count(*) from tournament_rounds") == [(2,)]
    assert world.bot_posts(world.channel, "round 2 of 3: pairings") == []
    await bot.start()
    await _round_two_once(world)
    tally.add("kill points: a tournament round's pairing after its commit")
