"""Membership across shards, against the loopback Discord: a process holding
every shard answers from its cache; one holding only shard 0 asks Discord
about guilds another process holds, and remembers the answer a while."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import discord
import pytest

from bot.gateway import Gateway
from bot.gateway.members import MEMBER_KNOWN_FOR, NOT_MEMBER_KNOWN_FOR
from tests.clock import FakeClock


def client(**options: Any) -> discord.AutoShardedClient:
    intents = discord.Intents.none()
    intents.guilds = intents.members = intents.dm_messages = True
    return discord.AutoShardedClient(intents=intents, **options)


@dataclass
class World:
    dc: Any
    near: Any  # a guild on shard 0
    far: Any  # a guild on shard 1
    ana: Any  # a member of both
    ben: Any  # a member of the near guild only

    def member_asks(self, guild: Any) -> int:
        return sum(f"/guilds/{guild.id}/members/" in r.path for r in self.dc.requests)


@pytest.fixture
async def world(loopback: Any) -> AsyncIterator[World]:
    dc = loopback
    near = dc.add_guild("Near Club", shard=(0, 2))
    far = dc.add_guild("Far Club", shard=(1, 2))
    ana, ben = dc.add_user("ana"), dc.add_user("ben")
    for guild, user in ((near, ana), (far, ana), (near, ben)):
        dc.add_member(guild, user)
    yield World(dc, near, far, ana, ben)


async def _user(bot: discord.Client, user: Any) -> discord.User:
    return bot.get_user(user.id) or await bot.fetch_user(user.id)


async def test_holding_every_shard_the_cache_answers_without_asking(
    world: World, clock: FakeClock
) -> None:
    bot = client(shard_count=2)
    await world.dc.start_bot(bot)
    members = Gateway(bot, clock=clock).members
    assert members.holds_every_shard() and members.receives_dms()

    async def never() -> list[int]:
        raise AssertionError("no candidates are needed when every guild is cached")

    assert sorted(await members.guilds_of(await _user(bot, world.ana), never)) == sorted(
        [world.near.id, world.far.id]
    )
    assert await members.guilds_of(await _user(bot, world.ben), never) == [world.near.id]
    assert world.member_asks(world.far) == 0


async def test_shard_zero_alone_asks_about_the_other_shards_guilds_and_remembers(
    world: World, clock: FakeClock
) -> None:
    bot = client(shard_ids=[0], shard_count=2)
    await world.dc.start_bot(bot)
    members = Gateway(bot, clock=clock).members
    assert not members.holds_every_shard() and members.receives_dms()
    ana, ben = await _user(bot, world.ana), await _user(bot, world.ben)

    async def rounds() -> list[int]:  # the guilds with a round going
        return [world.near.id, world.far.id]

    assert await members.guilds_of(ana, rounds) == [world.near.id, world.far.id]
    assert await members.guilds_of(ben, rounds) == [world.near.id]
    asked = world.member_asks(world.far)
    assert asked == 2 and world.member_asks(world.near) == 0  # the held guild: from the cache
    await members.guilds_of(ana, rounds)
    await members.guilds_of(ben, rounds)
    assert world.member_asks(world.far) == asked  # both answers remembered

    clock.advance(seconds=NOT_MEMBER_KNOWN_FOR.total_seconds() + 1)
    await members.guilds_of(ana, rounds)
    await members.guilds_of(ben, rounds)
    assert world.member_asks(world.far) == asked + 1  # a "no" is asked again soon
    world.dc.add_member(world.far, world.ben)
    clock.advance(seconds=NOT_MEMBER_KNOWN_FOR.total_seconds() + 1)
    assert await members.guilds_of(ben, rounds) == [world.near.id, world.far.id]
    clock.advance(seconds=MEMBER_KNOWN_FOR.total_seconds() + 1)
    world.dc.remove_member(world.far, world.ana)
    assert await members.guilds_of(ana, rounds) == [world.near.id]


async def test_an_error_from_discord_is_not_membership_and_is_not_remembered(
    world: World, clock: FakeClock
) -> None:
    bot = client(shard_ids=[0], shard_count=2)
    await world.dc.start_bot(bot)
    members = Gateway(bot, clock=clock).members
    world.dc.fail_next("GET", rf"/guilds/{world.far.id}/members/\d+", 400)
    assert not await members.is_member(world.far.id, world.ana.id)
    assert await members.is_member(world.far.id, world.ana.id)  # the error was not remembered


async def test_human_member_ids_come_from_the_cache_or_one_page_and_none_for_a_large_guild(
    world: World, clock: FakeClock
) -> None:
    bot = client(shard_ids=[0], shard_count=2)
    await world.dc.start_bot(bot)
    members = Gateway(bot, clock=clock).members
    near_humans = await members.human_member_ids(world.near.id, 10)
    assert {world.ana.id, world.ben.id} <= set(near_humans)
    assert world.dc.bot_user.id not in near_humans
    far_humans = await members.human_member_ids(world.far.id, 10)  # one page over REST
    assert world.ana.id in far_humans and world.dc.bot_user.id not in far_humans
    assert await members.human_member_ids(world.far.id, 1) == []  # more than 1: a large server
    assert len(await members.human_member_ids(world.near.id, 1)) == 2  # the cache cuts at limit + 1


async def test_without_member_lists_a_held_guild_with_a_round_is_fetched_once(
    world: World, clock: FakeClock
) -> None:
    """The bot does not chunk at start (bot/client.py): its cache knows no member of a
    guild it holds. The first DM about a guild with a round open fetches that guild's
    list once over the gateway; from then on the cache answers, with no REST call per
    sender (a guild too large to fetch is asked about per member, as a far guild is)."""
    bot = client(shard_count=2, chunk_guilds_at_startup=False)
    await world.dc.start_bot(bot)
    members = Gateway(bot, clock=clock).members
    assert members.holds_every_shard()
    ana, ben = await _user(bot, world.ana), await _user(bot, world.ben)
    assert ana.mutual_guilds == []  # nothing cached
    assert not any(g.chunked for g in bot.guilds)

    async def rounds() -> list[int]:
        return [world.near.id, world.far.id]

    assert await members.guilds_of(ana, rounds) == [world.near.id, world.far.id]
    assert await members.guilds_of(ben, rounds) == [world.near.id]
    assert all(g.chunked for g in bot.guilds)
    assert world.member_asks(world.near) + world.member_asks(world.far) == 0
    # A member who joins later is in the list the members intent keeps whole.
    cleo = world.dc.add_user("cleo")
    world.dc.add_member(world.far, cleo)
    await world.dc.wait_until(
        lambda: bot.get_guild(world.far.id).get_member(cleo.id), 5, "cleo's join"
    )
    assert await members.guilds_of(await _user(bot, cleo), rounds) == [world.far.id]
    assert world.member_asks(world.near) + world.member_asks(world.far) == 0


async def test_a_guild_too_large_to_fetch_is_asked_about_per_member(
    world: World, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.gateway.members.CHUNK_UP_TO", 1)
    bot = client(shard_count=2, chunk_guilds_at_startup=False)
    await world.dc.start_bot(bot)
    members = Gateway(bot, clock=clock).members
    ana, ben = await _user(bot, world.ana), await _user(bot, world.ben)

    async def rounds() -> list[int]:
        return [world.near.id, world.far.id]

    assert await members.guilds_of(ana, rounds) == [world.near.id, world.far.id]
    assert await members.guilds_of(ben, rounds) == [world.near.id]
    assert not any(g.chunked for g in bot.guilds)
    asked = world.member_asks(world.near) + world.member_asks(world.far)
    assert asked == 4
    await members.guilds_of(ben, rounds)
    assert world.member_asks(world.near) + world.member_asks(world.far) == asked  # remembered
    # A page of members over REST, not the cache's lone bot.
    near_humans = await members.human_member_ids(world.near.id, 10)
    assert {world.ana.id, world.ben.id} <= set(near_humans)
    assert world.dc.bot_user.id not in near_humans
    assert any("/members?" in r.path or r.path.endswith("/members") for r in world.dc.requests)
