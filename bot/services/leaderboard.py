"""The club leaderboard: one table per guild, game and period, and member stats.

Rated games (chess, Scrabble) rank by Glicko-2 rating; Boggle by points; Henyo
by best final time. "All time" tables read the standings kept on ``ratings``;
a period (this week, this month, the season) sums the period's ``results``
rows (the statements are ``uow.leaderboard``'s). Members idle for 90 days drop
off the all-time rated tables; their data stays.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.db.models import RatingRecord
from bot.db.repositories.leaderboard import LeaderboardRepository
from bot.errors import InvalidInputError
from bot.messages.leaderboard import (
    GAME_TITLES,
    PERIOD_NAMES,
    UNKNOWN_GAME,
    UNKNOWN_PERIOD,
    format_rating,
    format_time_ms,
    table_title,
    unknown_period,
    value_label,
)
from bot.services import ServiceContext, achievements
from bot.services.achievements import Earned, Streak
from bot.services.boggle.daily import streak as daily_streak
from bot.services.boggle.options import club_zone
from bot.services.puzzles.service import streak_today as puzzle_streak
from engines.ratings import is_provisional

KINDS = ("chess", "scrabble", "boggle", "henyo", "puzzle")
# Puzzles rank by the members' puzzle ratings (bot.services.puzzles), as games do.
RATED = ("chess", "scrabble", "puzzle")
PERIODS = tuple(PERIOD_NAMES)  # week, month, season, all
IDLE_AFTER = timedelta(days=90)
PAGE_SIZE = 10


@dataclass(frozen=True)
class LeaderboardRow:
    """One member's line in a table, ``value`` written as the table shows it (rating, points,
    best time or wins). On the Henyo table ``games`` counts words played and ``draws``
    words guessed."""

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
    """One page of a club's table for a game (or ``all``) and period, with its title, its
    column's label and where the period began (``since``; None for all time)."""

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
    """A member's standing in one game: record, rating (rated games), points, spread, best time."""

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
    """A member's stats in a club, by game."""

    guild_id: int
    player_id: int
    name: str
    games: dict[str, GameStats] = field(default_factory=dict)
    # Streaks kept for the member (the daily Boggle grid's; puzzles' when they come) and
    # the achievements they earned, earliest first.
    streaks: list[Streak] = field(default_factory=list)
    achievements: list[Earned] = field(default_factory=list)


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
        raise InvalidInputError(unknown_period(period))
    return start.astimezone(now.tzinfo)


class LeaderboardService:
    """The club's leaderboard tables and a member's stats."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def table(
        self, guild_id: int, kind: str = "all", period: str = "all", page: int = 0
    ) -> LeaderboardTable:
        """One page of the club's table for ``kind`` (``all``: wins over every game) and
        ``period``; a page past the end shows the last one. An unknown game or period is refused."""
        if kind not in KINDS and kind != "all":
            raise InvalidInputError(UNKNOWN_GAME)
        if period not in PERIODS:
            raise InvalidInputError(UNKNOWN_PERIOD)
        now = self.ctx.clock()
        page = max(page, 0)
        async with self.ctx.reader() as uow:
            board = uow.leaderboard
            since = None
            if period != "all":  # all time needs no club settings: one statement fewer
                club = await board.calendar(guild_id)
                since = period_start(
                    period,
                    now,
                    club.timezone if club else "UTC",
                    _season_start(club.settings if club else None, kind),
                )
            rows, total = await _ranked_page(board, guild_id, kind, since, now, page * PAGE_SIZE)
            if not rows and page > 0 and total == 0:
                # Past the end (e.g. an old "next" button): show the last page.
                _, total = await _ranked_page(board, guild_id, kind, since, now, 0)
                page = max(0, math.ceil(total / PAGE_SIZE) - 1)
                rows, total = await _ranked_page(
                    board, guild_id, kind, since, now, page * PAGE_SIZE
                )
        pages = max(1, math.ceil(total / PAGE_SIZE))
        return LeaderboardTable(
            guild_id,
            kind,
            period,
            table_title(kind, period),
            value_label(kind),
            rows,
            total,
            page,
            pages,
            since,
        )

    async def stats(self, guild_id: int, player_id: int) -> MemberStats:
        """A member's stats in each game the club keeps a standing of them for."""
        async with self.ctx.reader() as uow:
            player = await uow.players.get(player_id)
            name = player.display_name if player else str(player_id)
            games = [_game_stats(rec) for rec in await uow.ratings.for_member(guild_id, player_id)]
            guild = await uow.guilds.get(guild_id)
            today = self.ctx.clock().astimezone(club_zone(guild.timezone if guild else None))
            streak = await daily_streak(uow, guild_id, player_id, today.date())
            solved = await uow.puzzles.solved_at(guild_id, player_id)
            earned = await achievements.earned(uow, guild_id, player_id)
        puzzles = puzzle_streak(solved, today.tzinfo, today)
        streaks = [s for s in (streak, puzzles) if s.best]
        return MemberStats(guild_id, player_id, name, {g.kind: g for g in games}, streaks, earned)


# One page of a table's rows, and how many rows the whole table has.
_Page = tuple[list[LeaderboardRow], int]


async def _ranked_page(
    board: LeaderboardRepository,
    guild_id: int,
    kind: str,
    since: datetime | None,
    now: datetime,
    offset: int,
) -> _Page:
    """One page of ``kind``'s table (one statement each), ranked from ``offset + 1``."""
    first = offset + 1
    if kind in RATED:
        rated = await board.rated(
            guild_id,
            kind,
            since=since,
            active_since=now - IDLE_AFTER,
            offset=offset,
            limit=PAGE_SIZE,
        )
        rows = [
            LeaderboardRow(
                rank,
                r.player_id,
                r.name,
                format_rating(r.rating, r.rd),
                r.games,
                r.wins,
                r.losses,
                r.draws,
                r.trend,
                is_provisional(r.rd),
            )
            for rank, r in enumerate(rated.rows, first)
        ]
        return rows, rated.total
    if kind == "boggle":
        points = await board.boggle_points(guild_id, since=since, offset=offset, limit=PAGE_SIZE)
        rows = [
            LeaderboardRow(rank, r.player_id, r.name, f"{r.points:g}", r.games, r.wins)
            for rank, r in enumerate(points.rows, first)
        ]
        return rows, points.total
    if kind == "henyo":
        times = await board.henyo_times(guild_id, since=since, offset=offset, limit=PAGE_SIZE)
        rows = [
            LeaderboardRow(
                rank,
                r.player_id,
                r.name,
                format_time_ms(r.best_ms),
                r.words,
                r.wins,
                draws=r.guessed,
            )
            for rank, r in enumerate(times.rows, first)
        ]
        return rows, times.total
    wins = await board.wins(guild_id, since=since, offset=offset, limit=PAGE_SIZE)
    rows = [
        LeaderboardRow(rank, r.player_id, r.name, str(r.wins), r.games, r.wins)
        for rank, r in enumerate(wins.rows, first)
    ]
    return rows, wins.total


def _game_stats(rec: RatingRecord) -> GameStats:
    rated = rec.game_kind in RATED
    return GameStats(
        kind=rec.game_kind,
        games=rec.games,
        wins=rec.wins,
        losses=rec.losses,
        draws=rec.draws,
        rating=rec.rating if rated else None,
        rd=rec.rd if rated else None,
        provisional=rated and is_provisional(rec.rd),
        points=rec.points,
        spread=rec.spread,
        best_time_ms=rec.best_time_ms,
        last_played_at=rec.last_played_at,
    )


def _season_start(settings: Mapping[str, object] | None, kind: str) -> datetime | None:
    """When the club's current season of ``kind`` (or of every game) began, if it keeps one."""
    seasons = (settings or {}).get("seasons")
    if not isinstance(seasons, Mapping):
        return None
    raw = seasons.get(kind) or seasons.get("all")
    if isinstance(raw, Mapping):
        raw = raw["started_at"]
    return datetime.fromisoformat(raw) if isinstance(raw, str) and raw else None


__all__ = [
    "GAME_TITLES",
    "KINDS",
    "PAGE_SIZE",
    "PERIODS",
    "GameStats",
    "LeaderboardRow",
    "LeaderboardService",
    "LeaderboardTable",
    "MemberStats",
    "format_rating",
    "format_time_ms",
    "period_start",
]
