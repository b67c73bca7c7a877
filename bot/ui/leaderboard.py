"""Leaderboard and stats messages: an image table with a text equivalent, and
the image's alt text (the words are ``bot.messages.leaderboard``'s)."""

from __future__ import annotations

import io
import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import discord

from bot.messages.achievements import (
    ACHIEVEMENTS_TITLE,
    STREAKS_TITLE,
    achievement_lines,
    streak_lines,
)
from bot.messages.i18n import _
from bot.messages.leaderboard import (
    GAME_TITLES,
    NEXT_PAGE,
    NO_GAMES_YET,
    PREVIOUS_PAGE,
    game_record,
    image_cells,
    stats_title,
    table_alt_text,
    table_cells,
    table_text,
)
from bot.offload import draw
from bot.render.leaderboard import render_leaderboard
from bot.services.leaderboard import LeaderboardTable, MemberStats
from bot.ui.errors import update_later

FILENAME = "leaderboard.png"


async def table_png(table: LeaderboardTable) -> bytes:
    columns, rows = image_cells(table)
    return await draw(
        render_leaderboard, table.title, tuple(columns), tuple(tuple(row) for row in rows)
    )


async def table_file(table: LeaderboardTable) -> discord.File:
    """The table's image, described in words for screen readers."""
    png = await table_png(table)
    return discord.File(io.BytesIO(png), filename=FILENAME, description=table_alt_text(table))


class LeaderboardPageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"lb:(?P<kind>[a-z]+):(?P<period>[a-z]+):(?P<page>\d+):(?P<dir>[pn])",
):
    """Previous/next page; works after a restart (the state is in the custom id)."""

    # The leaderboard cog sets this when it loads: (guild, kind, period, page) -> table.
    fetch: ClassVar[Callable[[int, str, str, int], Awaitable[LeaderboardTable]] | None] = None

    def __init__(
        self, kind: str, period: str, page: int, direction: str, *, disabled: bool = False
    ) -> None:
        label = _(PREVIOUS_PAGE) if direction == "p" else _(NEXT_PAGE)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"lb:{kind}:{period}:{page}:{direction}",
            )
        )
        self.kind, self.period, self.page, self.direction = kind, period, page, direction

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardPageButton:
        return cls(match["kind"], match["period"], int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await update_later(interaction)  # the page is read and drawn after
        fetch = type(self).fetch
        assert fetch is not None and interaction.guild_id is not None
        target = self.page - 1 if self.direction == "p" else self.page + 1
        table = await fetch(interaction.guild_id, self.kind, self.period, target)
        await interaction.edit_original_response(
            content=table_text(table), attachments=[await table_file(table)], view=pager(table)
        )


def pager(table: LeaderboardTable) -> discord.ui.View | None:
    if table.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(
        LeaderboardPageButton(table.kind, table.period, table.page, "p", disabled=table.page == 0)
    )
    view.add_item(
        LeaderboardPageButton(
            table.kind, table.period, table.page, "n", disabled=table.page >= table.pages - 1
        )
    )
    return view


def stats_embed(stats: MemberStats) -> discord.Embed:
    embed = discord.Embed(title=stats_title(stats.name), colour=discord.Colour.teal())
    if not stats.games and not stats.streaks:
        embed.description = _(NO_GAMES_YET)
    for kind in ("chess", "scrabble", "boggle", "henyo", "event", "league"):
        g = stats.games.get(kind)
        if g is None or g.games == 0:
            continue
        embed.add_field(name=_(GAME_TITLES[kind]), value=game_record(kind, g), inline=False)
    if stats.streaks:
        streaks = [(s.kind, s.current, s.best) for s in stats.streaks]
        embed.add_field(name=_(STREAKS_TITLE), value=streak_lines(streaks), inline=False)
    if stats.achievements:
        earned = [(a.code, a.earned_at, a.detail) for a in stats.achievements]
        embed.add_field(name=_(ACHIEVEMENTS_TITLE), value=achievement_lines(earned), inline=False)
    return embed


__all__ = [
    "LeaderboardPageButton",
    "pager",
    "stats_embed",
    "table_cells",
    "table_file",
    "table_png",
    "table_text",
]
