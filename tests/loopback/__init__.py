"""A loopback stand-in for Discord (REST + gateway) that drives the real discord.py client.

    async with LoopbackDiscord() as dc:
        guild = dc.add_guild("Library Club")
        alice = dc.add_user("alice"); dc.add_member(guild, alice)
        games = dc.add_text_channel(guild, "games")
        await dc.start_bot(bot)
        ix = await dc.slash(alice, games, "scrabble play", word="QUIZ")

Tests get one through the ``loopback`` fixture of :mod:`tests.loopback.plugin`,
which also fails a test that left unexpected violations of Discord's rules.
"""

from .handles import InteractionHandle, LoopbackTimeout, ResponseRecord, Violation
from .harness import LoopbackUsageError
from .records import ChannelRecord, GuildRecord, MemberRecord, MessageRecord, RoleRecord, UserRecord
from .server import FaultRule, LoopbackDiscord

__all__ = [
    "ChannelRecord",
    "FaultRule",
    "GuildRecord",
    "InteractionHandle",
    "LoopbackDiscord",
    "LoopbackTimeout",
    "LoopbackUsageError",
    "MemberRecord",
    "MessageRecord",
    "ResponseRecord",
    "RoleRecord",
    "UserRecord",
    "Violation",
]
