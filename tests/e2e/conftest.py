"""End-to-end fixtures: the real ClubBot against the loopback Discord.

``club`` gives a guild with a games channel, a moderator and five members, and
starts/restarts the real bot on a SQLite file. Time is a ``FakeClock`` the test
moves forward; ``await club.tick()`` then runs whatever timers became due.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.client import ClubBot
from bot.config import load_settings


class FakeClock:
    def __init__(self, now: datetime | None = None) -> None:
        self.now = now or datetime(2026, 11, 30, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> datetime:
        self.now += timedelta(**kwargs)
        return self.now


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


@pytest.fixture
async def club(loopback: Any, tmp_path: Path) -> AsyncIterator[Club]:
    dc = loopback
    c = Club(dc=dc, db_path=tmp_path / "club.db", clock=FakeClock())
    c.guild = dc.add_guild("Library Games Club")
    c.channel = dc.add_text_channel(c.guild, "games")
    c.mod_role = dc.add_role(c.guild, "Game Host")
    c.moderator = dc.add_user("host")
    dc.add_member(c.guild, c.moderator, roles=[c.mod_role], admin=True)
    for name in ("alice", "bob", "carol", "dave", "erin", "frank"):
        user = dc.add_user(name)
        dc.add_member(c.guild, user)
        c.members[name] = user
    try:
        yield c
    finally:
        await c.stop()
