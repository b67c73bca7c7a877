"""Library Henyo on Discord: the Oo / Hindi / Pwede buttons, the embeds of the
live registration list, the standings table and the word bank (their text
comes from ``bot.messages.henyo``), and the posts the cog keeps up to date: the
registration list message, a finished round's buttons, the secret's DMs.

The reply buttons are dynamic items: their custom id carries the round id and
the reply (``henyo:reply:<round>:<oo|hindi|pwede>``), so they keep working after
a restart without any view being re-registered per round. So is the host's
"close anyway" button (``henyo:close:<event>``), shown when pairs still have to play,
and the host console's buttons of a round played aloud
(``henyo:host:<round>:<press>:<version>``, on the host's ephemeral console only).
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any, Protocol

import discord

from bot.messages import henyo as messages
from bot.messages.henyo import aloud
from bot.messages.i18n import _
from bot.services.henyo import ConsoleView, EventSnapshot, Standings, WordList
from bot.services.henyo.events import Events
from bot.ui.buttons import ButtonRoute, dispatch
from bot.ui.dm_channels import DirectMessages
from engines.henyo import Reply

REPLY_STYLES = {
    Reply.OO: discord.ButtonStyle.success,
    Reply.HINDI: discord.ButtonStyle.danger,
    Reply.PWEDE: discord.ButtonStyle.secondary,
}
EMBED_COLOUR = discord.Colour.from_rgb(206, 128, 0)
# Where a round is played: channels that take messages and keep a history.
RoundChannel = (
    discord.TextChannel
    | discord.VoiceChannel
    | discord.StageChannel
    | discord.Thread
    | discord.DMChannel
)

log = logging.getLogger(__name__)


class HenyoButtonHandler(Protocol):
    async def on_reply_button(
        self, interaction: discord.Interaction, round_id: int, reply: Reply
    ) -> None: ...

    async def on_close_button(self, interaction: discord.Interaction, event_id: int) -> None: ...

    async def on_host_button(
        self, interaction: discord.Interaction, round_id: int, press: str, version: int
    ) -> None: ...


HENYO_BUTTONS: ButtonRoute[HenyoButtonHandler] = ButtonRoute("Henyo")


class HenyoReplyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"henyo:reply:(?P<round_id>\d+):(?P<reply>oo|hindi|pwede)",
):
    """One of the answerer's three buttons for one round."""

    def __init__(self, round_id: int, reply: Reply) -> None:
        super().__init__(
            discord.ui.Button(
                label=messages.reply_label(reply),
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


class HenyoCloseButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"henyo:close:(?P<event_id>\d+)",
):
    """The host's confirmation that an event with pairs still to play closes now."""

    def __init__(self, event_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_(messages.CLOSE_ANYWAY),
                style=discord.ButtonStyle.danger,
                custom_id=f"henyo:close:{event_id}",
            )
        )
        self.event_id = event_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HenyoCloseButton:
        return cls(int(match["event_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            HENYO_BUTTONS,
            lambda henyo: henyo.on_close_button(interaction, self.event_id),
            where="henyo close button",
        )


HOST_STYLES = {
    "start": discord.ButtonStyle.success,
    "penalty": discord.ButtonStyle.danger,
    "got_it": discord.ButtonStyle.success,
    "coaching": discord.ButtonStyle.danger,
    "undo": discord.ButtonStyle.secondary,
    "screen_on": discord.ButtonStyle.secondary,
    "screen_off": discord.ButtonStyle.secondary,
}


class HenyoHostButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=(
        r"henyo:host:(?P<round_id>\d+)"
        r":(?P<press>start|penalty|got_it|coaching|undo|screen_on|screen_off):(?P<version>\d+)"
    ),
):
    """A button of the host's console: a press made on the round's version it shows
    (so a double tap, found on an older version, counts once)."""

    def __init__(
        self, round_id: int, press: str, version: int, label: str = "", disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or press,
                style=HOST_STYLES[press],
                custom_id=f"henyo:host:{round_id}:{press}:{version}",
                disabled=disabled,
            )
        )
        self.round_id = round_id
        self.press = press
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HenyoHostButton:
        return cls(int(match["round_id"]), match["press"], int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            HENYO_BUTTONS,
            lambda henyo: henyo.on_host_button(
                interaction, self.round_id, self.press, self.version
            ),
            where="henyo host console",
        )


def console_view(view: ConsoleView, phone_url: str | None = None) -> discord.ui.View:
    """The host's console: Start, +5 s, Got it, Coaching, Undo last (each enabled when it
    would count now), the screen's switch, and the phone page's link."""
    drawn = discord.ui.View(timeout=None)
    for press in ("start", "penalty", "got_it", "coaching", "undo"):
        drawn.add_item(
            HenyoHostButton(
                view.round_id,
                press,
                view.version,
                aloud.press_name(press, view.penalty_ms),
                disabled=press not in view.can,
            )
        )
    switch = "screen_off" if view.show_word_on_screen else "screen_on"
    label = aloud.SCREEN_WORD_OFF if view.show_word_on_screen else aloud.SCREEN_WORD_ON
    drawn.add_item(HenyoHostButton(view.round_id, switch, view.version, _(label)))
    if phone_url is not None:
        drawn.add_item(
            discord.ui.Button(
                style=discord.ButtonStyle.link, url=phone_url, label=_(aloud.OPEN_ON_PHONE)
            )
        )
    return drawn


def close_view(event_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HenyoCloseButton(event_id))
    return view


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


def registration_embed(event: EventSnapshot) -> discord.Embed:
    """The live registration list (edited on every registration or withdrawal)."""
    return embed(messages.registration_card(event))


def standings_embed(standings: Standings) -> discord.Embed:
    return embed(messages.standings_card(standings))


def word_list_embeds(words: WordList) -> list[discord.Embed]:
    """The club's words (private to the host)."""
    return [embed(card) for card in messages.word_list_cards(words)]


# --------------------------------------------------------------------------- posts kept up to date


async def round_channel(client: discord.Client, channel_id: int) -> RoundChannel | None:
    """A round's channel; None when it is gone or can't be read (a forum, a category)."""
    channel = client.get_channel(channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(channel_id)
        except discord.HTTPException:
            return None
    return channel if isinstance(channel, RoundChannel) else None


async def remove_buttons(client: discord.Client, channel_id: int, message_id: int) -> None:
    """Take a finished round's reply buttons off its announcement."""
    channel = await round_channel(client, channel_id)
    if channel is None:
        return
    try:
        await channel.get_partial_message(message_id).edit(view=None)
    except discord.HTTPException:
        log.info("could not take the reply buttons off message %s", message_id)


async def send_dm(dms: DirectMessages, user_id: int, text: str) -> bool:
    """Send a private message (to the member's remembered DM channel); False when
    the member's DMs are closed."""

    async def message() -> dict[str, Any]:
        return {"content": text}

    try:
        await dms.send(user_id, message)
        return True
    except discord.Forbidden:
        return False
    except discord.HTTPException as exc:
        log.warning("henyo DM to %s failed with %s %s", user_id, exc.status, exc.code)
        return False


class RegistrationList:
    """Each event's live registration list: edited on every change, posted again
    if someone deleted it.

    One refresh at a time per event, each reading the state afresh, so edits
    from two quick registrations can't land in the wrong order.
    """

    def __init__(self, client: discord.Client, events: Events) -> None:
        self.client = client
        self.events = events
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, event_id: int) -> asyncio.Lock:
        """Held while a list is posted or edited (and its message id saved)."""
        return self._locks.setdefault(event_id, asyncio.Lock())

    async def refresh(self, event_id: int) -> None:
        async with self.lock(event_id):
            try:
                await self._edit(event_id)
            except (
                discord.HTTPException
            ) as exc:  # the command succeeded; the list catches up next time
                log.warning(
                    "could not show the registration list of henyo event %s (%s %s)",
                    event_id,
                    exc.status,
                    exc.code,
                )

    async def _edit(self, event_id: int) -> None:
        event = await self.events.get(event_id)
        channel = await round_channel(self.client, event.channel_id)
        if channel is None:
            return
        drawn = registration_embed(event)
        if event.list_message_id is not None:
            try:
                await channel.get_partial_message(event.list_message_id).edit(embed=drawn)
                return
            except discord.NotFound:
                pass  # someone deleted it: post a new one
        message = await channel.send(embed=drawn)
        await self.events.set_list_message(event.id, message.id)
