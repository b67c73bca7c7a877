"""Finding a game and playing it again on Discord (issue #30): the seek's Accept and
Cancel buttons, the finished game's Rematch button, and the thread and post edits
their service asks for.

The buttons are ``DynamicItem``s whose custom ids carry the game's kind and the
seek or game (``seek:chess:accept:12``, ``rematch:scrabble:34``), so they work after
a restart. A click goes through the one button registry to the kind's
``MatchButtons``, bound by that game's cog.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any, Protocol

import discord

from bot.messages import matchmaking as msg
from bot.messages.i18n import _
from bot.services.matchmaking import MatchmakingService
from bot.services.matchmaking.games import ThreadRequest
from bot.ui import threads
from bot.ui.buttons import ButtonRoute, buttons_of, dispatch
from bot.ui.errors import NO_MENTIONS, discords_trouble, reply_privately, update_later

log = logging.getLogger(__name__)


class MatchHandler(Protocol):
    async def seek_clicked(
        self, interaction: discord.Interaction, seek_id: int, action: str
    ) -> None: ...

    async def rematch_clicked(self, interaction: discord.Interaction, game_id: int) -> None: ...


ROUTES: dict[str, ButtonRoute[MatchHandler]] = {
    "chess": ButtonRoute("chess"),
    "scrabble": ButtonRoute("Scrabble"),
}


class SeekButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"seek:(?P<kind>chess|scrabble):(?P<action>accept|cancel):(?P<seek_id>\d+)",
):
    def __init__(self, kind: str, action: str, seek_id: int) -> None:
        accept = action == "accept"
        super().__init__(
            discord.ui.Button(
                label=_(msg.ACCEPT if accept else msg.CANCEL),
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
                custom_id=f"seek:{kind}:{action}:{seek_id}",
            )
        )
        self.kind, self.action, self.seek_id = kind, action, seek_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SeekButton:
        return cls(match["kind"], match["action"], int(match["seek_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            ROUTES[self.kind],
            lambda h: h.seek_clicked(interaction, self.seek_id, self.action),
            where=f"seek button {self.action}",
        )


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"rematch:(?P<kind>chess|scrabble):(?P<game_id>\d+)",
):
    def __init__(self, kind: str, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_(msg.REMATCH),
                style=discord.ButtonStyle.primary,
                custom_id=f"rematch:{kind}:{game_id}",
            )
        )
        self.kind, self.game_id = kind, game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(match["kind"], int(match["game_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            ROUTES[self.kind],
            lambda h: h.rematch_clicked(interaction, self.game_id),
            where="rematch button",
        )


DYNAMIC_ITEMS = (SeekButton, RematchButton)


def seek_view(kind: str, seek_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SeekButton(kind, "accept", seek_id))
    view.add_item(SeekButton(kind, "cancel", seek_id))
    return view


def rematch_view(args: Mapping[str, Any]) -> discord.ui.View:
    """The outbox's builder of a finished game's Rematch button."""
    kind = "chess" if args.get("kind") == "chess" else "scrabble"
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(kind, int(args["game_id"])))
    return view


def seek_mentions(role_id: int | None) -> discord.AllowedMentions:
    """A seek pings the club's chosen role, and nobody else."""
    if role_id is None:
        return NO_MENTIONS
    return discord.AllowedMentions(
        everyone=False, users=False, replied_user=False, roles=[discord.Object(role_id)]
    )


async def open_match_thread(client: discord.Client, request: ThreadRequest) -> int | None:
    """A matched game's thread: from the seek's post, or from a starter posted once
    by its nonce. None plays in the channel; Discord's own trouble is raised (the
    opening job tries again)."""
    starter = None
    if request.message_id is None:
        starter = threads.Starter(request.starter, request.nonce, mention_ids=request.user_ids)
    return await threads.open_game_thread(
        client,
        request.channel_id,
        starter=starter,
        message_id=request.message_id,
        name=request.name,
        member_ids=request.user_ids,
        archive_minutes=threads.ARCHIVE_LIVE if request.live else threads.ARCHIVE_CORRESPONDENCE,
        what="a matched game",
    )


async def edit_post(client: discord.Client, channel_id: int, message_id: int, text: str) -> None:
    """A seek's post says how it ended; its buttons go. A post gone is left so."""
    try:
        channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
        if isinstance(channel, discord.abc.Messageable):
            await channel.get_partial_message(message_id).edit(
                content=text, view=None, allowed_mentions=NO_MENTIONS
            )
    except discord.HTTPException as error:
        if discords_trouble(error):
            raise
        log.info("could not edit seek post %s in %s: %s", message_id, channel_id, error)


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


class MatchButtons:
    """The seek's and the rematch's buttons of one game kind (``MatchHandler``)."""

    def __init__(self, client: discord.Client, service: MatchmakingService) -> None:
        self.client = client
        self.service = service

    async def seek_clicked(
        self, interaction: discord.Interaction, seek_id: int, action: str
    ) -> None:
        await update_later(interaction)
        guild = interaction.guild
        if action == "cancel":
            snap = await self.service.seeks.cancel(
                seek_id, interaction.user.id, guild_id=guild.id if guild else None
            )
            await interaction.edit_original_response(
                content=snap.post_text(), view=None, allowed_mentions=NO_MENTIONS
            )
            await reply_privately(interaction, _(msg.SEEK_CANCELLED_REPLY))
            return
        message = interaction.message
        taken = await self.service.seeks.accept(
            seek_id,
            (interaction.user.id, _name(interaction.user)),
            guild_name=guild.name if guild else "",
            message_id=message.id if message is not None else None,
            guild_id=guild.id if guild else None,
        )
        try:
            await interaction.edit_original_response(
                content=taken.post_text(), view=None, allowed_mentions=NO_MENTIONS
            )
        except discord.HTTPException:
            pass  # cosmetic: the game is made either way
        await self.service.games.open(taken.game_id)

    async def rematch_clicked(self, interaction: discord.Interaction, game_id: int) -> None:
        await update_later(interaction)
        guild = interaction.guild
        outcome = await self.service.rematches.press(
            game_id,
            interaction.user.id,
            guild_name=guild.name if guild else "",
            guild_id=guild.id if guild else None,
        )
        if outcome.status == "started" and outcome.game_id is not None:
            place = await self.service.games.open(outcome.game_id)
            assert outcome.number is not None
            text = msg.rematch_started(self.service.kind, outcome.number, place)
            await reply_privately(interaction, text)
            if outcome.new and interaction.message is not None:
                try:
                    await interaction.message.edit(view=None)
                except discord.HTTPException:
                    pass
            return
        if outcome.status == "already":
            await reply_privately(interaction, msg.rematch_already(outcome.pressed, outcome.seats))
            return
        await reply_privately(interaction, msg.rematch_waiting(outcome.pressed, outcome.seats))
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(
                msg.rematch_asked(_name(interaction.user), outcome.pressed, outcome.seats),
                allowed_mentions=NO_MENTIONS,
            )


def bind(client: discord.Client, service: MatchmakingService) -> MatchButtons:
    """Route this kind's seek and rematch buttons to a ``MatchButtons`` on ``service``."""
    handler = MatchButtons(client, service)
    buttons_of(client).bind(ROUTES[service.kind], handler)
    service.games.thread_maker = lambda request: open_match_thread(client, request)
    service.seeks.post_editor = lambda channel_id, message_id, text: edit_post(
        client, channel_id, message_id, text
    )
    return handler
