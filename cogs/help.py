from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.ui.help import help_embed


class HelpCog(commands.Cog):
    @app_commands.command(name="help", description="How to play each game and start one")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(), ephemeral=True)


async def setup(bot: ClubBot) -> None:
    await bot.add_cog(HelpCog())
