"""Tournaments on Discord: the sign-up post's Join / Check in buttons (persistent,
their custom ids carry the tournament), the round games' threads, and exports
as files with alt text."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from typing import Any, Literal, Protocol

import discord

from bot.services.tournaments.reading import ExportFile
from bot.ui.buttons import ButtonRoute, dispatch

log = logging.getLogger(__name__)

Action = Literal["join", "checkin"]
THREAD_EXISTS = 160004  # "a thread has already been created for this message"
ARCHIVE_MINUTES: Literal[10080] = 10080


class TournamentButtonHandler(Protocol):
    async def entry_clicked(
        self, interaction: discord.Interaction, tournament_id: int, action: Action
    ) -> None: ...


TOURNAMENT_BUTTONS: ButtonRoute[TournamentButtonHandler] = ButtonRoute("Tournaments")


class EntryButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"tournament:(?P<action>join|checkin):(?P<tid>\d+)",
):
    def __init__(self, tournament_id: int, action: Action) -> None:
        label = "Join" if action == "join" else "Check in"
        style = discord.ButtonStyle.success if action == "join" else discord.ButtonStyle.primary
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"tournament:{action}:{tournament_id}"
            )
        )
        self.tournament_id = tournament_id
        self.action: Action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> EntryButton:
        action: Action = "join" if match["action"] == "join" else "checkin"
        return cls(int(match["tid"]), action)

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            TOURNAMENT_BUTTONS,
            lambda h: h.entry_clicked(interaction, self.tournament_id, self.action),
            where="tournament entry button",
        )


def entry_view(args: dict[str, Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    tournament_id = int(args["tournament_id"])
    view.add_item(EntryButton(tournament_id, "join"))
    if args.get("checkin"):
        view.add_item(EntryButton(tournament_id, "checkin"))
    return view


DYNAMIC_ITEMS = (EntryButton,)


async def make_game_thread(
    client: discord.Client,
    channel_id: int,
    starter: str,
    nonce: str,
    name: str,
    user_ids: Sequence[int],
    live: bool,
) -> int | None:
    """A round game's thread, from a starter message naming its players: the
    message is posted once per nonce (``enforce_nonce``), and a thread started
    from it has its id, so a repeat finds the thread made before. None plays in
    the channel; Discord's own trouble (5xx, 429) is raised so the job retries."""
    channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
    if isinstance(channel, discord.Thread):
        return channel.id
    if not isinstance(channel, discord.TextChannel):
        return None
    mentions = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in user_ids]
    )
    try:
        message = await channel.send(starter, nonce=nonce, allowed_mentions=mentions)
    except discord.HTTPException as error:
        if error.status >= 500 or error.status == 429:
            raise
        log.warning("could not post a tournament game's starter in %s: %s", channel_id, error)
        return None
    existing = client.get_channel(message.id)
    if isinstance(existing, discord.Thread):
        return existing.id
    try:
        thread = await message.create_thread(name=name, auto_archive_duration=ARCHIVE_MINUTES)
    except discord.HTTPException as error:
        if error.code == THREAD_EXISTS:
            return message.id
        if error.status >= 500 or error.status == 429:
            raise
        log.warning("could not open a tournament game's thread: %s", error)
        return None
    for user_id in user_ids:
        try:
            await thread.add_user(discord.Object(user_id))
        except discord.HTTPException:
            pass  # they can still open the public thread
    return thread.id


def export_files(files: Sequence[ExportFile]) -> list[discord.File]:
    return [
        discord.File(io.BytesIO(f.data), filename=f.name, description=f.description) for f in files
    ]
