"""The /help overview (its words are ``bot.messages.help``'s)."""

from __future__ import annotations

import discord

from bot.messages.help import HELP_DESCRIPTION, HELP_FOOTER, HELP_SECTIONS, HELP_TITLE
from bot.messages.i18n import _
from bot.messages.limits import EMBED_FIELD_VALUE_CHARS
from bot.messages.text import split_text


def help_embed() -> discord.Embed:
    embed = discord.Embed(
        title=_(HELP_TITLE), description=_(HELP_DESCRIPTION), colour=discord.Colour.blurple()
    )
    for name, text in HELP_SECTIONS:
        # A section longer than a field (Filipino runs longer than English)
        # goes on in unnamed fields right below it.
        for index, piece in enumerate(split_text(_(text), EMBED_FIELD_VALUE_CHARS)):
            embed.add_field(name=_(name) if index == 0 else "\u200b", value=piece, inline=False)
    embed.set_footer(text=_(HELP_FOOTER))
    return embed


__all__ = ["HELP_SECTIONS", "help_embed"]
