"""Reading back what arrived while the bot was down, against the loopback
Discord: members' DM channels from a message or a moment, oldest first and one
at a time, only the member's own words, one call for a channel with nothing
new; and a guild channel's history (the Henyo referee's read-back)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import discord

from bot.gateway import Gateway
from tests.clock import FakeClock


def client() -> discord.AutoShardedClient:
    intents = discord.Intents.none()
    intents.guilds = intents.members = intents.dm_messages = intents.guild_messages = True
    intents.message_content = True
    return discord.AutoShardedClient(intents=intents)


class Handled:
    """A handler that keeps what it was given, and checks it is never given two at once."""

    def __init__(self, pause: float = 0.0) -> None:
        self.texts: list[str] = []
        self.busy = 0
        self.pause = pause

    async def __call__(self, message: discord.Message) -> None:
        self.busy += 1
        assert self.busy == 1 or self.pause == 0, "two messages of one channel handled at once"
        await asyncio.sleep(self.pause)
        self.texts.append(message.content)
        self.busy -= 1


def dm_opens(dc: Any) -> int:
    return sum(r.path.endswith("/users/@me/channels") for r in dc.requests)


def history_reads(dc: Any) -> int:
    return sum(r.method == "GET" and r.path.endswith("/messages") for r in dc.requests)


async def test_a_dm_channel_is_read_after_a_message_oldest_first(
    loopback: Any, clock: FakeClock
) -> None:
    dc = loopback
    ana = dc.add_user("ana")
    first = await dc.dm(ana, "canoe", at=clock())
    await dc.dm(ana, "tonic", at=clock.advance(seconds=1))
    await dc.dm(ana, "acne", at=clock.advance(seconds=1))
    bot = client()
    await dc.start_bot(bot)
    handled = Handled(pause=0.01)
    count = await Gateway(bot, clock=clock).read_back.dm_channel(
        ana.id, after=first.id, handle=handled, limit=100
    )
    assert handled.texts == ["tonic", "acne"] and count == 2


async def test_dm_channels_are_read_from_a_moment_and_skip_the_bots_own_messages(
    loopback: Any, clock: FakeClock
) -> None:
    dc = loopback
    ana, ben = dc.add_user("ana"), dc.add_user("ben")
    opened = clock()
    await dc.dm(ana, "before", at=opened - timedelta(seconds=5))
    await dc.dm(ana, "canoe", at=opened + timedelta(seconds=1))
    await dc.dm(ben, "tonic", at=opened + timedelta(seconds=2))
    bot = client()
    await dc.start_bot(bot)
    await (await bot.fetch_user(ana.id)).send("got it")  # the bot's answer is in the channel too
    await dc.dm(ana, "envoy", at=opened + timedelta(seconds=3))
    handled: dict[int, list[str]] = {ana.id: [], ben.id: []}

    async def handle(message: discord.Message) -> None:
        handled[message.author.id].append(message.content)

    await Gateway(bot, clock=clock).read_back.dm_channels(
        {ana.id: opened, ben.id: opened, dc.bot_user.id: opened}, handle=handle, limit=100
    )
    assert handled == {ana.id: ["canoe", "envoy"], ben.id: ["tonic"]}


async def test_a_dm_channel_with_nothing_new_costs_one_call(
    loopback: Any, clock: FakeClock
) -> None:
    dc = loopback
    ana = dc.add_user("ana")
    last = await dc.dm(ana, "canoe", at=clock())
    bot = client()
    await dc.start_bot(bot)
    handled = Handled()
    opens, reads = dm_opens(dc), history_reads(dc)
    assert (
        await Gateway(bot, clock=clock).read_back.dm_channel(
            ana.id, after=last.id, handle=handled, limit=100
        )
        == 0
    )
    assert (dm_opens(dc), history_reads(dc)) == (opens + 1, reads)
    assert handled.texts == []


async def test_a_read_back_reads_at_most_its_limit(loopback: Any, clock: FakeClock) -> None:
    dc = loopback
    ana = dc.add_user("ana")
    start = clock()
    for word in ("one", "two", "three"):
        await dc.dm(ana, word, at=clock.advance(seconds=1))
    bot = client()
    await dc.start_bot(bot)
    handled = Handled()
    await Gateway(bot, clock=clock).read_back.dm_channel(
        ana.id, after=start, handle=handled, limit=2
    )
    assert handled.texts == ["one", "two"]


async def test_a_channel_that_fails_is_skipped_and_the_others_are_read(
    loopback: Any, clock: FakeClock
) -> None:
    dc = loopback
    ana, ben = dc.add_user("ana"), dc.add_user("ben")
    start = clock()
    await dc.dm(ana, "canoe", at=clock.advance(seconds=1))
    await dc.dm(ben, "tonic", at=clock.advance(seconds=1))
    bot = client()
    await dc.start_bot(bot)
    dc.fail_next("POST", r"/users/@me/channels", 403)  # the first channel cannot be opened
    handled = Handled()
    await Gateway(bot, clock=clock).read_back.dm_channels(
        {ana.id: start, ben.id: start}, handle=handled, limit=100, at_once=1
    )
    assert handled.texts == ["tonic"]


async def test_a_guild_channel_is_read_after_a_message_members_words_only(
    loopback: Any, clock: FakeClock
) -> None:
    dc = loopback
    guild = dc.add_guild("Club")
    games = dc.add_text_channel(guild, "games")
    ana = dc.add_user("ana")
    dc.add_member(guild, ana)
    announcement = await dc.say(ana, games, "the round starts", at=clock())
    await dc.say(ana, games, "is it a thing?", at=clock.advance(seconds=1))
    await dc.say(ana, games, "is it blue?", at=clock.advance(seconds=1))
    bot = client()
    await dc.start_bot(bot)
    channel = bot.get_channel(games.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("a bot's own message")
    handled = Handled()
    count = await Gateway(bot, clock=clock).read_back.channel(
        channel, after=announcement.id, handle=handled, limit=500
    )
    assert handled.texts == ["is it a thing?", "is it blue?"] and count == 2
