"""Crash safety of a league's season start and rollover (issue #30: "a restart at any
point, season rollover included, loses nothing").

A season's start writes its divisions; each division's job then makes its games. Killed
right before that job's commit, the job runs again after the restart: the six games are
made once, each with one thread and one first board.

A chess league of four plays a season of one week; its six games are left unplayed, so
at the season's end the deadline scores them and the rollover (one transaction: the
results, the winner in /stats, the next season with everyone entered) runs in the
season's end job. The bot, a real process, is killed with SIGKILL right before that
commit (the work is lost: the job runs again after the restart) and right after it
(the work is durable, but its posts were not sent). Either way season 2 opens once,
with the four entered once, the results post once, and each member's season is in
/stats once.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.reliability import tally
from tests.reliability.harness import BotProcess, World, assert_once, crash_point

pytestmark = pytest.mark.slow

LEASE_SECONDS = 130  # the scheduler's lease (120 s), and a little more
PLAYERS = ("alice", "bob", "carol", "dave")


async def _season_one(world: World, *, started: bool = False) -> None:
    """The league made, four members in, the season started and its six games open
    (``started``: made and started already; wait for the games)."""
    dc = world.dc
    if not started:
        await _make_and_start(world)

    def threads() -> list[Any] | None:
        found = [t for t in dc.threads_in(world.channel) if t.name.startswith("R1 ")]
        return found if len(found) >= 6 else None

    found = await dc.wait_until(threads, 30, "the season's six threads")
    for thread in found:
        await world.wait_post(thread, "Game on", timeout=15)
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)


async def _make_and_start(world: World) -> None:
    dc = world.dc
    ix = await dc.slash(
        world.moderator, world.channel, "league new", game="chess", weeks=1, name="Spring"
    )
    assert "season 1 is open for sign-up" in ix.answer.content, ix.answer.content
    for name in PLAYERS:
        ix = await dc.slash(world[name], world.channel, "league join")
        assert "you're in season 1" in ix.answer.content, ix.answer.content
    ix = await dc.slash(world.moderator, world.channel, "league start")
    assert "4 entrants in 1 division (4)" in ix.answer.content, ix.answer.content


async def _rolled_over_once(world: World) -> None:
    (results,) = await world.dc.wait_until(
        lambda: world.bot_posts(world.channel, "season 1: the results") or None,
        30,
        "season 1's results",
    )
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    assert_once(world.bot_posts(world.channel, "season 1: the results"), "the season's results")
    assert "4 entries who stay are entered already" in results.content, results.content
    assert await world.db.rows("select number, status from league_seasons order by number") == [
        (1, "finished"),
        (2, "signup"),
    ]
    assert await world.db.rows(
        "select count(*) from signups s join signup_lists l on l.id = s.list_id"
        " join league_seasons n on n.id = l.owner_id"
        " where l.owner_kind = 'league' and n.number = 2 and s.status = 'entered'"
    ) == [(4,)]
    assert await world.db.rows("select count(*) from results where game_kind = 'league'") == [(4,)]
    assert await world.db.rows("select count(*) from league_divisions") == [(1,)]
    # The division's winners (first place, shared or not), recorded once each.
    (wins,) = await world.db.rows(
        "select count(*) from results where game_kind = 'league' and outcome = 'win'"
    )
    assert 1 <= wins[0] <= 4


async def _to_the_season_end(world: World, crash: dict[str, Any]) -> BotProcess:
    bot = world.bot()
    await bot.start()
    await _season_one(world)
    await bot.stop()
    world.time_passes(days=7, minutes=2)
    await bot.start(crash=[crash])
    await bot.wait_crashed()
    return bot


async def test_a_rollover_killed_before_its_commit_runs_once_after_the_restart(
    world: World,
) -> None:
    bot = await _to_the_season_end(
        world, crash_point("before_commit", "INSERT league_seasons", nth=1)
    )
    assert await world.db.rows("select number, status from league_seasons") == [(1, "playing")]
    world.time_passes(seconds=LEASE_SECONDS)
    await bot.start()
    await _rolled_over_once(world)
    tally.add("kill points: a league season's rollover before its commit")


async def test_a_rollover_killed_after_its_commit_posts_its_results_once(world: World) -> None:
    bot = await _to_the_season_end(world, crash_point("commit", "INSERT league_seasons", nth=1))
    assert await world.db.rows("select number, status from league_seasons order by number") == [
        (1, "finished"),
        (2, "signup"),
    ]
    assert world.bot_posts(world.channel, "season 1: the results") == []
    await bot.start()
    await _rolled_over_once(world)
    tally.add("kill points: a league season's rollover after its commit")


async def test_a_division_killed_before_its_games_commit_makes_them_once_after_the_restart(
    world: World,
) -> None:
    bot = world.bot()
    await bot.start(crash=[crash_point("before_commit", "INSERT tournament_rounds", nth=1)])
    dc = world.dc
    ix = await dc.slash(world.moderator, world.channel, "league new", game="chess", name="Spring")
    assert "season 1 is open for sign-up" in ix.answer.content, ix.answer.content
    for name in PLAYERS:
        await dc.slash(world[name], world.channel, "league join")
    await dc.slash(world.moderator, world.channel, "league start", wait=False)
    await bot.wait_crashed()
    assert await world.db.rows("select status from league_seasons") == [("playing",)]
    assert await world.db.rows("select count(*) from games") == [(0,)]
    world.time_passes(seconds=LEASE_SECONDS)
    await bot.start()
    await _season_one(world, started=True)
    assert await world.db.rows("select count(*) from games") == [(6,)]
    assert await world.db.rows("select count(*) from tournament_rounds") == [(1,)]
    for thread in [t for t in dc.threads_in(world.channel) if t.name.startswith("R1 ")]:
        assert_once(world.bot_posts(thread, "Game on"), f"the first board in {thread.name}")
    tally.add("kill points: a league division's games before their commit")
