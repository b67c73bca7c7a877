"""The club's daily puzzle on Discord: the post's Solve button (the puzzle, privately,
through the /puzzle flow), its job, and turning it off when its channel or the club
goes away. Set with ``/club setup puzzle_channel puzzle_time``."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.client import ClubBot
from bot.services.puzzles.daily import VIEW_SOLVE, DailyPuzzles
from bot.services.puzzles.service import PuzzleService, PuzzleView
from bot.ui import puzzle_daily as ui
from bot.ui.buttons import buttons_of
from bot.ui.errors import reply_privately, think
from bot.ui.permissions import require_guild
from bot.ui.puzzles import puzzle_buttons, puzzle_file
from bot.ui.views import view_kwargs

log = logging.getLogger(__name__)


class DailyPuzzleCog(commands.Cog):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.puzzles = PuzzleService(bot.ctx)
        self.daily = DailyPuzzles(bot.ctx)

    async def solve(self, interaction: discord.Interaction, puzzle_id: int) -> None:
        """The Solve button: the day's puzzle for the member who pressed it, privately
        (its Answer and Show solution buttons as /puzzle's)."""
        await think(interaction, private=True)
        guild = require_guild(interaction)
        opened = await self.puzzles.open_puzzle(
            guild.id, interaction.user.id, interaction.user.display_name, puzzle_id
        )
        if isinstance(opened, PuzzleView):
            await reply_privately(
                interaction,
                opened.text,
                files=[await puzzle_file(opened)],
                **view_kwargs(puzzle_buttons(opened.puzzle_id)),
            )
        else:  # finished before: the solution again
            await reply_privately(interaction, opened.text)

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
    buttons_of(bot).bind(ui.DAILY_BUTTONS, cog)
    bot.add_dynamic_items(ui.SolveButton)
    bot.outbox.views[VIEW_SOLVE] = ui.solve_view
    bot.scheduler.register_service(cog.daily)
