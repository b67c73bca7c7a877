"""Every guild's chosen language in one read, for the interaction path's cache
(``ClubBot.guild_languages``): Discord's events are parsed synchronously, so the
language a guild speaks must be known without a query when one arrives."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import GuildRecord
from bot.messages.i18n import DEFAULT_LANGUAGE, language_of


async def guild_languages(factory: async_sessionmaker[AsyncSession]) -> dict[int, str]:
    """Guild id -> language, for the guilds that chose one other than English."""
    async with factory() as session:
        rows = await session.execute(select(GuildRecord.id, GuildRecord.settings))
        return {
            guild_id: code
            for guild_id, settings in rows
            if (code := language_of(settings)) != DEFAULT_LANGUAGE
        }
