"""Who belongs to which guild, as far as this process can know.

The bot does not fetch every guild's member list at start (bot/client.py,
``client_options``): its cache holds the members who joined while it was
connected, and a guild's whole list only when something asked for it. So a
guild whose cache is not complete (``guild.chunked``), or that another process
holds (every DM comes to shard 0's), is asked about over REST, and the answer
remembered a while, so a non-member is never taken for a member and a member is
not asked about on every message.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timedelta

import discord

from bot.gateway.dms import DM_SHARD

log = logging.getLogger(__name__)

# A member stays known for a round or three; a non-member is asked again soon.
# A guild with a round open and at most CHUNK_UP_TO members has its whole list
# fetched once (one gateway request), after which the cache answers for it.
CHUNK_UP_TO = 1000
CHUNK_TIMEOUT_S = 10.0
MEMBER_KNOWN_FOR = timedelta(minutes=10)
NOT_MEMBER_KNOWN_FOR = timedelta(minutes=1)
MEMBERSHIPS_REMEMBERED = 10_000

GuildCandidates = Callable[[], Awaitable[Iterable[int]]]


class Membership:
    def __init__(self, client: discord.AutoShardedClient, clock: Callable[[], datetime]) -> None:
        self.client = client
        self._clock = clock
        self._known: dict[tuple[int, int], tuple[bool, datetime]] = {}
        self._chunking: dict[int, asyncio.Task[bool]] = {}

    # -- shards

    def holds_every_shard(self) -> bool:
        ids, count = self.client.shard_ids, self.client.shard_count
        return ids is None or count is None or set(range(count)) <= set(ids)

    def receives_dms(self) -> bool:
        """Whether DMs come to this process (Discord sends them to shard 0 only)."""
        ids = self.client.shard_ids
        return ids is None or DM_SHARD in ids

    # -- membership

    async def guilds_of(
        self, user: discord.User | discord.Member, candidates: GuildCandidates
    ) -> list[int]:
        """The guilds ``user`` belongs to among those that matter.

        The cached mutual guilds first. Unless the cache holds every guild's
        every member, ``candidates()`` names the guilds worth asking about (e.g.
        those with a round going: one query), and the user's membership in each
        whose members are not all cached is asked of Discord (and remembered).
        """
        guild_ids = [guild.id for guild in user.mutual_guilds]
        if self.holds_every_shard() and all(guild.chunked for guild in self.client.guilds):
            return guild_ids
        for guild_id in await candidates():
            if guild_id in guild_ids:
                continue
            guild = self.client.get_guild(guild_id)
            if guild is not None and await self.whole_list(guild):
                if guild.get_member(user.id) is not None:
                    guild_ids.append(guild_id)
                continue  # every member is cached: the cache answers
            if await self.is_member(guild_id, user.id):
                guild_ids.append(guild_id)
        return guild_ids

    async def whole_list(self, guild: discord.Guild) -> bool:
        """Whether the cache holds ``guild``'s every member, fetching the list once
        (REQUEST_GUILD_MEMBERS) for a guild of up to ``CHUNK_UP_TO`` members that this
        process holds. Asked per DM, a guild's members would cost one REST call per
        sender and guild with a round open (the load benchmark: a quarter of the bot's
        time at 100 interactions a second); once fetched, joins and leaves keep the
        list whole (the members intent)."""
        if guild.chunked:
            return True
        if (guild.member_count or 0) > CHUNK_UP_TO:
            return False
        task = self._chunking.get(guild.id)
        if task is None:
            task = asyncio.create_task(self._chunk(guild))
            self._chunking[guild.id] = task
            task.add_done_callback(lambda _: self._chunking.pop(guild.id, None))
        return await asyncio.shield(task)

    async def _chunk(self, guild: discord.Guild) -> bool:
        try:
            async with asyncio.timeout(CHUNK_TIMEOUT_S):
                await guild.chunk(cache=True)
        except (TimeoutError, discord.ClientException, discord.HTTPException) as error:
            log.warning("could not fetch the members of guild %s (%s)", guild.id, error)
            return False
        return guild.chunked

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Asked of Discord (one call) unless asked lately; an error answers False, unremembered."""
        now = self._clock()
        known = self._known.get((guild_id, user_id))
        if known is not None and known[1] > now:
            return known[0]
        try:
            await self.client.http.get_member(guild_id, user_id)
            member = True
        except (discord.NotFound, discord.Forbidden):  # not a member; or the bot left that guild
            member = False
        except discord.HTTPException:
            log.warning("could not check whether %s is a member of guild %s", user_id, guild_id)
            return False  # asked again next time
        if len(self._known) > MEMBERSHIPS_REMEMBERED:
            self._known = {key: value for key, value in self._known.items() if value[1] > now}
        self._known[(guild_id, user_id)] = (
            member,
            now + (MEMBER_KNOWN_FOR if member else NOT_MEMBER_KNOWN_FOR),
        )
        return member

    async def human_member_ids(self, guild_id: int, limit: int) -> list[int]:
        """Up to ``limit`` of the guild's human members, or none for a larger guild.

        From the cache when it holds the guild's every member, else one page
        from Discord; a guild with more than ``limit`` members is a large
        server, whose members are too many to be worth the calls (the cache's
        list is cut at ``limit + 1``, so the caller can tell it is large the
        same way).
        """
        guild = self.client.get_guild(guild_id)
        if guild is not None and guild.chunked:
            return [member.id for member in guild.members if not member.bot][: limit + 1]
        try:
            page = await self.client.http.get_members(guild_id, limit + 1, None)
        except discord.HTTPException:
            return []
        if len(page) > limit:
            return []
        return [int(m["user"]["id"]) for m in page if "user" in m and not m["user"].get("bot")]
