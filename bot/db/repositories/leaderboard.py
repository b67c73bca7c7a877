"""The leaderboard's reads: one ranked page of a club's table, and the club's calendar.

Each table is one statement returning one page of rows (ranked) and the total
row count (a window function, or a count subquery). The ranking runs on
``ratings`` or ``results`` alone; names are joined to the page's rows only. The
statements are built once (the ``_…_statement`` builders below) and run with
each call's parameters on the session's connection: plain Core rows, because
the ORM's entity machinery would only add time to a table read on every
command. Nothing is kept between calls.

"All time" tables read the standings kept on ``ratings`` (an indexed top-N
query); a period sums the period's ``results`` rows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, Generic, TypeVar

from sqlalchemy import (
    ColumnElement,
    Row,
    ScalarSelect,
    Select,
    Subquery,
    and_,
    bindparam,
    case,
    func,
    null,
    select,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from bot.db.models import GuildRecord, PlayerRecord, RatingRecord, ResultRecord

T = TypeVar("T")

# A statement of any columns: the tables read their rows' columns by name.
_Statement = Select[*tuple[Any, ...]]
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

    async def _rows(self, statement: _Statement, params: _Params) -> list[Row[Any]]:
        conn = await self._connection()
        return list((await conn.execute(statement, params)).all())

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
        params: _Params = {"guild_id": guild_id, "kind": kind, "offset": offset, "limit": limit}
        if since is None:
            params["active_since"] = active_since
        else:
            params["since"] = since
        result = await self._rows(_rated_statement(since is not None), params)
        rows = [
            RatedStanding(
                r.player_id,
                r.display_name,
                r.rating,
                r.rd,
                int(r.games),
                int(r.wins or 0),
                int(r.losses or 0),
                int(r.draws or 0),
                None if r.trend is None else float(r.trend),
            )
            for r in result
        ]
        return Page(rows, result[0].total if result else 0)

    async def boggle_points(
        self, guild_id: int, *, since: datetime | None, offset: int, limit: int
    ) -> Page[PointsStanding]:
        result = await self._rows(
            _points_statement(since is not None), _params(guild_id, since, offset, limit)
        )
        rows = [
            PointsStanding(
                r.player_id, r.display_name, float(r.points), int(r.games), int(r.wins or 0)
            )
            for r in result
        ]
        return Page(rows, result[0].total if result else 0)

    async def henyo_times(
        self, guild_id: int, *, since: datetime | None, offset: int, limit: int
    ) -> Page[TimeStanding]:
        result = await self._rows(
            _times_statement(since is not None), _params(guild_id, since, offset, limit)
        )
        rows = [
            TimeStanding(
                r.player_id,
                r.display_name,
                None if r.best is None else int(r.best),
                int(r.words),
                int(r.guessed),
                int(r.wins or 0),
            )
            for r in result
        ]
        return Page(rows, result[0].total if result else 0)

    async def wins(
        self, guild_id: int, *, since: datetime | None, offset: int, limit: int
    ) -> Page[WinsStanding]:
        result = await self._rows(
            _overall_statement(since is not None), _params(guild_id, since, offset, limit)
        )
        rows = [
            WinsStanding(r.player_id, r.display_name, int(r.games), int(r.wins or 0))
            for r in result
        ]
        return Page(rows, result[0].total if result else 0)


def _params(guild_id: int, since: datetime | None, offset: int, limit: int) -> _Params:
    params: _Params = {"guild_id": guild_id, "offset": offset, "limit": limit}
    if since is not None:
        params["since"] = since
    return params


# ----------------------------------------------------------------------- statements
# Parameters: :guild_id, :offset, :limit, and :kind, :since (period tables) or
# :active_since (all-time rated tables) where the statement has them.


def _count_outcome(outcome: str) -> ColumnElement[int]:
    return func.sum(case((ResultRecord.outcome == outcome, 1), else_=0))


def _wins() -> ColumnElement[int]:
    return _count_outcome("win")


def _results_where(kind: str | None, by_period: bool) -> list[ColumnElement[bool]]:
    conds = [ResultRecord.guild_id == bindparam("guild_id")]
    if kind is not None:
        conds.append(ResultRecord.game_kind == kind)
    if by_period:
        conds.append(ResultRecord.played_at >= bindparam("since"))
    return conds


def _count_of(standing: tuple[ColumnElement[bool], ...]) -> ScalarSelect[int]:
    """How many ``ratings`` rows match: a subquery run once per statement. (A window
    count would make the database rank every member; this lets it read the
    ratings index in order and stop after the page.)"""
    return (
        select(func.count())
        .select_from(RatingRecord)
        .where(*standing)
        .correlate(None)
        .scalar_subquery()
    )


def _with_names(
    ranked: _Statement, order: Callable[[Subquery], tuple[ColumnElement[Any], ...]]
) -> _Statement:
    """One ranked page (``ranked`` with its offset and limit) and the members' names,
    ranked again by ``order`` (the same ranking on the page's columns)."""
    page = ranked.offset(bindparam("offset")).limit(bindparam("limit")).subquery()
    return (
        select(page, PlayerRecord.display_name)
        .join(PlayerRecord, PlayerRecord.id == page.c.player_id)
        .order_by(*order(page))
    )


@cache
def _rated_statement(by_period: bool) -> _Statement:
    if not by_period:
        standing = (
            RatingRecord.guild_id == bindparam("guild_id"),
            RatingRecord.game_kind == bindparam("kind"),
            RatingRecord.games > 0,
            RatingRecord.last_played_at >= bindparam("active_since"),
        )
        ranked = (
            select(
                RatingRecord.player_id,
                RatingRecord.rating,
                RatingRecord.rd,
                RatingRecord.games,
                RatingRecord.wins,
                RatingRecord.losses,
                RatingRecord.draws,
                _count_of(standing).label("total"),
                null().label("trend"),
            )
            .where(*standing)
            .order_by(RatingRecord.rating.desc(), RatingRecord.player_id)
        )
        return _with_names(ranked, lambda p: (p.c.rating.desc(), p.c.player_id))
    # The period's games per member, beside their current rating; the trend is
    # the sum of the rating changes recorded with each result.
    after = ResultRecord.extra["rating_after"].as_float()
    before = ResultRecord.extra["rating_before"].as_float()
    played = (
        select(
            ResultRecord.player_id,
            func.count().label("games"),
            _count_outcome("win").label("wins"),
            _count_outcome("loss").label("losses"),
            _count_outcome("draw").label("draws"),
            func.sum(func.coalesce(after - func.coalesce(before, after), 0.0)).label("trend"),
        )
        .where(ResultRecord.game_kind == bindparam("kind"), *_results_where(None, True))
        .group_by(ResultRecord.player_id)
        .subquery()
    )
    ranked = (
        select(
            played.c.player_id,
            RatingRecord.rating,
            RatingRecord.rd,
            played.c.games,
            played.c.wins,
            played.c.losses,
            played.c.draws,
            func.count().over().label("total"),
            played.c.trend,
        )
        .join(
            RatingRecord,
            and_(
                RatingRecord.guild_id == bindparam("guild_id"),
                RatingRecord.game_kind == bindparam("kind"),
                RatingRecord.player_id == played.c.player_id,
            ),
        )
        .order_by(RatingRecord.rating.desc(), played.c.player_id)
    )
    return _with_names(ranked, lambda p: (p.c.rating.desc(), p.c.player_id))


@cache
def _points_statement(by_period: bool) -> _Statement:
    if not by_period:
        standing = (
            RatingRecord.guild_id == bindparam("guild_id"),
            RatingRecord.game_kind == "boggle",
            RatingRecord.games > 0,
        )
        ranked: _Statement = (
            select(
                RatingRecord.player_id,
                RatingRecord.points,
                RatingRecord.games,
                RatingRecord.wins,
                _count_of(standing).label("total"),
            )
            .where(*standing)
            .order_by(RatingRecord.points.desc(), RatingRecord.wins.desc(), RatingRecord.player_id)
        )
        return _with_names(ranked, lambda p: (p.c.points.desc(), p.c.wins.desc(), p.c.player_id))
    points = func.coalesce(func.sum(ResultRecord.points), 0)
    ranked = (
        select(
            ResultRecord.player_id,
            points.label("points"),
            func.count().label("games"),
            _wins().label("wins"),
            func.count().over().label("total"),
        )
        .where(*_results_where("boggle", True))
        .group_by(ResultRecord.player_id)
        .order_by(points.desc(), ResultRecord.player_id)
    )
    return _with_names(ranked, lambda p: (p.c.points.desc(), p.c.player_id))


@cache
def _times_statement(by_period: bool) -> _Statement:
    best = func.min(ResultRecord.time_ms)
    # An event win is its own row (round_ref "henyo:event:…"), not a word played.
    words = func.sum(case((ResultRecord.round_ref.like("henyo:event:%"), 0), else_=1))
    ranked = (
        select(
            ResultRecord.player_id,
            best.label("best"),
            words.label("words"),
            func.count(ResultRecord.time_ms).label("guessed"),
            _wins().label("wins"),
            func.count().over().label("total"),
        )
        .where(*_results_where("henyo", by_period))
        .group_by(ResultRecord.player_id)
        .order_by(best.is_(None), best, ResultRecord.player_id)
    )
    return _with_names(ranked, lambda p: (p.c.best.is_(None), p.c.best, p.c.player_id))


@cache
def _overall_statement(by_period: bool) -> _Statement:
    wins = _wins()
    ranked = (
        select(
            ResultRecord.player_id,
            func.count().label("games"),
            wins.label("wins"),
            func.count().over().label("total"),
        )
        .where(*_results_where(None, by_period))
        .group_by(ResultRecord.player_id)
        .order_by(wins.desc(), func.count().desc(), ResultRecord.player_id)
    )
    return _with_names(ranked, lambda p: (p.c.wins.desc(), p.c.games.desc(), p.c.player_id))


__all__ = [
    "ClubCalendar",
    "LeaderboardRepository",
    "Page",
    "PointsStanding",
    "RatedStanding",
    "TimeStanding",
    "WinsStanding",
]
