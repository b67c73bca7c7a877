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

from sqlalchemy import and_, func, select

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
        async with self.ctx.uow() as uow:
            guild = await uow.session.get(GuildRecord, guild_id)
            tz = guild.timezone if guild else "UTC"
            season_start = _season_start(guild, kind)
            since = period_start(period, now, tz, season_start)
            if kind in RATED:
                rows = await self._rated(uow.session, guild_id, kind, since, now)
                label = "Rating"
            elif kind == "boggle":
                rows = await self._points(uow.session, guild_id, since)
                label = "Points"
            elif kind == "henyo":
                rows = await self._times(uow.session, guild_id, since)
                label = "Best time"
            else:
                rows = await self._overall(uow.session, guild_id, since)
                label = "Wins"
        total = len(rows)
        pages = max(1, math.ceil(total / PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        title = f"{GAME_TITLES[kind]} — {PERIODS[period]}"
        shown = rows[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
        return LeaderboardTable(guild_id, kind, period, title, label, shown, total, page, pages, since)

    async def _rated(self, session, guild_id: int, kind: str, since: datetime | None, now: datetime) -> list[LeaderboardRow]:  # type: ignore[no-untyped-def]
        base = (
            select(RatingRecord, PlayerRecord.display_name)
            .join(PlayerRecord, PlayerRecord.id == RatingRecord.player_id)
            .where(RatingRecord.guild_id == guild_id, RatingRecord.game_kind == kind, RatingRecord.games > 0)
        )
        if since is None:
            stmt = base.where(RatingRecord.last_played_at >= now - IDLE_AFTER).order_by(
                RatingRecord.rating.desc(), RatingRecord.player_id
            )
            out = []
            for i, (rec, name) in enumerate((await session.execute(stmt)).all()):
                out.append(
                    LeaderboardRow(
                        i + 1, rec.player_id, name, format_rating(rec.rating, rec.rd), rec.games,
                        rec.wins, rec.losses, rec.draws, None, is_provisional(rec.rd),
                    )
                )
            return out
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
            return []
        recs = (await session.execute(base.where(RatingRecord.player_id.in_(list(agg))))).all()
        recs.sort(key=lambda r: (-r[0].rating, r[0].player_id))
        return [
            LeaderboardRow(
                i + 1, rec.player_id, name, format_rating(rec.rating, rec.rd), int(agg[rec.player_id][0]),
                int(agg[rec.player_id][1]), int(agg[rec.player_id][2]), int(agg[rec.player_id][3]),
                agg[rec.player_id][4], is_provisional(rec.rd),
            )
            for i, (rec, name) in enumerate(recs)
        ]

    async def _points(self, session, guild_id: int, since: datetime | None) -> list[LeaderboardRow]:  # type: ignore[no-untyped-def]
        if since is None:
            stmt = (
                select(RatingRecord.player_id, PlayerRecord.display_name, RatingRecord.points, RatingRecord.games, RatingRecord.wins)
                .join(PlayerRecord, PlayerRecord.id == RatingRecord.player_id)
                .where(RatingRecord.guild_id == guild_id, RatingRecord.game_kind == "boggle", RatingRecord.games > 0)
                .order_by(RatingRecord.points.desc(), RatingRecord.wins.desc(), RatingRecord.player_id)
            )
        else:
            stmt = (
                select(
                    ResultRecord.player_id, PlayerRecord.display_name, func.coalesce(func.sum(ResultRecord.points), 0),
                    func.count(), func.sum(func.cast(ResultRecord.outcome == "win", RatingRecord.games.type)),
                )
                .join(PlayerRecord, PlayerRecord.id == ResultRecord.player_id)
                .where(ResultRecord.guild_id == guild_id, ResultRecord.game_kind == "boggle", ResultRecord.played_at >= since)
                .group_by(ResultRecord.player_id, PlayerRecord.display_name)
                .order_by(func.coalesce(func.sum(ResultRecord.points), 0).desc(), ResultRecord.player_id)
            )
        rows = (await session.execute(stmt)).all()
        return [
            LeaderboardRow(i + 1, pid, name, f"{points:g}", int(games), int(wins or 0))
            for i, (pid, name, points, games, wins) in enumerate(rows)
        ]

    async def _times(self, session, guild_id: int, since: datetime | None) -> list[LeaderboardRow]:  # type: ignore[no-untyped-def]
        conds = [ResultRecord.guild_id == guild_id, ResultRecord.game_kind == "henyo"]
        if since is not None:
            conds.append(ResultRecord.played_at >= since)
        stmt = (
            select(
                ResultRecord.player_id, PlayerRecord.display_name, func.min(ResultRecord.time_ms), func.count(),
                func.count(ResultRecord.time_ms),
                func.sum(func.cast(ResultRecord.outcome == "win", RatingRecord.games.type)),
            )
            .join(PlayerRecord, PlayerRecord.id == ResultRecord.player_id)
            .where(and_(*conds))
            .group_by(ResultRecord.player_id, PlayerRecord.display_name)
        )
        rows = (await session.execute(stmt)).all()
        rows.sort(key=lambda r: (r[2] is None, r[2] or 0, r[0]))
        return [
            LeaderboardRow(i + 1, pid, name, format_time_ms(best), int(played), int(wins or 0), draws=int(guessed))
            for i, (pid, name, best, played, guessed, wins) in enumerate(rows)
        ]

    async def _overall(self, session, guild_id: int, since: datetime | None) -> list[LeaderboardRow]:  # type: ignore[no-untyped-def]
        conds = [ResultRecord.guild_id == guild_id]
        if since is not None:
            conds.append(ResultRecord.played_at >= since)
        wins = func.sum(func.cast(ResultRecord.outcome == "win", RatingRecord.games.type))
        stmt = (
            select(ResultRecord.player_id, PlayerRecord.display_name, func.count(), wins)
            .join(PlayerRecord, PlayerRecord.id == ResultRecord.player_id)
            .where(and_(*conds))
            .group_by(ResultRecord.player_id, PlayerRecord.display_name)
            .order_by(wins.desc(), func.count().desc(), ResultRecord.player_id)
        )
        rows = (await session.execute(stmt)).all()
        return [
            LeaderboardRow(i + 1, pid, name, str(int(w or 0)), int(games), int(w or 0))
            for i, (pid, name, games, w) in enumerate(rows)
        ]

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


def _season_start(guild: GuildRecord | None, kind: str) -> datetime | None:
    if guild is None:
        return None
    seasons = (guild.settings or {}).get("seasons", {})
    raw = seasons.get(kind) or seasons.get("all")
    if not raw:
        return None
    return datetime.fromisoformat(raw["started_at"]) if isinstance(raw, dict) else datetime.fromisoformat(raw)
