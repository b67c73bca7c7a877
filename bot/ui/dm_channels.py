"""Direct messages sent to a channel id remembered in the database.

discord.py keeps the last 128 DM channels it saw, and none after a restart, so
``user.send`` usually costs two requests or three: the user (``GET
/users/{id}``), the channel (``POST /users/@me/channels``), then the message.
A member's DM channel never changes: its id is stored (``dm_channels``) the
first time Discord gives it, and every later DM, from any process and after
any restart, is one request. A stored channel Discord no longer knows (10003,
Unknown Channel) is forgotten and the DM sent once more through a fresh one.
The ids this process read or stored are kept in memory too (a bounded cache), so
a member's second DM does not ask the database either; the database is asked one
statement at a time (a lookup, or a write that commits as it runs on PostgreSQL:
no BEGIN and COMMIT around it).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import discord
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.caches import MIB, BoundedCache
from bot.db.engine import (
    create_read_session_factory,
    create_statement_session_factory,
    sessions_like,
)
from bot.db.models import utcnow
from bot.db.repositories.dm_channels import DmChannelRepository

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003  # Discord's error code for a channel it does not know

MessageArgs = Callable[[], Awaitable[dict[str, Any]]]


class DirectMessages:
    """Sends DMs through the member's stored DM channel, opening (and storing) it once."""

    def __init__(
        self,
        client: discord.Client,
        session_factory: async_sessionmaker[AsyncSession],
        *,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.client = client
        self._lookups = sessions_like(session_factory, create_read_session_factory)
        self._statements = sessions_like(session_factory, create_statement_session_factory)
        self._clock = clock
        # user id -> DM channel id; a stale one is refused by Discord (10003) and replaced
        self._known: BoundedCache[int, int] = BoundedCache("dm channels", MIB, lambda _: 64)

    async def send(self, user_id: int, message: MessageArgs) -> discord.Message:
        """DM ``user_id`` what ``message()`` gives (``Messageable.send``'s arguments:
        made afresh for a second try, as files are read once).

        Discord's refusals reach the caller: ``discord.Forbidden`` (code 50007)
        when the member's DMs are closed.
        """
        channel_id = await self._stored(user_id)
        if channel_id is not None:
            try:
                return await self._channel(channel_id).send(**await message())
            except discord.NotFound as error:
                if error.code != UNKNOWN_CHANNEL:
                    raise
                log.info("the stored DM channel of %s is gone: opening a new one", user_id)
                self._known.discard(user_id)
                async with self._statements() as session:
                    await DmChannelRepository(session).forget(user_id, channel_id)
                    await session.commit()
        channel_id = await self.open(user_id)
        return await self._channel(channel_id).send(**await message())

    async def open(self, user_id: int) -> int:
        """Ask Discord for the member's DM channel (one request) and store its id."""
        data = await self.client.http.start_private_message(user_id)
        channel_id = int(data["id"])
        async with self._statements() as session:
            await DmChannelRepository(session).remember(user_id, channel_id, self._clock())
            await session.commit()
        self._known.put(user_id, channel_id)
        return channel_id

    async def _stored(self, user_id: int) -> int | None:
        known = self._known.get(user_id)
        if known is not None:
            return known
        async with self._lookups() as session:
            stored = await DmChannelRepository(session).channel_id(user_id)
        if stored is not None:
            self._known.put(user_id, stored)
        return stored

    def _channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
