"""The club leaderboard: one table per guild, game and period, and member stats.

Rated games (chess, Scrabble) rank by Glicko-2 rating; Boggle by points; Henyo
by best final time. "All time" tables read the standings kept on ``ratings``
(an indexed top-N query); a period (this week, this month, the season) sums the
period's ``results`` rows. Members idle for 90 days drop off the all-time rated
tables; their data stays.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import and_, case, func, select

from bot.db.models import GuildRecord, PlayerRecord, RatingRecord, ResultRecord
from bot.errors import InvalidInputError
from bot.services import ServiceContext
from engines.ratings import is_provisional

KINDS = ("chess", "scrabble", "boggle", "henyo")
RATED = ("chess", "scrabble")
PERIODS = {"week": "this week", "month": "this month", "season": "this season", "all": "all time"}
IDLE_AFTER = timedelta(days=90)
PAGE_SIZE = 10
GAME_TITLES = {"chess": "Chess", "scrabble": "Scrabble", "boggle": "Word Boggle", "henyo": "Library Henyo", "all": "All games"}


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


def period_start(period: str, now: datetime, tz_name: str, season_start: datetime | None) -> datetime | None:
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


class LeaderboardService:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def table(self, guild_id: int, kind: str = "all", period: str = "all", page: int = 0) -> LeaderboardTable:
        if kind not in KINDS and kind != "all":
            raise InvalidInputError("Pick a game: chess, scrabble, boggle, henyo or all.")
        if period not in PERIODS:
            raise InvalidInputError("Pick a period: week, month, season or all.")
        now = self.ctx.clock()
        page = max(page, 0)
        async with self.ctx.uow() as uow:
            guild = await uow.session.get(GuildRecord, guild_id)
            tz = guild.timezone if guild else "UTC"
            since = period_start(period, now, tz, _season_start(guild, kind))
            query = {
                "chess": self._rated, "scrabble": self._rated, "boggle": self._points, "henyo": self._times,
            }.get(kind, self._overall)
            rows, total = await query(uow.session, guild_id, kind, since, now, page * PAGE_SIZE)
            if not rows and page > 0 and total == 0:
                # Past the end (e.g. an old "next" button): show the last page.
                _, total = await query(uow.session, guild_id, kind, since, now, 0)
                page = max(0, math.ceil(total / PAGE_SIZE) - 1)
                rows, total = await query(uow.session, guild_id, kind, since, now, page * PAGE_SIZE)
        label = {"chess": "Rating", "scrabble": "Rating", "boggle": "Points", "henyo": "Best time"}.get(kind, "Wins")
        pages = max(1, math.ceil(total / PAGE_SIZE))
        title = f"{GAME_TITLES[kind]} — {PERIODS[period]}"
        return LeaderboardTable(guild_id, kind, period, title, label, rows, total, page, pages, since)

    # Each query returns one page of rows (ranked) and the total row count; the
    # count comes from a window function in the same statement.

    async def _rated(self, session, guild_id, kind, since, now, offset):  # type: ignore[no-untyped-def]
        if since is None:
            stmt = (
                select(
                    RatingRecord.player_id, PlayerRecord.display_name, RatingRecord.rating, RatingRecord.rd,
                    RatingRecord.games, RatingRecord.wins, RatingRecord.losses, RatingRecord.draws, func.count().over(),
                )
                .join(PlayerRecord, PlayerRecord.id == RatingRecord.player_id)
                .where(
                    RatingRecord.guild_id == guild_id, RatingRecord.game_kind == kind, RatingRecord.games > 0,
                    RatingRecord.last_played_at >= now - IDLE_AFTER,
                )
                .order_by(RatingRecord.rating.desc(), RatingRecord.player_id)
                .offset(offset)
                .limit(PAGE_SIZE)
            )
            result = (await session.execute(stmt)).all()
            rows = [
                LeaderboardRow(offset + i + 1, pid, name, format_rating(rating, rd), games, w, l, d, None, is_provisional(rd))
                for i, (pid, name, rating, rd, games, w, l, d, _) in enumerate(result)
            ]
            return rows, (result[0][-1] if result else 0)
        results = (
            await session.execute(
                select(ResultRecord.player_id, ResultRecord.outcome, ResultRecord.extra).where(
                    ResultRecord.guild_id == guild_id, ResultRecord.game_kind == kind, ResultRecord.played_at >= since
                )
            )
        ).all()
        agg: dict[int, list[float]] = defaultdict(lambda: [0, 0, 0, 0, 0.0])
        for pid, outcome, extra in results:
            a = agg[pid]
            a[0] += 1
            a[1] += outcome == "win"
            a[2] += outcome == "loss"
            a[3] += outcome == "draw"
            if extra and "rating_after" in extra:
                a[4] += extra["rating_after"] - extra.get("rating_before", extra["rating_after"])
        if not agg:
            return [], 0
        standings = (
            await session.execute(
                select(RatingRecord.player_id, PlayerRecord.display_name, RatingRecord.rating, RatingRecord.rd)
                .join(PlayerRecord, PlayerRecord.id == RatingRecord.player_id)
                .where(RatingRecord.guild_id == guild_id, RatingRecord.game_kind == kind, RatingRecord.player_id.in_(list(agg)))
            )
        ).all()
        standings.sort(key=lambda r: (-r[2], r[0]))
        rows = []
        for i, (pid, name, rating, rd) in enumerate(standings[offset : offset + PAGE_SIZE]):
            games, w, l, d, trend = agg[pid]
            rows.append(
                LeaderboardRow(offset + i + 1, pid, name, format_rating(rating, rd), int(games), int(w), int(l), int(d), trend, is_provisional(rd))
            )
        return rows, len(standings)

    async def _points(self, session, guild_id, kind, since, now, offset):  # type: ignore[no-untyped-def]
        if since is None:
            points = RatingRecord.points
            stmt = (
                select(RatingRecord.player_id, PlayerRecord.display_name, points, RatingRecord.games, RatingRecord.wins, func.count().over())
                .join(PlayerRecord, PlayerRecord.id == RatingRecord.player_id)
                .where(RatingRecord.guild_id == guild_id, RatingRecord.game_kind == "boggle", RatingRecord.games > 0)
                .order_by(points.desc(), RatingRecord.wins.desc(), RatingRecord.player_id)
            )
        else:
            points = func.coalesce(func.sum(ResultRecord.points), 0)
            stmt = (
                select(ResultRecord.player_id, PlayerRecord.display_name, points, func.count(), _wins(), func.count().over())
                .join(PlayerRecord, PlayerRecord.id == ResultRecord.player_id)
                .where(ResultRecord.guild_id == guild_id, ResultRecord.game_kind == "boggle", ResultRecord.played_at >= since)
                .group_by(ResultRecord.player_id, PlayerRecord.display_name)
                .order_by(points.desc(), ResultRecord.player_id)
            )
        result = (await session.execute(stmt.offset(offset).limit(PAGE_SIZE))).all()
        rows = [
            LeaderboardRow(offset + i + 1, pid, name, f"{pts:g}", int(games), int(wins or 0))
            for i, (pid, name, pts, games, wins, _) in enumerate(result)
        ]
        return rows, (result[0][-1] if result else 0)

    async def _times(self, session, guild_id, kind, since, now, offset):  # type: ignore[no-untyped-def]
        conds = [ResultRecord.guild_id == guild_id, ResultRecord.game_kind == "henyo"]
        if since is not None:
            conds.append(ResultRecord.played_at >= since)
        best = func.min(ResultRecord.time_ms)
        # An event win is its own row (round_ref "henyo:event:…"), not a word played.
        words = func.sum(case((ResultRecord.round_ref.like("henyo:event:%"), 0), else_=1))
        stmt = (
            select(
                ResultRecord.player_id, PlayerRecord.display_name, best, words, func.count(ResultRecord.time_ms),
                _wins(), func.count().over(),
            )
            .join(PlayerRecord, PlayerRecord.id == ResultRecord.player_id)
            .where(and_(*conds))
            .group_by(ResultRecord.player_id, PlayerRecord.display_name)
            .order_by(best.is_(None), best, ResultRecord.player_id)
            .offset(offset)
            .limit(PAGE_SIZE)
        )
        result = (await session.execute(stmt)).all()
        rows = [
            LeaderboardRow(offset + i + 1, pid, name, format_time_ms(t), int(played), int(wins or 0), draws=int(guessed))
            for i, (pid, name, t, played, guessed, wins, _) in enumerate(result)
        ]
        return rows, (result[0][-1] if result else 0)

    async def _overall(self, session, guild_id, kind, since, now, offset):  # type: ignore[no-untyped-def]
        conds = [ResultRecord.guild_id == guild_id]
        if since is not None:
            conds.append(ResultRecord.played_at >= since)
        wins = _wins()
        stmt = (
            select(ResultRecord.player_id, PlayerRecord.display_name, func.count(), wins, func.count().over())
            .join(PlayerRecord, PlayerRecord.id == ResultRecord.player_id)
            .where(and_(*conds))
            .group_by(ResultRecord.player_id, PlayerRecord.display_name)
            .order_by(wins.desc(), func.count().desc(), ResultRecord.player_id)
            .offset(offset)
            .limit(PAGE_SIZE)
        )
        result = (await session.execute(stmt)).all()
        rows = [
            LeaderboardRow(offset + i + 1, pid, name, str(int(w or 0)), int(games), int(w or 0))
            for i, (pid, name, games, w, _) in enumerate(result)
        ]
        return rows, (result[0][-1] if result else 0)

    async def stats(self, guild_id: int, player_id: int) -> MemberStats:
        async with self.ctx.uow() as uow:
            player = await uow.players.get(player_id)
            recs = (
                await uow.session.execute(
                    select(RatingRecord).where(RatingRecord.guild_id == guild_id, RatingRecord.player_id == player_id)
                )
            ).scalars()
            stats = MemberStats(guild_id, player_id, player.display_name if player else str(player_id))
            for rec in recs:
                stats.games[rec.game_kind] = GameStats(
                    kind=rec.game_kind, games=rec.games, wins=rec.wins, losses=rec.losses, draws=rec.draws,
                    rating=rec.rating if rec.game_kind in RATED else None,
                    rd=rec.rd if rec.game_kind in RATED else None,
                    provisional=rec.game_kind in RATED and is_provisional(rec.rd),
                    points=rec.points, spread=rec.spread, best_time_ms=rec.best_time_ms,
                    last_played_at=rec.last_played_at,
                )
        return stats


def _wins():  # type: ignore[no-untyped-def]
    return func.sum(case((ResultRecord.outcome == "win", 1), else_=0))


def _season_start(guild: GuildRecord | None, kind: str) -> datetime | None:
    if guild is None:
        return None
    seasons = (guild.settings or {}).get("seasons", {})
    raw = seasons.get(kind) or seasons.get("all")
    if not raw:
        return None
    return datetime.fromisoformat(raw["started_at"]) if isinstance(raw, dict) else datetime.fromisoformat(raw)
