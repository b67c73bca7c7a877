"""DM intake: which direct messages are a member's own words, which of them the
bot handled live in this gateway session, which are a slash command typed as
text, answering them, and hints that are worth sending once in a while rather
than on every message."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Generic, TypeVar

import discord

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)

# What a member types: a message or a reply (not a pin notice, a join, a call…).
CHATTY_TYPES = (discord.MessageType.default, discord.MessageType.reply)
# Direct messages go to shard 0 only (Discord's rule), so its sessions are the DM sessions.
DM_SHARD = 0


def is_chatty(message: discord.Message) -> bool:
    """A member's own words: not a bot's, not a webhook's, not a system message."""
    return not message.author.bot and message.webhook_id is None and message.type in CHATTY_TYPES


def is_member_dm(message: discord.Message) -> bool:
    """A direct message a member typed to the bot."""
    return message.guild is None and is_chatty(message)


# "/scrabble play word:QUIZ": a slash, then a name as Discord's command names go
# (letters first; letters, digits, - and _), then maybe a subcommand's name.
_TYPED_COMMAND = re.compile(
    r"\s*/(?P<name>[^\W\d_][\w-]{0,31})(?:\s+(?P<sub>[^\W\d_][\w-]{0,31})(?![^\s]))?",
)


@dataclass(frozen=True)
class TypedCommand:
    """A slash command written into a DM as text (Discord runs commands only from its menu)."""

    name: str  # case-folded: "scrabble"
    sub: str | None  # "play", when a name follows the command's
    shown: str | None  # how a reply may quote it ("/scrabble play"): only the bot's own commands


def typed_command(text: str, known: Collection[str] = ()) -> TypedCommand | None:
    """The slash command ``text`` starts with, if it starts with ``/`` and a name.

    A Boggle word never starts with a slash, so a DM like ``/scrabble play
    word:QUIZ`` is a member trying a command, not a word list. ``known`` holds
    the bot's commands by qualified name ("scrabble", "scrabble play"), so a
    reply quotes only a real command, never whatever else was typed.
    """
    match = _TYPED_COMMAND.match(text)
    if match is None:
        return None
    name = match["name"].casefold()
    sub = match["sub"].casefold() if match["sub"] else None
    names = {k.casefold() for k in known}
    shown = None
    if sub is not None and f"{name} {sub}" in names:
        shown = f"/{name} {sub}"
    elif name in names:
        shown = f"/{name}"
    return TypedCommand(name, sub, shown)


class DmIntake:
    """The DMs the bot receives live, and where this gateway session's live ones begin.

    ``take_live(message)`` is the filter for ``on_message``: true for a member's
    DM, and the first such DM of each member in this session is remembered.
    ``live_since()`` then tells a read-back, per member, the first message that
    arrived live: everything stored below it was handled before the bot went
    down (or read back), so a read-back that starts after the last of *those*,
    not after the last stored message, cannot skip a DM that was missed while a
    later one arrived live first. ``session_started(shard_id)`` (from
    ``on_shard_connect``) forgets them when shard 0 opens a new session:
    Discord replays nothing into a new session, so only its own DMs are live.
    """

    def __init__(self) -> None:
        self._first_live: dict[int, int] = {}

    def take_live(self, message: discord.Message) -> bool:
        if not is_member_dm(message):
            return False
        author = message.author.id
        known = self._first_live.get(author)
        if known is None or message.id < known:
            self._first_live[author] = message.id
        return True

    def live_since(self) -> dict[int, int]:
        """Member id → the id of their first DM handled live in this session."""
        return dict(self._first_live)

    def session_started(self, shard_id: int | None = DM_SHARD) -> None:
        if shard_id in (None, DM_SHARD):
            self._first_live.clear()

    @staticmethod
    def typed_command(message: discord.Message, known: Collection[str] = ()) -> TypedCommand | None:
        """The slash command the DM's text starts with (see ``typed_command``)."""
        return typed_command(message.content, known)

    @staticmethod
    async def reply(message: discord.Message, text: str) -> bool:
        """Answer a DM; False when Discord refused (the member's DMs are closed).

        Nothing waits on an answer: what the DM asked for is done already."""
        try:
            await message.channel.send(text)
        except discord.HTTPException:
            log.info("could not answer a DM from %s", message.author.id)
            return False
        return True


class Throttle(Generic[K]):
    """``allow(key)`` is true at most once per ``every`` for each key (a hint, a
    reminder); past ``remember`` keys, those older than ``every`` are forgotten."""

    def __init__(
        self, every: timedelta, *, clock: Callable[[], datetime], remember: int = 10_000
    ) -> None:
        self.every = every
        self.remember = remember
        self._clock = clock
        self._last: dict[K, datetime] = {}

    def allow(self, key: K) -> bool:
        now = self._clock()
        last = self._last.get(key)
        if last is not None and now - last < self.every:
            return False
        if len(self._last) > self.remember:
            self._last = {k: at for k, at in self._last.items() if now - at < self.every}
        self._last[key] = now
        return True
