"""Leaderboard and stats messages: an image table with a text equivalent."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import discord

from bot.render.leaderboard import render_leaderboard
from bot.services.leaderboard import (
    GAME_TITLES,
    LeaderboardTable,
    MemberStats,
    format_rating,
    format_time_ms,
)

COLUMNS_RATED = ("#", "Name", "Rating", "Games", "W-L-D", "Trend")
COLUMNS_POINTS = ("#", "Name", "Points", "Rounds", "Won")
COLUMNS_TIMES = ("#", "Name", "Best time", "Words", "Guessed", "Events won")
COLUMNS_ALL = ("#", "Name", "Wins", "Games")


def _trend(value: float | None) -> str:
    if value is None or abs(value) < 0.5:
        return "–"
    return f"▲{value:.0f}" if value > 0 else f"▼{-value:.0f}"


def table_cells(table: LeaderboardTable) -> tuple[tuple[str, ...], list[list[str]]]:
    rows = []
    for r in table.rows:
        if table.kind in ("chess", "scrabble"):
            rows.append(
                [
                    str(r.rank),
                    r.name,
                    r.value,
                    str(r.games),
                    f"{r.wins}-{r.losses}-{r.draws}",
                    _trend(r.trend),
                ]
            )
        elif table.kind == "boggle":
            rows.append([str(r.rank), r.name, r.value, str(r.games), str(r.wins)])
        elif table.kind == "henyo":
            rows.append([str(r.rank), r.name, r.value, str(r.games), str(r.draws), str(r.wins)])
        else:
            rows.append([str(r.rank), r.name, r.value, str(r.games)])
    columns = {
        "chess": COLUMNS_RATED,
        "scrabble": COLUMNS_RATED,
        "boggle": COLUMNS_POINTS,
        "henyo": COLUMNS_TIMES,
    }.get(table.kind, COLUMNS_ALL)
    return columns, rows


def _escape(text: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def table_text(table: LeaderboardTable) -> str:
    """The table in words, for screen readers and slow connections."""
    columns, rows = table_cells(table)
    lines = [
        f"**{table.title}** (page {table.page + 1} of {table.pages})"
        if table.pages > 1
        else f"**{table.title}**"
    ]
    if not rows:
        lines.append("Nobody has played yet in this period. Start a game with `/help`!")
    for cells in rows:
        rest = ", ".join(f"{c.lower()} {v}" for c, v in zip(columns[2:], cells[2:], strict=False))
        lines.append(f"{cells[0]}. {_escape(cells[1])[:40]} — {rest}")
    if table.kind in ("chess", "scrabble"):
        lines.append("-# ? marks a provisional rating (few games yet).")
    return "\n".join(lines)[:2000]


async def table_png(table: LeaderboardTable) -> bytes:
    columns, rows = table_cells(table)
    if not rows:
        rows = [["", "No games yet", *[""] * (len(columns) - 2)]]
    return await asyncio.to_thread(render_leaderboard, table.title, columns, rows)


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
        label = "◀ Previous" if direction == "p" else "Next ▶"
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
        fetch = type(self).fetch
        assert fetch is not None and interaction.guild_id is not None
        target = self.page - 1 if self.direction == "p" else self.page + 1
        table = await fetch(interaction.guild_id, self.kind, self.period, target)
        png = await table_png(table)
        await interaction.response.edit_message(
            content=table_text(table),
            attachments=[discord.File(io.BytesIO(png), filename="leaderboard.png")],
            view=pager(table),
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
    embed = discord.Embed(title=f"{stats.name} — club record", colour=discord.Colour.teal())
    if not stats.games:
        embed.description = "No games yet. `/help` shows how to start one."
    for kind in ("chess", "scrabble", "boggle", "henyo"):
        g = stats.games.get(kind)
        if g is None or g.games == 0:
            continue
        if kind in ("chess", "scrabble"):
            value = f"Rating **{format_rating(g.rating or 1500, g.rd or 350)}** · {g.wins} W / {g.losses} L / {g.draws} D"
            if kind == "scrabble":
                value += f" · spread {g.spread:+.0f}"
        elif kind == "boggle":
            value = f"**{g.points:g}** points in {g.games} rounds · {g.wins} rounds won"
        else:
            value = f"Best time **{format_time_ms(g.best_time_ms)}** · {g.games} words · {g.wins} events won"
        if g.last_played_at:
            value += f"\nLast played <t:{int(g.last_played_at.timestamp())}:R>"
        embed.add_field(name=GAME_TITLES[kind], value=value, inline=False)
    return embed
