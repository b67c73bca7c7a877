"""Library Henyo on Discord: the Oo / Hindi / Pwede buttons, and the embeds of
the live registration list, the standings table and the word bank (their text
comes from ``bot.messages.henyo``).

The reply buttons are dynamic items: their custom id carries the round id and
the reply (``henyo:reply:<round>:<oo|hindi|pwede>``), so they keep working after
a restart without any view being re-registered per round.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.messages import henyo as messages
from bot.services.henyo import EventView, Standings, WordList
from bot.ui.buttons import ButtonRoute, dispatch
from engines.henyo import Reply

REPLY_STYLES = {
    Reply.OO: discord.ButtonStyle.success,
    Reply.HINDI: discord.ButtonStyle.danger,
    Reply.PWEDE: discord.ButtonStyle.secondary,
}
EMBED_COLOUR = discord.Colour.from_rgb(206, 128, 0)


class ReplyButtonHandler(Protocol):
    async def on_reply_button(
        self, interaction: discord.Interaction, round_id: int, reply: Reply
    ) -> None: ...


HENYO_BUTTONS: ButtonRoute[ReplyButtonHandler] = ButtonRoute("Henyo")


class HenyoReplyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"henyo:reply:(?P<round_id>\d+):(?P<reply>oo|hindi|pwede)",
):
    """One of the answerer's three buttons for one round."""

    def __init__(self, round_id: int, reply: Reply) -> None:
        super().__init__(
            discord.ui.Button(
                label=reply.label,
                style=REPLY_STYLES[reply],
                emoji=messages.REPLY_EMOJI[reply],
                custom_id=f"henyo:reply:{round_id}:{reply.value}",
            )
        )
        self.round_id = round_id
        self.reply = reply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HenyoReplyButton:
        return cls(int(match["round_id"]), Reply(match["reply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            HENYO_BUTTONS,
            lambda henyo: henyo.on_reply_button(interaction, self.round_id, self.reply),
            where="henyo reply button",
        )


def reply_view(round_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for reply in Reply:
        view.add_item(HenyoReplyButton(round_id, reply))
    return view


def embed(card: messages.Card) -> discord.Embed:
    drawn = discord.Embed(title=card.title, description=card.description, colour=EMBED_COLOUR)
    for name, value in card.fields:
        drawn.add_field(name=name, value=value, inline=False)
    if card.footer:
        drawn.set_footer(text=card.footer)
    return drawn


def registration_embed(event: EventView) -> discord.Embed:
    """The live registration list (edited on every registration or withdrawal)."""
    return embed(messages.registration_card(event))


def standings_embed(standings: Standings) -> discord.Embed:
    return embed(messages.standings_card(standings))


def word_list_embeds(words: WordList) -> list[discord.Embed]:
    """The club's words (private to the host)."""
    return [embed(card) for card in messages.word_list_cards(words)]
