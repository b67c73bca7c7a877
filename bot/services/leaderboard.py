"""The club leaderboard: one table per guild, game and period, and member stats.

Rated games (chess, Scrabble) rank by Glicko-2 rating; Boggle by points; Henyo
by best final time. "All time" tables read the standings kept on ``ratings``
(an indexed top-N query); a period (this week, this month, the season) sums the
period's ``results`` rows. Members idle for 90 days drop off the all-time rated
tables; their data stays.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import (
    ColumnElement,
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
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.db.models import GuildRecord, PlayerRecord, RatingRecord, ResultRecord
from bot.errors import InvalidInputError
from bot.services import ServiceContext
from engines.ratings import is_provisional

KINDS = ("chess", "scrabble", "boggle", "henyo")
RATED = ("chess", "scrabble")
PERIODS = {"week": "this week", "month": "this month", "season": "this season", "all": "all time"}
IDLE_AFTER = timedelta(days=90)
PAGE_SIZE = 10
GAME_TITLES = {
    "chess": "Chess",
    "scrabble": "Scrabble",
    "boggle": "Word Boggle",
    "henyo": "Library Henyo",
    "all": "All games",
}

# A statement of any columns: the tables read their rows' columns by name.
_Statement = Select[*tuple[Any, ...]]


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    player_id: int
    name: str
    value: str
    games: int
    wins: int = 0
    losses: int = 0
    draws: int = 0
    trend: float | None = None
    provisional: bool = False


@dataclass(frozen=True)
class LeaderboardTable:
    guild_id: int
    kind: str
    period: str
    title: str
    value_label: str
    rows: list[LeaderboardRow]
    total: int
    page: int
    pages: int
    since: datetime | None


@dataclass
class GameStats:
    kind: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    rating: float | None = None
    rd: float | None = None
    provisional: bool = False
    points: float = 0.0
    spread: float = 0.0
    best_time_ms: int | None = None
    last_played_at: datetime | None = None


@dataclass
class MemberStats:
    guild_id: int
    player_id: int
    name: str
    games: dict[str, GameStats] = field(default_factory=dict)


def format_time_ms(ms: int | None) -> str:
    """Tenths of a second, as the Henyo sheet records them: 83.4 s → "1:23.4"."""
    if ms is None:
        return "–"
    tenths = (ms + 50) // 100  # half up, as a stopwatch reads
    minutes, tenths = divmod(tenths, 600)
    seconds, tenth = divmod(tenths, 10)
    return f"{minutes}:{seconds:02d}.{tenth}" if minutes else f"{seconds}.{tenth} s"


def format_rating(rating: float, rd: float) -> str:
    return f"{rating:.0f}{'?' if is_provisional(rd) else ''}"


def period_start(
    period: str, now: datetime, tz_name: str, season_start: datetime | None
) -> datetime | None:
    """Where a period begins, in the club's time zone (weeks start on Monday)."""
    if period == "all":
        return None
    if period == "season":
        return season_start
    local = now.astimezone(ZoneInfo(tz_name))
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        start = midnight - timedelta(days=local.weekday())
    elif period == "month":
        start = midnight.replace(day=1)
    else:
        raise InvalidInputError(f"Unknown period {period!r}: use week, month, season or all.")
    return start.astimezone(now.tzinfo)


# One page of a table's rows, and how many rows the whole table has.
_Page = tuple[list[LeaderboardRow], int]


class LeaderboardService:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def table(
        self, guild_id: int, kind: str = "all", period: str = "all", page: int = 0
    ) -> LeaderboardTable:
        if kind not in KINDS and kind != "all":
            raise InvalidInputError("Pick a game: chess, scrabble, boggle, henyo or all.")
        if period not in PERIODS:
            raise InvalidInputError("Pick a period: week, month, season or all.")
        now = self.ctx.clock()
        page = max(page, 0)
        async with self.ctx.reader() as uow:
            # Plain Core statements on the unit of work's connection: the rows are
            # tuples, so the ORM's entity machinery would only add time.
            conn = await uow.session.connection()
            since = None
            if period != "all":  # all time needs no club settings: one statement fewer
                guild = (
                    await conn.execute(
                        select(GuildRecord.timezone, GuildRecord.settings).where(
                            GuildRecord.id == guild_id
                        )
                    )
                ).first()
                tz = guild.timezone if guild else "UTC"
                since = period_start(
                    period, now, tz, _season_start(guild.settings if guild else None, kind)
                )
            query = {
                "chess": self._rated,
                "scrabble": self._rated,
                "boggle": self._points,
                "henyo": self._times,
            }.get(kind, self._overall)
            rows, total = await query(conn, guild_id, kind, since, now, page * PAGE_SIZE)
            if not rows and page > 0 and total == 0:
                # Past the end (e.g. an old "next" button): show the last page.
                _, total = await query(conn, guild_id, kind, since, now, 0)
                page = max(0, math.ceil(total / PAGE_SIZE) - 1)
                rows, total = await query(conn, guild_id, kind, since, now, page * PAGE_SIZE)
        label = {
            "chess": "Rating",
            "scrabble": "Rating",
            "boggle": "Points",
            "henyo": "Best time",
        }.get(kind, "Wins")
        pages = max(1, math.ceil(total / PAGE_SIZE))
        title = f"{GAME_TITLES[kind]} — {PERIODS[period]}"
        return LeaderboardTable(
            guild_id, kind, period, title, label, rows, total, page, pages, since
        )

    # Each query is one statement returning one page of rows (ranked) and the
    # total row count (a window function, or a count subquery). The ranking
    # runs on ``ratings`` or ``results`` alone; names are joined to the page's
    # ten rows only. The statements are built once (the ``_…_statement``
    # builders below) and run with this call's parameters: no result is kept.

    async def _rated(
        self,
        conn: AsyncConnection,
        guild_id: int,
        kind: str,
        since: datetime | None,
        now: datetime,
        offset: int,
    ) -> _Page:
        if since is None:
            params = {
                "guild_id": guild_id,
                "kind": kind,
                "active_since": now - IDLE_AFTER,
                "offset": offset,
            }
        else:
            params = {"guild_id": guild_id, "kind": kind, "since": since, "offset": offset}
        result = (await conn.execute(_rated_statement(since is not None), params)).all()
        rows = [
            LeaderboardRow(
                offset + i + 1,
                r.player_id,
                r.display_name,
                format_rating(r.rating, r.rd),
                int(r.games),
                int(r.wins or 0),
                int(r.losses or 0),
                int(r.draws or 0),
                None if r.trend is None else float(r.trend),
                is_provisional(r.rd),
            )
            for i, r in enumerate(result)
        ]
        return rows, (result[0].total if result else 0)

    async def _points(
        self,
        conn: AsyncConnection,
        guild_id: int,
        kind: str,
        since: datetime | None,
        now: datetime,
        offset: int,
    ) -> _Page:
        params = {
            "guild_id": guild_id,
            "offset": offset,
            **({} if since is None else {"since": since}),
        }
        result = (await conn.execute(_points_statement(since is not None), params)).all()
        rows = [
            LeaderboardRow(
                offset + i + 1,
                r.player_id,
                r.display_name,
                f"{r.points:g}",
                int(r.games),
                int(r.wins or 0),
            )
            for i, r in enumerate(result)
        ]
        return rows, (result[0].total if result else 0)

    async def _times(
        self,
        conn: AsyncConnection,
        guild_id: int,
        kind: str,
        since: datetime | None,
        now: datetime,
        offset: int,
    ) -> _Page:
        params = {
            "guild_id": guild_id,
            "offset": offset,
            **({} if since is None else {"since": since}),
        }
        result = (await conn.execute(_times_statement(since is not None), params)).all()
        rows = [
            LeaderboardRow(
                offset + i + 1,
                r.player_id,
                r.display_name,
                format_time_ms(r.best),
                int(r.words),
                int(r.wins or 0),
                draws=int(r.guessed),
            )
            for i, r in enumerate(result)
        ]
        return rows, (result[0].total if result else 0)

    async def _overall(
        self,
        conn: AsyncConnection,
        guild_id: int,
        kind: str,
        since: datetime | None,
        now: datetime,
        offset: int,
    ) -> _Page:
        params = {
            "guild_id": guild_id,
            "offset": offset,
            **({} if since is None else {"since": since}),
        }
        result = (await conn.execute(_overall_statement(since is not None), params)).all()
        rows = [
            LeaderboardRow(
                offset + i + 1,
                r.player_id,
                r.display_name,
                str(int(r.wins or 0)),
                int(r.games),
                int(r.wins or 0),
            )
            for i, r in enumerate(result)
        ]
        return rows, (result[0].total if result else 0)

    async def stats(self, guild_id: int, player_id: int) -> MemberStats:
        async with self.ctx.reader() as uow:
            player = await uow.players.get(player_id)
            recs = (
                await uow.session.execute(
                    select(RatingRecord).where(
                        RatingRecord.guild_id == guild_id, RatingRecord.player_id == player_id
                    )
                )
            ).scalars()
            stats = MemberStats(
                guild_id, player_id, player.display_name if player else str(player_id)
            )
            for rec in recs:
                stats.games[rec.game_kind] = GameStats(
                    kind=rec.game_kind,
                    games=rec.games,
                    wins=rec.wins,
                    losses=rec.losses,
                    draws=rec.draws,
                    rating=rec.rating if rec.game_kind in RATED else None,
                    rd=rec.rd if rec.game_kind in RATED else None,
                    provisional=rec.game_kind in RATED and is_provisional(rec.rd),
                    points=rec.points,
                    spread=rec.spread,
                    best_time_ms=rec.best_time_ms,
                    last_played_at=rec.last_played_at,
                )
        return stats


# ----------------------------------------------------------------------- statements
# Parameters: :guild_id, :offset, and :kind, :since (period tables) or
# :active_since (all-time rated tables) where the statement has them.


def _count_outcome(outcome: str) -> ColumnElement[int]:
    return func.sum(case((ResultRecord.outcome == outcome, 1), else_=0))


def _wins() -> ColumnElement[int]:
    return _count_outcome("win")


def _results_where(kind: str | None, by_period: bool) -> list[Any]:
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


def _with_names(ranked: _Statement, order: Callable[[Subquery], tuple[Any, ...]]) -> _Statement:
    """One ranked page (``ranked`` with its offset and limit) and the members' names,
    ranked again by ``order`` (the same ranking on the page's columns)."""
    page = ranked.offset(bindparam("offset")).limit(PAGE_SIZE).subquery()
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


def _season_start(settings: dict[str, Any] | None, kind: str) -> datetime | None:
    seasons = (settings or {}).get("seasons", {})
    raw = seasons.get(kind) or seasons.get("all")
    if not raw:
        return None
    return (
        datetime.fromisoformat(raw["started_at"])
        if isinstance(raw, dict)
        else datetime.fromisoformat(raw)
    )
