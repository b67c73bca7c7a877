"""The club's daily puzzle on Discord: its job, the post's Solve button (a dynamic item;
``PuzzleCog.solve`` answers it, through the /puzzle flow), and turning it off when its
channel or the club goes away. Set with ``/club setup puzzle_channel puzzle_time``."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.client import ClubBot
from bot.services.puzzles.daily import VIEW_SOLVE, DailyPuzzles
from bot.ui import puzzle_daily as ui

log = logging.getLogger(__name__)


class DailyPuzzleCog(commands.Cog):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.daily = DailyPuzzles(bot.ctx)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        try:
            await self.daily.channel_gone(channel.guild.id, channel.id)
        except Exception:
            log.exception("daily puzzle: turning off for deleted channel %s failed", channel.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        try:
            await self.daily.club_left(guild.id)
        except Exception:
            log.exception("daily puzzle: turning off for guild %s failed", guild.id)


async def setup(bot: ClubBot) -> None:
    cog = DailyPuzzleCog(bot)
    await bot.add_cog(cog)
    bot.add_dynamic_items(ui.SolveButton)
    bot.outbox.views[VIEW_SOLVE] = ui.solve_view
    bot.scheduler.register_service(cog.daily)
