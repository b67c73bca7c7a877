"""The /help overview (its words are ``bot.messages.help``'s)."""

from __future__ import annotations

import discord

from bot.messages.help import HELP_DESCRIPTION, HELP_FOOTER, HELP_SECTIONS, HELP_TITLE


def help_embed() -> discord.Embed:
    embed = discord.Embed(
        title=HELP_TITLE, description=HELP_DESCRIPTION, colour=discord.Colour.blurple()
    )
    for name, text in HELP_SECTIONS:
        embed.add_field(name=name, value=text, inline=False)
    embed.set_footer(text=HELP_FOOTER)
    return embed


__all__ = ["HELP_SECTIONS", "help_embed"]
