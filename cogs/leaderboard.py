from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.services.leaderboard import LeaderboardService
from bot.services.puzzles.service import PuzzleService
from bot.ui.errors import reply_publicly, think
from bot.ui.leaderboard import LeaderboardPageButton, pager, stats_embed, table_file, table_text
from bot.ui.permissions import require_guild
from bot.ui.puzzles import add_stats_field
from bot.ui.views import view_kwargs

GameChoice = Literal["all", "chess", "scrabble", "boggle", "henyo", "puzzle"]
PeriodChoice = Literal["week", "month", "season", "all"]


class LeaderboardCog(commands.Cog):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.service = LeaderboardService(bot.ctx)
        self.puzzles = PuzzleService(bot.ctx)
        LeaderboardPageButton.fetch = self.service.table

    @app_commands.command(name="leaderboard", description="The club's table for a game and period")
    @app_commands.describe(
        game="Which game (default: all games)", period="Which period (default: all time)"
    )
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: GameChoice = "all",
        period: PeriodChoice = "all",
    ) -> None:
        await think(interaction, private=False)
        guild = require_guild(interaction)
        table = await self.service.table(guild.id, game, period)
        await reply_publicly(
            interaction,
            table_text(table),
            file=await table_file(table),
            **view_kwargs(pager(table)),
        )

    @app_commands.command(name="stats", description="A member's record in every game")
    @app_commands.describe(member="Whose record (default: yours)")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        await think(interaction, private=False)
        guild = require_guild(interaction)
        who = member or interaction.user
        stats = await self.service.stats(guild.id, who.id)
        if stats.name == str(who.id):
            stats.name = who.display_name
        puzzles = await self.puzzles.streak(guild.id, who.id)
        await reply_publicly(interaction, embed=add_stats_field(stats_embed(stats), puzzles))


async def setup(bot: ClubBot) -> None:
    bot.add_dynamic_items(LeaderboardPageButton)
    await bot.add_cog(LeaderboardCog(bot))
