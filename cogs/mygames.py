"""/mygames: one private list of everything waiting on the member in this server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.messages.mygames import board_button_label, waiting_text
from bot.services.mygames import MyGamesService
from bot.ui.board_link import board_link_button
from bot.ui.errors import reply_privately, think
from bot.ui.permissions import require_guild
from bot.ui.views import view_kwargs

MAX_LINK_BUTTONS = 25  # Discord's limit on one message


class MyGamesCog(commands.Cog):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.service = MyGamesService(bot.ctx)

    @app_commands.command(
        name="mygames",
        description="Your games, rounds and events waiting on you here (only you see it)",
    )
    @app_commands.guild_only()
    async def mygames(self, interaction: discord.Interaction) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        waiting = await self.service.waiting(guild.id, interaction.user.id)
        view: discord.ui.View | None = None
        for item in waiting.items:
            if item.url is None:
                continue
            view = view or discord.ui.View(timeout=None)
            if len(view.children) < MAX_LINK_BUTTONS:
                view.add_item(board_link_button(item.url, board_button_label(item)))
        await reply_privately(interaction, waiting_text(waiting), **view_kwargs(view))


async def setup(bot: ClubBot) -> None:
    await bot.add_cog(MyGamesCog(bot))
