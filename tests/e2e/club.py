"""The club the end-to-end tests play in: the real ClubBot against the loopback Discord.

A guild with a games channel, a moderator (by role and admin) and six members;
the bot starts and restarts on a SQLite file. Its clock is the test's
``FakeClock`` (tests/clock.py), the one the loopback stamps messages with; the
test moves it forward, then ``await club.tick()`` runs whatever timers became due.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.client import ClubBot
from bot.config import load_settings
from tests.clock import FakeClock

MEMBERS = ("alice", "bob", "carol", "dave", "erin", "frank")
# More members for the tests that need a full room (a club session of 16): open_club(extra_members=…)
EXTRA_MEMBERS = ("gina", "hugo", "iris", "jose", "kate", "leon", "mila", "noel", "olga", "pete")


@dataclass
class Club:
    dc: Any
    db_path: Path
    clock: FakeClock
    guild: Any = None
    channel: Any = None
    mod_role: Any = None
    moderator: Any = None
    members: dict[str, Any] = field(default_factory=dict)
    bot: ClubBot | None = None

    def settings(self, **extra: Any):
        values: dict[str, Any] = {
            "discord_token": "test-token",
            "database_url": f"sqlite+aiosqlite:///{self.db_path}",
            "discord_guild_ids": [self.guild.id],
            "scheduler_poll_seconds": 0.05,
        }
        values.update(extra)
        return load_settings(None, **values)

    async def start(self, **extra: Any) -> ClubBot:
        self.bot = ClubBot(self.settings(**extra), clock=self.clock)
        await self.dc.start_bot(self.bot, token="test-token")
        return self.bot

    async def restart(self) -> ClubBot:
        """Stop the bot as a deploy would and start a new instance on the same database."""
        await self.stop()
        return await self.start()

    async def stop(self) -> None:
        if self.bot is not None:
            await self.dc.stop_bot()
            self.bot = None

    async def tick(self) -> list[Any]:
        """Run every timer that is due at the fake clock's time."""
        assert self.bot is not None
        outcomes = await self.bot.scheduler.run_due()
        await self.bot.outbox.flush()
        return outcomes

    async def flush(self) -> None:
        assert self.bot is not None
        await self.bot.outbox.flush()


async def open_club(
    loopback: Any, tmp_path: Path, clock: FakeClock, *, extra_members: int = 0
) -> AsyncIterator[Club]:
    """The club on the loopback (whose clock is ``clock``); the bot is stopped at the end.
    ``extra_members``: that many of ``EXTRA_MEMBERS`` join too, after the six."""
    if getattr(loopback, "clock", None) is not clock:
        raise AssertionError("the club's bot and the loopback must share one clock")
    c = Club(dc=loopback, db_path=tmp_path / "club.db", clock=clock)
    c.guild = loopback.add_guild("Library Games Club")
    c.channel = loopback.add_text_channel(c.guild, "games")
    c.mod_role = loopback.add_role(c.guild, "Game Host")
    c.moderator = loopback.add_user("host")
    loopback.add_member(c.guild, c.moderator, roles=[c.mod_role], admin=True)
    for name in MEMBERS + EXTRA_MEMBERS[:extra_members]:
        user = loopback.add_user(name)
        loopback.add_member(c.guild, user)
        c.members[name] = user
    try:
        yield c
    finally:
        await c.stop()
