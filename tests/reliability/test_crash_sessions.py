"""Crash safety of a club session (issue #18: "a session survives a restart at any
point … like every game").

The bot, a real process, is killed with SIGKILL right after the commit that makes
the session's boards (their threads are not made yet), and at the session's
deadline both right before and right after the commit that ends every board. In
each case, after the restart, every board has one thread and one first board,
"where everyone plays" is posted once, every board ends once, and the results
post appears once.
"""

from __future__ import annotations

import pytest

from tests.reliability import tally
from tests.reliability.games import legal_play, reply_text, scrabble_state
from tests.reliability.harness import World, assert_once, crash_point

pytestmark = pytest.mark.slow

LEASE_SECONDS = 130  # the scheduler's lease (120 s), and a little more
PLAYERS = ("alice", "bob", "carol", "dave")


async def _formed(world: World) -> None:
    """A session of four members, its groups formed (one board of two pairs)."""
    dc = world.dc
    opened = await dc.slash(world.moderator, world.channel, "scrabble session open", length="1m")
    card = opened.original
    button = next(c for c in card.custom_ids if c.startswith("session:signup"))
    for name in PLAYERS:
        ix = await dc.click(world[name], card, button)
        assert "signed up" in await reply_text(ix)
    formed = await dc.slash(world.moderator, world.channel, "scrabble session start")
    assert "Board 1** (2 pairs)" in formed.answer.content


async def _board_opened_once(world: World) -> tuple[int, object]:
    dc = world.dc
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(world.channel)), None), 20, "the board's thread"
    )
    await world.wait_post(thread, "· move 0", timeout=15)
    await world.wait_post(world.channel, "Where everyone plays", timeout=15)
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    assert len(dc.threads_in(world.channel)) == 1
    assert_once(world.bot_posts(thread, "· move 0"), "the board's first post")
    assert_once(world.bot_posts(world.channel, "Where everyone plays"), "where everyone plays")
    game_id = int(await world.db.value("select game_id from session_boards"))
    return game_id, thread


async def _play_once(world: World, game_id: int, thread: object) -> None:
    state = await scrabble_state(world.db, game_id)
    seat = state["engine"]["current_seat"]
    user_id = int(
        await world.db.value(
            "select min(user_id) from game_seats where game_id = :g and seat = :s",
            g=game_id,
            s=seat,
        )
    )
    member = next(m for m in world.members.values() if m.id == user_id)
    word, position = legal_play(state["engine"], seed=1)
    ix = await world.dc.slash(member, thread, "scrabble play", word=word, position=position)
    assert (await reply_text(ix)).startswith("You played")
    await world.wait_post(thread, "· move 1", timeout=15)


async def test_boards_killed_before_their_threads_are_opened_once_after_the_restart(
    world: World,
) -> None:
    bot = world.bot()
    await bot.start(crash=[crash_point("commit", "session_boards")])
    await _formed(world)
    await world.dc.slash(world.moderator, world.channel, "scrabble session start", wait=False)
    await bot.wait_crashed()
    assert await world.db.value("select status from club_sessions") == "started"
    assert world.dc.threads_in(world.channel) == []
    await bot.start()
    await _board_opened_once(world)
    tally.add("kill points: a club session's boards before their threads")


async def test_a_session_killed_at_its_deadline_ends_every_board_and_posts_results_once(
    world: World,
) -> None:
    bot = world.bot()
    await bot.start()
    await _formed(world)
    await world.dc.slash(world.moderator, world.channel, "scrabble session start")
    game_id, thread = await _board_opened_once(world)
    await _play_once(world, game_id, thread)
    await bot.kill()

    # The deadline falls due while the bot is down; it dies before the end commits …
    world.time_passes(minutes=2)
    await bot.start(crash=[crash_point("before_commit", "results")], wait_ready=False)
    await bot.wait_crashed()
    assert await world.db.value("select status from games where id = :g", g=game_id) == "active"
    assert await world.db.value("select count(*) from results") == 0
    # … and, its claim run out, right after it commits (nothing posted yet) …
    world.time_passes(seconds=LEASE_SECONDS)
    await bot.start(crash=[crash_point("commit", "results")], wait_ready=False)
    await bot.wait_crashed()
    assert await world.db.value("select status from club_sessions") == "ended"
    assert world.bot_posts(world.channel, "Club session results") == []
    # … and a clean start sends what the end committed, once.
    await bot.start()
    await world.wait_post(world.channel, "Club session results", timeout=20)
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    assert_once(world.bot_posts(world.channel, "Club session results"), "the results post")
    assert_once(world.bot_posts(thread, "Game over"), "the board's final post")
    assert await world.db.value("select status from games where id = :g", g=game_id) == "finished"
    assert await world.db.value("select count(distinct player_id) from results") == 4
    assert await world.db.value("select count(*) from results") == 4
    tally.add("kill points: a club session's deadline before and after its commit")
