"""Discord adapters that are not commands: DM intake, membership checks, and
reading back what arrived while the bot was down (DESIGN.md, "Layers").

Cogs use it; it uses discord and nothing of the games (it hands messages to
the handlers a cog gives it). A cog builds one in its ``__init__``::

    self.gateway = Gateway(bot, clock=bot.ctx.clock)

**DM intake** (``gateway.dms``, a ``DmIntake``): ``take_live(message)`` is the
``on_message`` filter for a member's own DMs, and remembers where this gateway
session's live DMs begin; ``session_started(shard_id)`` belongs in
``on_shard_connect``; ``typed_command(message, known)`` tells a slash command
typed as text (``/scrabble play …``: Discord runs commands only from its menu
in a server, so such a DM is neither a command nor a word list);
``reply(message, text)`` answers without failing on closed DMs. ``Throttle``
sends a hint at most once in a while per member::

    @commands.Cog.listener("on_message")
    async def on_direct_message(self, message):
        if self.gateway.dms.take_live(message):
            command = self.gateway.dms.typed_command(message, known_command_names)
            if command is not None:
                await message.channel.send(...)  # where commands work
            else:
                await self._take_dm(message)

    @commands.Cog.listener("on_shard_connect")
    async def on_shard_connect(self, shard_id):
        self.gateway.dms.session_started(shard_id)

**Membership** (``gateway.members``, a ``Membership``): ``guilds_of(user,
candidates)`` (the cache, or Discord over REST, remembered, for guilds whose
members are not all cached: the bot does not fetch member lists at start, and
another process holds some guilds), ``is_member``, ``human_member_ids``, and the shard questions
``holds_every_shard`` / ``receives_dms``.

**Read-back** (``gateway.read_back``, a ``ReadBack``), from ``on_ready``: a
channel's history after a message or a moment, oldest first, each message
handed in order to the live handler (which must store a message seen twice
once)::

    # a guild channel (the Henyo referee after a restart)
    try:
        await self.gateway.read_back.channel(
            channel, after=round.announce_message_id, handle=self._referee, limit=500
        )
    except discord.HTTPException:
        log.warning(...)

    # members' DM channels (Boggle lists): member id -> a message id or a time
    await self.gateway.read_back.dm_channels(
        {user_id: after_id_or_since, ...}, handle=self._take_dm, limit=100, at_once=4
    )

Where a DM read-back starts is the caller's to say; ``dms.live_since()`` gives,
per member, the first DM this session handled live, so the start can be the
last message handled *before* the bot went down rather than the last one stored
(a live DM stored first must not hide one sent while the bot was away).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import discord

from bot.gateway.dms import (
    CHATTY_TYPES,
    DmIntake,
    Throttle,
    TypedCommand,
    is_chatty,
    is_member_dm,
    typed_command,
)
from bot.gateway.members import Membership
from bot.gateway.readback import MessageHandler, ReadBack, ReadFrom, snowflake_after


class Gateway:
    """The three adapters on one client: ``dms``, ``members``, ``read_back``."""

    def __init__(self, client: discord.AutoShardedClient, *, clock: Callable[[], datetime]) -> None:
        self.dms = DmIntake()
        self.members = Membership(client, clock)
        self.read_back = ReadBack(client)


__all__ = [
    "CHATTY_TYPES",
    "DmIntake",
    "Gateway",
    "Membership",
    "MessageHandler",
    "ReadBack",
    "ReadFrom",
    "Throttle",
    "TypedCommand",
    "is_chatty",
    "is_member_dm",
    "snowflake_after",
    "typed_command",
]
