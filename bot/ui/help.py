"""/help: one page of sections at a time, and a button for each page (its words are
``bot.messages.help``'s). The buttons carry their page in their custom id, so they
work on an old /help reply after a restart."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.messages.help import (
    HELP_DEFAULT_PAGE,
    HELP_DESCRIPTION,
    HELP_FOOTER,
    HELP_PAGE_OF,
    HELP_PAGES,
    HELP_SECTIONS,
    HELP_TITLE,
)
from bot.messages.i18n import _
from bot.messages.limits import EMBED_FIELD_VALUE_CHARS
from bot.messages.text import split_text

PAGE_KEYS = [key for key, _label in HELP_PAGES]


def page_of(section_name: str) -> str:
    """The page a section (by its untranslated title) is shown on."""
    return HELP_PAGE_OF.get(section_name, HELP_DEFAULT_PAGE)


def help_embed(page: str = PAGE_KEYS[0]) -> discord.Embed:
    """The /help embed of one page (an unknown page: the first)."""
    if page not in PAGE_KEYS:
        page = PAGE_KEYS[0]
    label = dict(HELP_PAGES)[page]
    embed = discord.Embed(
        title=f"{_(HELP_TITLE)} · {_(label)}",
        description=_(HELP_DESCRIPTION),
        colour=discord.Colour.blurple(),
    )
    for name, text in HELP_SECTIONS:
        if page_of(name) != page:
            continue
        # A section longer than a field (Filipino runs longer than English)
        # goes on in unnamed fields right below it.
        for index, piece in enumerate(split_text(_(text), EMBED_FIELD_VALUE_CHARS)):
            embed.add_field(name=_(name) if index == 0 else "\u200b", value=piece, inline=False)
    embed.set_footer(text=_(HELP_FOOTER))
    return embed


class HelpPageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"help:(?P<page>[a-z]+)",
):
    """Shows another page of /help in the same private reply."""

    def __init__(self, page: str, *, current: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=_(dict(HELP_PAGES).get(page, page)),
                style=discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary,
                disabled=current,
                custom_id=f"help:{page}",
            )
        )
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HelpPageButton:
        return cls(match["page"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            embed=help_embed(self.page), view=help_view(self.page)
        )


def help_view(current: str = PAGE_KEYS[0]) -> discord.ui.View:
    """A button for each page; the one shown is pressed in (and disabled)."""
    view = discord.ui.View(timeout=None)
    for key in PAGE_KEYS:
        view.add_item(HelpPageButton(key, current=key == current))
    return view


__all__ = ["HELP_SECTIONS", "PAGE_KEYS", "HelpPageButton", "help_embed", "help_view", "page_of"]
