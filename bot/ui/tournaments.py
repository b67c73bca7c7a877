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

from bot.messages import tournament_room as room_messages
from bot.messages import tournaments as messages
from bot.messages.i18n import _
from bot.services.tournaments.reading import ExportFile
from bot.ui import threads
from bot.ui.buttons import ButtonRoute, dispatch

log = logging.getLogger(__name__)

Action = Literal["join", "checkin"]
Result = Literal["win", "draw", "loss"]


class TournamentButtonHandler(Protocol):
    async def entry_clicked(
        self, interaction: discord.Interaction, tournament_id: int, action: Action
    ) -> None: ...

    async def report_clicked(
        self,
        interaction: discord.Interaction,
        tournament_id: int,
        round_number: int,
        result: Result,
    ) -> None: ...


TOURNAMENT_BUTTONS: ButtonRoute[TournamentButtonHandler] = ButtonRoute("Tournaments")


class EntryButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"tournament:(?P<action>join|checkin):(?P<tid>\d+)",
):
    def __init__(self, tournament_id: int, action: Action) -> None:
        # Two calls: a literal inside _() is what the catalogue extracts.
        label = _(messages.JOIN_BUTTON) if action == "join" else _(messages.CHECK_IN_BUTTON)
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


class ReportButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"tournament:report:(?P<tid>\d+):(?P<round>\d+):(?P<result>win|draw|loss)",
):
    """Over the board: a round's post's I won / Draw / I lost, the clicker's own result."""

    def __init__(self, tournament_id: int, round_number: int, result: Result) -> None:
        # One call each: a literal inside _() is what the catalogue extracts.
        if result == "win":
            label, style = _(room_messages.WON_BUTTON), discord.ButtonStyle.success
        elif result == "draw":
            label, style = _(room_messages.DRAW_BUTTON), discord.ButtonStyle.secondary
        else:
            label, style = _(room_messages.LOST_BUTTON), discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=f"tournament:report:{tournament_id}:{round_number}:{result}",
            )
        )
        self.tournament_id = tournament_id
        self.round_number = round_number
        self.result: Result = result

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReportButton:
        result: Result = (
            "win" if match["result"] == "win" else ("draw" if match["result"] == "draw" else "loss")
        )
        return cls(int(match["tid"]), int(match["round"]), result)

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            TOURNAMENT_BUTTONS,
            lambda h: h.report_clicked(
                interaction, self.tournament_id, self.round_number, self.result
            ),
            where="tournament report button",
        )


def report_view(args: dict[str, Any]) -> discord.ui.View:
    """A round's post's report buttons (over the board)."""
    view = discord.ui.View(timeout=None)
    tournament_id, round_number = int(args["tournament_id"]), int(args["round"])
    for result in ("win", "draw", "loss"):
        view.add_item(ReportButton(tournament_id, round_number, result))
    return view


DYNAMIC_ITEMS = (EntryButton, ReportButton)


async def make_game_thread(
    client: discord.Client,
    channel_id: int,
    starter: str,
    nonce: str,
    name: str,
    user_ids: Sequence[int],
    live: bool,
) -> int | None:
    """A round game's thread, from a starter message naming its players (posted once per
    nonce; see ``bot.ui.threads``). None plays in the channel; Discord's own trouble
    (5xx, 429) is raised so the job retries."""
    return await threads.open_game_thread(
        client,
        channel_id,
        starter=threads.Starter(starter, nonce, mention_ids=user_ids),
        name=name,
        member_ids=user_ids,
        archive_minutes=threads.ARCHIVE_LIVE if live else threads.ARCHIVE_CORRESPONDENCE,
        what="a tournament game",
    )


def export_files(files: Sequence[ExportFile]) -> list[discord.File]:
    return [
        discord.File(io.BytesIO(f.data), filename=f.name, description=f.description) for f in files
    ]
