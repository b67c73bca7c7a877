"""The daily puzzle's post on Discord: its Solve button, a dynamic item (its custom id
carries the puzzle), so the post's button works after a restart; the outbox builds it
from the post's ``ViewSpec``."""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.messages import puzzle_daily as msg
from bot.messages.i18n import _
from bot.ui.buttons import ButtonRoute, dispatch
from bot.ui.errors import ClubView


class SolveHandler(Protocol):
    async def solve(self, interaction: discord.Interaction, puzzle_id: int) -> None: ...


DAILY_BUTTONS: ButtonRoute[SolveHandler] = ButtonRoute("Puzzles")


class SolveButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"puzzle:solve:(?P<puzzle_id>\d+)",
):
    """The Solve button: opens the day's puzzle for the member who pressed it, privately."""

    def __init__(self, puzzle_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_(msg.SOLVE_LABEL),
                style=discord.ButtonStyle.primary,
                emoji="🧩",
                custom_id=f"puzzle:solve:{puzzle_id}",
            )
        )
        self.puzzle_id = puzzle_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SolveButton:
        return cls(int(match["puzzle_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            DAILY_BUTTONS,
            lambda handler: handler.solve(interaction, self.puzzle_id),
            where="daily puzzle solve",
        )


def solve_view(args: dict[str, Any]) -> discord.ui.View:
    """The outbox's view of a daily puzzle post (``VIEW_SOLVE``)."""
    view = ClubView(timeout=None)
    view.add_item(SolveButton(int(args["puzzle_id"])))
    return view
