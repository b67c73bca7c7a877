"""The daily Boggle grid's tables and members' achievements (bot.db.models_daily).

A member's play is read ``FOR UPDATE`` when a list is added to it, and the day's
grid is locked by its day-end job, so scoring waits for a list in flight.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.memory import Remembered
from bot.db.models import GuildRecord, RatingRecord
from bot.db.models_daily import AchievementRecord, BoggleDailyPlayRecord, BoggleDailyRecord


class DailyRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def flush(self) -> None:
        await self.session.flush()

    async def grid_of(self, guild_id: int, day: str) -> BoggleDailyRecord | None:
        stmt = select(BoggleDailyRecord).where(
            BoggleDailyRecord.guild_id == guild_id, BoggleDailyRecord.day == day
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def add_grid(self, record: BoggleDailyRecord) -> BoggleDailyRecord:
        self.session.add(record)
        await self.session.flush()
        return record

    async def lock_grid(self, daily_id: int) -> BoggleDailyRecord | None:
        stmt = select(BoggleDailyRecord).where(BoggleDailyRecord.id == daily_id).with_for_update()
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def get_grid(self, daily_id: int) -> BoggleDailyRecord | None:
        return await self.session.get(BoggleDailyRecord, daily_id)

    async def play_of(self, daily_id: int, player_id: int) -> BoggleDailyPlayRecord | None:
        stmt = (
            select(BoggleDailyPlayRecord)
            .where(
                BoggleDailyPlayRecord.daily_id == daily_id,
                BoggleDailyPlayRecord.player_id == player_id,
            )
            .with_for_update()
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    def add_play(self, play: BoggleDailyPlayRecord) -> BoggleDailyPlayRecord:
        self.session.add(play)
        return play

    async def list_changes(self, daily_id: int) -> tuple[str, dict[int, int]] | None:
        """The grid's status and, by player, how many entries their list has (entries are
        only ever added): what a member's board page watches of the day's grid. None when
        there is no such grid."""
        status = (
            await self.session.execute(
                select(BoggleDailyRecord.status).where(BoggleDailyRecord.id == daily_id)
            )
        ).scalar_one_or_none()
        if status is None:
            return None
        rows = await self.session.execute(
            select(
                BoggleDailyPlayRecord.player_id,
                func.json_array_length(BoggleDailyPlayRecord.entries),
            ).where(BoggleDailyPlayRecord.daily_id == daily_id)
        )
        return str(status), {int(player): int(count or 0) for player, count in rows}

    async def plays_of(self, daily_id: int) -> list[BoggleDailyPlayRecord]:
        stmt = (
            select(BoggleDailyPlayRecord)
            .where(BoggleDailyPlayRecord.daily_id == daily_id)
            .order_by(BoggleDailyPlayRecord.opened_at, BoggleDailyPlayRecord.id)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def plays_taking_lists(
        self, player_id: int, sent_at: datetime, guild_ids: Collection[int] | None
    ) -> list[tuple[BoggleDailyPlayRecord, BoggleDailyRecord, str]]:
        """The member's plays whose countdown was running at ``sent_at`` (and whose day is
        not scored yet), with their grid and club name, ``FOR UPDATE``."""
        stmt = (
            select(BoggleDailyPlayRecord, BoggleDailyRecord, GuildRecord.name)
            .join(BoggleDailyRecord, BoggleDailyRecord.id == BoggleDailyPlayRecord.daily_id)
            .join(GuildRecord, GuildRecord.id == BoggleDailyRecord.guild_id)
            .where(
                BoggleDailyPlayRecord.player_id == player_id,
                BoggleDailyPlayRecord.opened_at <= sent_at,
                BoggleDailyPlayRecord.ends_at > sent_at,
                BoggleDailyRecord.status == "open",
            )
            .order_by(BoggleDailyPlayRecord.id)
            .with_for_update(of=BoggleDailyPlayRecord)
        )
        if guild_ids is not None:
            stmt = stmt.where(BoggleDailyRecord.guild_id.in_(list(guild_ids)))
        rows = await self.session.execute(stmt)
        return [(play, grid, name) for play, grid, name in rows]

    async def plays_ended_between(
        self,
        player_id: int,
        since: datetime,
        until: datetime,
        guild_ids: Collection[int] | None,
    ) -> list[tuple[BoggleDailyPlayRecord, BoggleDailyRecord, str]]:
        """The member's plays whose countdown ended in [``since``, ``until``]."""
        stmt = (
            select(BoggleDailyPlayRecord, BoggleDailyRecord, GuildRecord.name)
            .join(BoggleDailyRecord, BoggleDailyRecord.id == BoggleDailyPlayRecord.daily_id)
            .join(GuildRecord, GuildRecord.id == BoggleDailyRecord.guild_id)
            .where(
                BoggleDailyPlayRecord.player_id == player_id,
                BoggleDailyPlayRecord.ends_at >= since,
                BoggleDailyPlayRecord.ends_at <= until,
            )
            .order_by(BoggleDailyPlayRecord.id)
        )
        if guild_ids is not None:
            stmt = stmt.where(BoggleDailyRecord.guild_id.in_(list(guild_ids)))
        rows = await self.session.execute(stmt)
        return [(play, grid, name) for play, grid, name in rows]

    async def plays_ended_after(self, moment: datetime) -> list[BoggleDailyPlayRecord]:
        """Every member's play whose countdown ended after ``moment`` (or runs on)."""
        stmt = (
            select(BoggleDailyPlayRecord)
            .where(BoggleDailyPlayRecord.ends_at > moment)
            .order_by(BoggleDailyPlayRecord.id)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def days_played(self, guild_id: int, player_id: int, limit: int = 400) -> list[str]:
        """The club days the member opened the grid on, latest first."""
        stmt = (
            select(BoggleDailyPlayRecord.day)
            .where(
                BoggleDailyPlayRecord.guild_id == guild_id,
                BoggleDailyPlayRecord.player_id == player_id,
            )
            .order_by(BoggleDailyPlayRecord.day.desc())
            .limit(limit)
        )
        return [str(day) for day in (await self.session.execute(stmt)).scalars()]


# An achievement is never taken back, so one seen stored stays earned: this process
# remembers the ones it saw committed (a member's first bingo, asked again at each of
# their bingos) and asks the database only about the others.
EARNED: Remembered[tuple[int, int, str], bool] = Remembered("achievements earned", 20_000)


_ADD_ONCE: dict[str, Any] = {}


def _add_once(dialect: str) -> Any:
    """The achievement's row unless the member has it, its id returned only when added:
    one statement (a unique key refuses the second), built once per dialect."""
    statement = _ADD_ONCE.get(dialect)
    if statement is None:
        insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
        given = ("guild_id", "player_id", "code", "earned_at", "detail")
        statement = (
            insert(AchievementRecord)
            .values({name: bindparam(name) for name in given})
            .on_conflict_do_nothing(index_elements=["guild_id", "player_id", "code"])
            .returning(AchievementRecord.id)
        )
        _ADD_ONCE[dialect] = statement
    return statement


class AchievementRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def has(self, guild_id: int, player_id: int, code: str) -> bool:
        key = (guild_id, player_id, code)
        if EARNED.get(self.session, key):
            return True
        stmt = select(AchievementRecord.id).where(
            AchievementRecord.guild_id == guild_id,
            AchievementRecord.player_id == player_id,
            AchievementRecord.code == code,
        )
        found = (await self.session.execute(stmt)).first() is not None
        if found:
            EARNED.put_at_commit(self.session, key, True)
        return found

    async def add_once(self, record: AchievementRecord) -> bool:
        """Add the achievement unless the member has it; False when they had it (or
        another transaction just added it: the unique key turns the INSERT into nothing,
        and the caller's work goes on)."""
        key = (record.guild_id, record.player_id, record.code)
        if EARNED.get(self.session, key):
            return False
        dialect = self.session.get_bind().dialect.name
        result = await self.session.execute(
            _add_once(dialect),
            {
                "guild_id": record.guild_id,
                "player_id": record.player_id,
                "code": record.code,
                "earned_at": record.earned_at,
                "detail": record.detail if record.detail is not None else {},
            },
        )
        added = result.first() is not None
        EARNED.put_at_commit(self.session, key, True)
        return added

    async def of_member(self, guild_id: int, player_id: int) -> list[AchievementRecord]:
        stmt = (
            select(AchievementRecord)
            .where(AchievementRecord.guild_id == guild_id, AchievementRecord.player_id == player_id)
            .order_by(AchievementRecord.earned_at, AchievementRecord.id)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def games_finished(self, guild_id: int, player_id: int) -> int:
        """The member's finished games and rounds in the club, over every game the
        leaderboard counts (the ratings rows keep the count)."""
        stmt = select(func.coalesce(func.sum(RatingRecord.games), 0)).where(
            RatingRecord.guild_id == guild_id,
            RatingRecord.player_id == player_id,
            RatingRecord.game_kind.in_(["chess", "scrabble", "boggle"]),
        )
        return int((await self.session.execute(stmt)).scalar_one())
