"""The /help overview (its words are ``bot.messages.help``'s)."""

from __future__ import annotations

import discord

from bot.messages.help import HELP_DESCRIPTION, HELP_FOOTER, HELP_SECTIONS, HELP_TITLE
from bot.messages.i18n import _


def help_embed() -> discord.Embed:
    embed = discord.Embed(
        title=_(HELP_TITLE), description=_(HELP_DESCRIPTION), colour=discord.Colour.blurple()
    )
    for name, text in HELP_SECTIONS:
        embed.add_field(name=_(name), value=_(text), inline=False)
    embed.set_footer(text=_(HELP_FOOTER))
    return embed


__all__ = ["HELP_SECTIONS", "help_embed"]
