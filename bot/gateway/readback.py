"""Reading back what arrived while the bot was down.

Discord does not replay messages to a bot that connects with a new session, so
what members sent meanwhile is read from the channels' history, oldest first,
and handed one at a time, in order, to the same handler the live messages go
to. The handler must recognise a message it has already stored (by its id):
a read-back overlaps what arrived live.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime

import discord

from bot.gateway.dms import is_chatty

log = logging.getLogger(__name__)

MessageHandler = Callable[[discord.Message], Awaitable[None]]
# Where to start: after this message id, or after this moment.
ReadFrom = int | datetime


def snowflake_after(start: ReadFrom) -> int:
    """The id to read after: a message's own, or the first possible id of ``start``'s time."""
    return start if isinstance(start, int) else discord.utils.time_snowflake(start)


class ReadBack:
    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def channel(
        self,
        channel: discord.abc.Messageable,
        *,
        after: ReadFrom,
        handle: MessageHandler,
        limit: int,
        accept: Callable[[discord.Message], bool] = is_chatty,
    ) -> int:
        """Hand ``handle`` each accepted message after ``after``, oldest first, one at a time.

        At most ``limit`` messages are read; reading stops when the client is
        closing (the next start reads them). Returns how many were handled.
        Discord's refusals (``discord.HTTPException``) reach the caller.
        """
        handled = 0
        async for message in channel.history(
            after=discord.Object(snowflake_after(after)), limit=limit, oldest_first=True
        ):
            if self.client.is_closed():
                break
            if accept(message):
                await handle(message)
                handled += 1
        return handled

    async def dm_channel(
        self, user_id: int, *, after: ReadFrom, handle: MessageHandler, limit: int
    ) -> int:
        """The member's own DMs to the bot after ``after`` (see ``channel``).

        Opening the DM channel is a call whatever the cache holds, and its
        answer carries the channel's last message id, fresh: a channel with
        nothing new costs that one call.
        """
        start = snowflake_after(after)
        data = await self.client.http.start_private_message(user_id)
        last = data.get("last_message_id", start + 1)  # absent (not null): read to be safe
        if last is None or int(last) <= start:
            return 0
        channel = self.client.get_partial_messageable(
            int(data["id"]), type=discord.ChannelType.private
        )
        return await self.channel(
            channel,
            after=start,
            handle=handle,
            limit=limit,
            accept=lambda m: m.author.id == user_id and is_chatty(m),
        )

    async def dm_channels(
        self,
        starts: Mapping[int, ReadFrom],
        *,
        handle: MessageHandler,
        limit: int,
        at_once: int = 4,
    ) -> None:
        """Each member's DMs from their start (member id → where), ``at_once`` channels
        side by side, each in order. A channel that fails is logged and skipped."""
        me = self.client.user.id if self.client.user else None
        gate = asyncio.Semaphore(at_once)

        async def read(user_id: int, after: ReadFrom) -> None:
            async with gate:
                if self.client.is_closed():
                    return  # shutting down: the next start reads them
                try:
                    await self.dm_channel(user_id, after=after, handle=handle, limit=limit)
                except discord.HTTPException:
                    log.warning("could not read back the DMs of %s", user_id)
                except Exception:
                    if self.client.is_closed():
                        return  # the HTTP session closed under the read: the next start reads them
                    log.warning("reading back the DMs of %s failed", user_id, exc_info=True)

        await asyncio.gather(
            *(read(user_id, after) for user_id, after in starts.items() if user_id != me)
        )
