"""The leaderboard's reads: one ranked page of a club's table, and the club's calendar.

Each table is one statement returning one page of rows (ranked) and the total
row count (a window function, or a count subquery). The ranking runs on
``ratings`` or ``results`` alone; names are joined to the page's rows only. The
statements are built once (``leaderboard_statements``) and run with each call's
parameters on the session's connection: plain Core rows, because the ORM's
entity machinery would only add time to a table read on every command. No
result is kept between calls.

"All time" tables read the standings kept on ``ratings`` (an indexed top-N
query); a period sums the period's ``results`` rows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import Row, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from bot.db.models import GuildRecord
from bot.db.repositories.leaderboard_statements import (
    Statement,
    overall_statement,
    points_statement,
    rated_statement,
    times_statement,
)

T = TypeVar("T")

_Params = dict[str, object]


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a table's rows, and how many rows the whole table has."""

    rows: list[T]
    total: int


@dataclass(frozen=True, slots=True)
class RatedStanding:
    """A row of a rated table (chess, Scrabble): the member's current rating and,
    for a period, the games of the period and the rating it gained (``trend``)."""

    player_id: int
    name: str
    rating: float
    rd: float
    games: int
    wins: int
    losses: int
    draws: int
    trend: float | None


@dataclass(frozen=True, slots=True)
class PointsStanding:
    """A row of the Boggle table: points summed over the rounds played."""

    player_id: int
    name: str
    points: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class TimeStanding:
    """A row of the Henyo table: the best final time, words played and guessed, events won."""

    player_id: int
    name: str
    best_ms: int | None
    words: int
    guessed: int
    wins: int


@dataclass(frozen=True, slots=True)
class WinsStanding:
    """A row of the all-games table: wins and games over every game."""

    player_id: int
    name: str
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class ClubCalendar:
    """What a period table needs from the club: its time zone and settings (seasons)."""

    timezone: str
    settings: Mapping[str, object]


class LeaderboardRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session
        self._conn: AsyncConnection | None = None

    async def _connection(self) -> AsyncConnection:
        # The session's connection, kept for the transaction: asking the session
        # again costs about as much as reading a ten-row page. A commit or rollback
        # closes it, and the next call asks the session for the new one.
        conn = self._conn
        if conn is None or conn.closed:
            conn = self._conn = await self.session.connection()
        return conn

    async def _page(
        self, statement: Statement, params: _Params, row: Callable[[Row[Any]], T]
    ) -> Page[T]:
        conn = await self._connection()
        result = (await conn.execute(statement, params)).all()
        return Page([row(r) for r in result], result[0].total if result else 0)

    async def calendar(self, guild_id: int) -> ClubCalendar | None:
        """The club's time zone and settings, or None for a club never set up."""
        conn = await self._connection()
        row = (
            await conn.execute(
                select(GuildRecord.timezone, GuildRecord.settings).where(GuildRecord.id == guild_id)
            )
        ).first()
        return None if row is None else ClubCalendar(row.timezone, row.settings or {})

    async def rated(
        self,
        guild_id: int,
        kind: str,
        *,
        since: datetime | None,
        active_since: datetime,
        offset: int,
        limit: int,
    ) -> Page[RatedStanding]:
        """All time (``since`` None): members who played since ``active_since``, by
        rating. A period: the members who played in it, by their current rating."""
        params = _params(guild_id, since, offset, limit)
        params["kind"] = kind
        if since is None:
            params["active_since"] = active_since
        return await self._page(rated_statement(since is not None), params, _rated)

    async def boggle_points(
        self, guild_id: int, *, since: datetime | None, offset: int, limit: int
    ) -> Page[PointsStanding]:
        params = _params(guild_id, since, offset, limit)
        return await self._page(points_statement(since is not None), params, _points)

    async def henyo_times(
        self, guild_id: int, *, since: datetime | None, offset: int, limit: int
    ) -> Page[TimeStanding]:
        params = _params(guild_id, since, offset, limit)
        return await self._page(times_statement(since is not None), params, _times)

    async def wins(
        self, guild_id: int, *, since: datetime | None, offset: int, limit: int
    ) -> Page[WinsStanding]:
        params = _params(guild_id, since, offset, limit)
        return await self._page(overall_statement(since is not None), params, _wins)


def _params(guild_id: int, since: datetime | None, offset: int, limit: int) -> _Params:
    params: _Params = {"guild_id": guild_id, "offset": offset, "limit": limit}
    if since is not None:
        params["since"] = since
    return params


# A page's rows as the types above (sums are None where a member has no such row).


def _rated(r: Row[Any]) -> RatedStanding:
    trend = None if r.trend is None else float(r.trend)
    return RatedStanding(
        r.player_id,
        r.display_name,
        r.rating,
        r.rd,
        int(r.games),
        int(r.wins or 0),
        int(r.losses or 0),
        int(r.draws or 0),
        trend,
    )


def _points(r: Row[Any]) -> PointsStanding:
    return PointsStanding(
        r.player_id, r.display_name, float(r.points), int(r.games), int(r.wins or 0)
    )


def _times(r: Row[Any]) -> TimeStanding:
    best = None if r.best is None else int(r.best)
    return TimeStanding(
        r.player_id, r.display_name, best, int(r.words), int(r.guessed), int(r.wins or 0)
    )


def _wins(r: Row[Any]) -> WinsStanding:
    return WinsStanding(r.player_id, r.display_name, int(r.games), int(r.wins or 0))


__all__ = [
    "ClubCalendar",
    "LeaderboardRepository",
    "Page",
    "PointsStanding",
    "RatedStanding",
    "TimeStanding",
    "WinsStanding",
]
