from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.messages.help import HELP_PAGES
from bot.ui.help import PAGE_KEYS, HelpPageButton, help_embed, help_view


class HelpCog(commands.Cog):
    @app_commands.command(name="help", description="How to play each game and start one")
    @app_commands.describe(page="Which page to open on (the buttons show the others)")
    @app_commands.choices(
        page=[app_commands.Choice(name=label, value=key) for key, label in HELP_PAGES]
    )
    async def help(
        self, interaction: discord.Interaction, page: app_commands.Choice[str] | None = None
    ) -> None:
        shown = page.value if page is not None and page.value in PAGE_KEYS else PAGE_KEYS[0]
        await interaction.response.send_message(
            embed=help_embed(shown), view=help_view(shown), ephemeral=True
        )


async def setup(bot: ClubBot) -> None:
    bot.add_dynamic_items(HelpPageButton)
    await bot.add_cog(HelpCog())
