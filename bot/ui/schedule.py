"""Agreeing a game's time and the server's scheduled events, on Discord's side.

The proposal's buttons are ``DynamicItem``s whose custom ids carry the proposal and
the time (``schedule:accept:12:2``), so they work after a restart; a click goes
through the one button registry to ``ScheduleHandler``, bound by the ``/schedule``
cog. ``DiscordEvents`` is the service's ``EventsPort``: it makes, moves and deletes
the server's scheduled events over Discord's REST API.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, Protocol

import discord

from bot.services.scheduling.events import WantedEvent
from bot.ui.buttons import ButtonRoute, dispatch
from bot.ui.errors import discords_trouble

log = logging.getLogger(__name__)

EXTERNAL = 3  # Discord's entity type of an event held somewhere else than a voice channel
GUILD_ONLY = 2  # the only privacy level Discord has
SCHEDULED, ACTIVE = 1, 2  # Discord's event statuses
START_MARGIN = timedelta(minutes=1)  # Discord refuses an event made to start in the past
UNKNOWN_EVENT = 10070


class ScheduleHandler(Protocol):
    async def accept_clicked(
        self, interaction: discord.Interaction, proposal_id: int, index: int
    ) -> None: ...


ROUTE: ButtonRoute[ScheduleHandler] = ButtonRoute("game times")


class AcceptTimeButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"schedule:accept:(?P<proposal_id>\d+):(?P<index>[1-9])",
):
    def __init__(self, proposal_id: int, index: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or str(index))[:80],
                style=discord.ButtonStyle.success,
                custom_id=f"schedule:accept:{proposal_id}:{index}",
            )
        )
        self.proposal_id, self.index = proposal_id, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AcceptTimeButton:
        return cls(int(match["proposal_id"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            ROUTE,
            lambda h: h.accept_clicked(interaction, self.proposal_id, self.index),
            where="schedule accept button",
        )


DYNAMIC_ITEMS = (AcceptTimeButton,)


def proposal_view(args: Mapping[str, Any]) -> discord.ui.View:
    """The outbox's builder of a proposal's buttons: one per time."""
    view = discord.ui.View(timeout=None)
    proposal_id = int(args["proposal_id"])
    for index, label in enumerate(args.get("labels") or [], start=1):
        view.add_item(AcceptTimeButton(proposal_id, index, str(label)))
    return view


async def drop_buttons(message: discord.Message | None) -> None:
    """A proposal whose time was agreed keeps its text and loses its buttons; a post
    gone or not editable is left so (a late press is refused anyway)."""
    if message is None:
        return
    try:
        await message.edit(view=None)
    except discord.HTTPException as error:
        log.info("could not take the buttons off proposal post %s: %s", message.id, error)


def _iso(moment: datetime) -> str:
    return moment.isoformat()


class DiscordEvents:
    """The service's ``EventsPort``: the server's scheduled events over Discord's REST API."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def sync(self, wanted: WantedEvent) -> int | None:
        guild = self.client.get_guild(wanted.guild_id)
        if guild is None:
            log.info("server %s is not reachable: its event is left as it is", wanted.guild_id)
            return wanted.discord_id
        me = guild.me
        if me is None or not me.guild_permissions.manage_events:
            log.info(
                "no Manage Events permission in server %s: its scheduled event is skipped",
                wanted.guild_id,
            )
            return wanted.discord_id
        try:
            if wanted.remove:
                await self._delete(wanted)
                return None
            return await self._make_or_move(guild, wanted)
        except discord.HTTPException as error:
            if discords_trouble(error):
                raise  # the job tries again later
            log.warning(
                "Discord refused server %s's scheduled event %r: %s",
                wanted.guild_id,
                wanted.name,
                error,
            )
            return wanted.discord_id

    async def _delete(self, wanted: WantedEvent) -> None:
        if wanted.discord_id is None:
            return
        try:
            await self.client.http.delete_scheduled_event(wanted.guild_id, wanted.discord_id)
        except discord.NotFound:
            pass  # deleted already (by a moderator, or by an earlier try)

    def _location(self, guild: discord.Guild, wanted: WantedEvent) -> str:
        if wanted.location:
            return wanted.location
        channel = guild.get_channel(wanted.channel_id) if wanted.channel_id else None
        return f"#{channel.name}" if channel is not None else guild.name

    async def _make_or_move(self, guild: discord.Guild, wanted: WantedEvent) -> int:
        http = self.client.http
        soonest = wanted.now + START_MARGIN
        payload: dict[str, Any] = {
            "name": wanted.name,
            "entity_type": EXTERNAL,
            "privacy_level": GUILD_ONLY,
            "entity_metadata": {"location": self._location(guild, wanted)[:100]},
            "scheduled_end_time": _iso(max(wanted.ends_at, soonest + START_MARGIN)),
        }
        existing = await self._existing(wanted)
        if existing is None:
            data = await http.create_guild_scheduled_event(
                wanted.guild_id,
                scheduled_start_time=_iso(max(wanted.starts_at, soonest)),
                channel_id=None,
                **payload,
            )
        else:
            if int(existing.get("status", SCHEDULED)) == SCHEDULED:
                payload["scheduled_start_time"] = _iso(max(wanted.starts_at, soonest))
            data = await http.edit_scheduled_event(wanted.guild_id, existing["id"], **payload)
        event_id = int(data["id"])
        if wanted.starts_at <= wanted.now and int(data.get("status", SCHEDULED)) == SCHEDULED:
            # under way already: shown as happening now, not as starting in a minute
            await http.edit_scheduled_event(wanted.guild_id, event_id, status=ACTIVE)
        return event_id

    async def _existing(self, wanted: WantedEvent) -> dict[str, Any] | None:
        """Discord's event for this one: by its id, else one the bot made under its name
        (an earlier try made it, then stopped before its id was kept)."""
        events = await self.client.http.get_scheduled_events(wanted.guild_id, False)
        me = self.client.user.id if self.client.user else None
        for event in events:
            if wanted.discord_id is not None and int(event["id"]) == wanted.discord_id:
                return dict(event)
        if wanted.discord_id is None:
            for event in events:
                if str(event.get("creator_id")) == str(me) and event.get("name") == wanted.name:
                    return dict(event)
        return None
