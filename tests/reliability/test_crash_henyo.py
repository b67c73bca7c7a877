"""Crash safety of Library Henyo: kills during a round's start, its replies, its guess and its end.

Henyo results are computed from Discord's own message timestamps, so a round
must come out exactly the same however often the bot dies: a guess typed
while the bot was down counts with its own time, a reply read twice (live and
again from the channel history after a restart) counts once, and the time-up
that fell due during the downtime is called once.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.leaks import shows_secret
from tests.reliability import logscan
from tests.reliability.harness import World, assert_once, crash_point

pytestmark = pytest.mark.slow

START_WINDOW = 60.0  # bot.services.henyo.START_WINDOW
TIME_LIMIT = 120.0  # the default round


async def _round(world: World, word: str) -> tuple[int, str]:
    rid, status = (
        await world.db.rows(
            "select id, status from henyo_rounds where word = :w order by id desc limit 1", w=word
        )
    )[0]
    return int(rid), status


def _no_secret_in_channel(world: World, word: str) -> None:
    for message in world.dc.messages_in(world.channel):
        if message.author.id == world.dc.bot_user.id:
            assert not shows_secret(message.content, word), message.content


async def _start(world: World, word: str) -> tuple[Any, int]:
    ix = await world.dc.slash(
        world.moderator,
        world.channel,
        "henyo start",
        guesser=world["alice"],
        answerer=world["bob"],
        word=word,
    )
    done = await ix.next_message(timeout=15)
    assert done.ephemeral and "is running" in done.content, done.content
    announcement = await world.wait_post(world.channel, "🎯 **Library Henyo")
    rid, status = await _round(world, word)
    assert status == "running"
    return announcement, rid


async def test_a_henyo_round_survives_kills_at_its_start_replies_guess_and_end(
    world: World,
) -> None:
    dc, db = world.dc, world.db
    alice, bob = world["alice"], world["bob"]
    first_word, second_word = "Sampaguita", "Kalabaw"
    for word in (first_word, second_word):
        logscan.register_secret(word)
    bot = world.bot()

    # -- the round is stored as ready; the bot dies before the secret DM and the announcement -------
    await bot.start(crash=[crash_point("commit", "INSERT henyo_rounds")])
    await dc.slash(
        world.moderator,
        world.channel,
        "henyo start",
        guesser=alice,
        answerer=bob,
        word=first_word,
        wait=False,
    )
    await bot.wait_crashed()
    rid, status = await _round(world, first_word)
    assert status == "ready" and dc.dms_to(bob) == []

    # -- a minute later its start window is over: the job cancels it, the bot dies before telling ---
    world.time_passes(seconds=START_WINDOW + 10)
    await bot.start(crash=[crash_point("commit", "UPDATE henyo_rounds")], wait_ready=False)
    await bot.wait_crashed()
    assert (await _round(world, first_word))[1] == "cancelled"

    # -- the notice goes out once; a new start runs; the answerer's "Oo" commits, the bot dies ------
    await bot.start(crash=[crash_point("commit", "INSERT henyo_round_events")])
    notice = await world.wait_post(world.channel, f"round #{rid} could not start")
    assert "interrupted" in notice.content
    announcement, rid = await _start(world, first_word)
    await dc.say(bob, world.channel, "Oo", at=announcement.created_at + timedelta(seconds=3))
    await bot.wait_crashed()
    assert await db.value("select count(*) from henyo_round_events where round_id = :r", r=rid) == 1

    # -- while the bot is down the guesser gets it; read back at start-up, the verdict commits and
    #    the bot dies before announcing it ----------------------------------------------------------
    await dc.say(
        alice,
        world.channel,
        first_word.lower() + "!",
        at=announcement.created_at + timedelta(seconds=12.3),
    )
    await bot.start(crash=[crash_point("commit", "INSERT results")], wait_ready=False)
    await bot.wait_crashed()
    status, elapsed = (
        await db.rows("select status, elapsed_ms from henyo_rounds where id = :r", r=rid)
    )[0]
    assert (status, elapsed) == ("guessed", 12300)
    _no_secret_in_channel(world, first_word)

    # -- a clean start announces it once; the "Oo" read twice counted once ---------------------------
    await bot.start()
    result = await world.wait_post(world.channel, "guessed it")
    assert "final time **12.3 s**" in result.content
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    assert_once(world.bot_posts(world.channel, "guessed it"), "result post")
    assert_once(world.bot_posts(world.channel, "could not start"), "cancellation notice")
    kinds = await db.rows(
        "select kind from henyo_round_events where round_id = :r order by id", r=rid
    )
    assert kinds == [("reply",), ("guess",)]
    assert (
        await db.value("select count(*) from results where round_ref = :r", r=f"henyo:round:{rid}")
        == 2
    )

    # -- a second round: killed while idle; its buttons, posted before the kill, work after it -------
    announcement, rid = await _start(world, second_word)
    _no_secret_in_channel(world, second_word)
    await bot.kill("idle, during a round")
    await bot.start()
    pressed = await dc.click(bob, announcement, f"henyo:reply:{rid}:oo")
    assert not pressed.answer.ephemeral and "**Oo**" in pressed.answer.content

    # -- the time limit passes while the bot is down: time's up is called once ----------------------
    await bot.kill("idle, just before the time limit")
    world.time_passes(seconds=TIME_LIMIT + 15)
    await bot.start()
    up = await world.wait_post(world.channel, "Time's up")
    assert "alice & bob" in up.content
    await world.wait_value("select count(*) from outbox where sent_at is null", 0)
    await world.settle()
    assert_once(world.bot_posts(world.channel, "Time's up"), "time's-up post")
    assert (await _round(world, second_word))[1] == "timed_out"
    assert (
        await db.value("select count(*) from results where round_ref = :r", r=f"henyo:round:{rid}")
        == 2
    )
    assert await db.value("select count(*) from jobs where status in ('due', 'claimed')") == 0
