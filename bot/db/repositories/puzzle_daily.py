"""The club's daily puzzle (``puzzle_dailies``): the day's row, the last one, and the
puzzles still free to be a daily. Nothing here commits."""

from __future__ import annotations

from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import GameRecord
from bot.db.models_puzzle_daily import PuzzleDailyRecord
from bot.db.models_puzzles import PuzzleAttemptRecord, PuzzleRecord


class PuzzleDailyRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def of_day(self, guild_id: int, day: str) -> PuzzleDailyRecord | None:
        """The club's daily puzzle of ``day`` (its ISO date), if it was posted."""
        return await self.session.scalar(
            select(PuzzleDailyRecord).where(
                PuzzleDailyRecord.guild_id == guild_id, PuzzleDailyRecord.day == day
            )
        )

    async def last(self, guild_id: int) -> PuzzleDailyRecord | None:
        """The club's latest daily puzzle (the games alternate from its kind)."""
        return await self.session.scalar(
            select(PuzzleDailyRecord)
            .where(PuzzleDailyRecord.guild_id == guild_id)
            .order_by(PuzzleDailyRecord.day.desc())
            .limit(1)
        )

    async def candidate(self, guild_id: int, kind: str) -> PuzzleRecord | None:
        """A puzzle of the club's of ``kind`` never posted as its daily, from a game
        that is over (never one still being played), the newest first."""
        posted = exists().where(
            PuzzleDailyRecord.guild_id == guild_id,
            PuzzleDailyRecord.puzzle_id == PuzzleRecord.id,
        )
        over = exists().where(
            GameRecord.id == PuzzleRecord.game_id, GameRecord.status == "finished"
        )
        return await self.session.scalar(
            select(PuzzleRecord)
            .where(PuzzleRecord.guild_id == guild_id, PuzzleRecord.kind == kind, ~posted, over)
            .order_by(PuzzleRecord.id.desc())
            .limit(1)
        )

    async def untried_today(
        self, guild_id: int, day: str, kind: str, player_id: int
    ) -> PuzzleRecord | None:
        """The day's daily puzzle, when it is of ``kind`` and the member has not tried it."""
        tried = exists().where(
            PuzzleAttemptRecord.puzzle_id == PuzzleRecord.id,
            PuzzleAttemptRecord.player_id == player_id,
        )
        return await self.session.scalar(
            select(PuzzleRecord)
            .join(PuzzleDailyRecord, PuzzleDailyRecord.puzzle_id == PuzzleRecord.id)
            .where(
                PuzzleDailyRecord.guild_id == guild_id,
                PuzzleDailyRecord.day == day,
                PuzzleRecord.kind == kind,
                ~tried,
            )
        )

    async def add(self, row: PuzzleDailyRecord) -> PuzzleDailyRecord:
        self.session.add(row)
        await self.session.flush()
        return row
