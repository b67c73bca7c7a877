"""A game's thread, opened once however often it is asked for: the one thread opener.

Every game kind (Scrabble and chess games, a session's boards, a tournament's
games) plays in a thread started from a message: its invitation, or a starter
post naming its players. Discord gives a thread started from a message that
message's id, so a repeat (a job run again after a crash, two attempts at
once) finds the thread made before instead of making a second one.

What Discord's answers mean here, said once:
- 160004 ("a thread has already been created for this message"): an earlier
  attempt made it; that thread is the game's.
- 5xx or 429 (Discord's own trouble): a job raises, so the scheduler tries
  again later; a command (``retry_later=False``) plays in the channel instead.
- anything else (no permission, a channel that takes no threads): the game
  plays in the channel (None), and the log says why.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import discord

from bot.messages.limits import THREAD_NAME_CHARS
from bot.ui.errors import NO_MENTIONS, discords_trouble

log = logging.getLogger(__name__)

THREAD_EXISTS = 160004  # Discord: "A thread has already been created for this message"

ArchiveMinutes = Literal[60, 1440, 4320, 10080]
ARCHIVE_LIVE: ArchiveMinutes = 1440  # a day, for games played in one sitting
ARCHIVE_CORRESPONDENCE: ArchiveMinutes = 10080  # a week, for games played over days


@dataclass(frozen=True)
class Starter:
    """The message a thread is started from, posted once per ``nonce`` (``enforce_nonce``)."""

    text: str
    nonce: str
    mention_ids: Sequence[int] = ()  # members the post may ping (none by default)

    @property
    def allowed_mentions(self) -> discord.AllowedMentions:
        if not self.mention_ids:
            return NO_MENTIONS
        return discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in self.mention_ids]
        )


async def open_game_thread(
    client: discord.Client,
    channel_id: int,
    *,
    name: str,
    member_ids: Sequence[int],
    archive_minutes: ArchiveMinutes,
    starter: Starter | None = None,
    message_id: int | None = None,
    retry_later: bool = True,
    what: str = "a game",
) -> int | None:
    """The game's thread id, opened by :func:`open_thread` with ``member_ids`` added.
    None: the game plays in the channel."""
    thread = await open_thread(
        client,
        channel_id,
        name=name,
        archive_minutes=archive_minutes,
        starter=starter,
        message_id=message_id,
        retry_later=retry_later,
        what=what,
    )
    if isinstance(thread, discord.Thread):
        await add_members(thread, member_ids)
        return thread.id
    return thread


async def open_thread(
    client: discord.Client,
    channel_id: int,
    *,
    name: str,
    archive_minutes: ArchiveMinutes,
    starter: Starter | None = None,
    message_id: int | None = None,
    retry_later: bool = True,
    what: str = "a game",
) -> discord.Thread | int | None:
    """A thread started from ``message_id`` (already posted) or from the ``starter``
    posted here: the thread, or only its id when that is all there is to know (a game
    challenged inside a thread plays in that thread). None: the game plays in the
    channel. Discord's own trouble is raised when ``retry_later`` (a job tries again);
    see the module docstring."""
    if (starter is None) == (message_id is None):
        raise ValueError("give a starter to post or the id of a message posted already")
    channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
    if isinstance(channel, discord.Thread):
        return channel.id
    if not isinstance(channel, discord.TextChannel):
        return None
    try:
        if starter is not None:
            message = await channel.send(
                starter.text, nonce=starter.nonce, allowed_mentions=starter.allowed_mentions
            )
            message_id = message.id
        assert message_id is not None
        known = client.get_channel(message_id)
        if isinstance(known, discord.Thread):
            return known
        try:
            return await channel.get_partial_message(message_id).create_thread(
                name=name[:THREAD_NAME_CHARS], auto_archive_duration=archive_minutes
            )
        except discord.HTTPException as error:
            if error.code != THREAD_EXISTS:
                raise
            # An earlier attempt made it (and may have stopped before adding everyone).
            return await _thread_of(client, message_id) or message_id
    except discord.HTTPException as error:
        if retry_later and discords_trouble(error):
            raise
        log.warning(
            "could not open a thread for %s in %s (%s %s); it plays in the channel",
            what,
            channel_id,
            error.status,
            error.code,
        )
        return None


async def add_members(thread: discord.Thread, user_ids: Sequence[int]) -> None:
    """Add each member to the thread; one who can't be added can still open it themselves."""
    for user_id in user_ids:
        try:
            await thread.add_user(discord.Object(user_id))
        except discord.HTTPException:
            pass


async def _thread_of(client: discord.Client, message_id: int) -> discord.Thread | None:
    """The thread started from ``message_id``, if there is one (it has the message's id)."""
    found = client.get_channel(message_id)
    if found is None:
        try:
            found = await client.fetch_channel(message_id)
        except discord.NotFound:
            return None
    return found if isinstance(found, discord.Thread) else None
