"""Games events on Discord: the event post's Register button and the partner
picker it opens (both persistent: their custom ids carry the event, so they work
after a restart)."""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.messages import events as msg
from bot.messages.i18n import _
from bot.ui.buttons import ButtonRoute, dispatch


class EventButtonHandler(Protocol):
    async def register_clicked(self, interaction: discord.Interaction, event_id: int) -> None: ...

    async def partner_picked(
        self, interaction: discord.Interaction, event_id: int, partner: discord.abc.User
    ) -> None: ...


EVENT_BUTTONS: ButtonRoute[EventButtonHandler] = ButtonRoute("Games events")


class RegisterButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"event:register:(?P<eid>\d+)",
):
    def __init__(self, event_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_(msg.REGISTER),
                style=discord.ButtonStyle.success,
                custom_id=f"event:register:{event_id}",
            )
        )
        self.event_id = event_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RegisterButton:
        return cls(int(match["eid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            EVENT_BUTTONS,
            lambda h: h.register_clicked(interaction, self.event_id),
            where="event register button",
        )


class PartnerSelect(
    discord.ui.DynamicItem[discord.ui.UserSelect[discord.ui.View]],
    template=r"event:partner:(?P<eid>\d+)",
):
    def __init__(self, event_id: int) -> None:
        super().__init__(
            discord.ui.UserSelect(
                placeholder=_(msg.PARTNER_PLACEHOLDER),
                custom_id=f"event:partner:{event_id}",
                min_values=1,
                max_values=1,
            )
        )
        self.event_id = event_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PartnerSelect:
        return cls(int(match["eid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        await dispatch(
            interaction,
            EVENT_BUTTONS,
            lambda h: h.partner_picked(interaction, self.event_id, values[0]),
            where="event partner picker",
        )


def register_view(args: dict[str, Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RegisterButton(int(args["event_id"])))
    return view


def partner_view(event_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PartnerSelect(event_id))
    return view


DYNAMIC_ITEMS = (RegisterButton, PartnerSelect)
