"""The league tables as the league service sees them: a league, its seasons and their
divisions. Nothing here commits; a league changes through ``bump`` (a compare-and-set
on its version), so two directors at once never both apply."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.dml import compare_and_set
from bot.db.models_leagues import LeagueDivisionRecord, LeagueRecord, LeagueSeasonRecord
from bot.db.repositories.common import is_row_id

LeagueRow = LeagueRecord | LeagueSeasonRecord | LeagueDivisionRecord


class LeagueRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def add(self, row: LeagueRow) -> None:
        self.session.add(row)

    async def flush(self) -> None:
        await self.session.flush()

    async def get(self, league_id: int) -> LeagueRecord | None:
        if not is_row_id(league_id):
            return None
        return await self.session.get(LeagueRecord, league_id)

    async def bump(self, row: LeagueRecord, **changes: Any) -> bool:
        """Apply ``changes`` and a new version if the row still has the version read."""
        return await compare_and_set(self.session, row, changes)

    async def open_in_guild(self, guild_id: int) -> list[LeagueRecord]:
        """The guild's leagues still running, newest first."""
        rows = await self.session.execute(
            select(LeagueRecord)
            .where(LeagueRecord.guild_id == guild_id, LeagueRecord.status == "open")
            .order_by(LeagueRecord.id.desc())
        )
        return list(rows.scalars())

    async def season(self, league_id: int, number: int) -> LeagueSeasonRecord | None:
        rows = await self.session.execute(
            select(LeagueSeasonRecord).where(
                LeagueSeasonRecord.league_id == league_id, LeagueSeasonRecord.number == number
            )
        )
        return rows.scalars().first()

    async def season_by_id(self, season_id: int) -> LeagueSeasonRecord | None:
        if not is_row_id(season_id):
            return None
        return await self.session.get(LeagueSeasonRecord, season_id)

    async def divisions(self, season_id: int) -> list[LeagueDivisionRecord]:
        rows = await self.session.execute(
            select(LeagueDivisionRecord)
            .where(LeagueDivisionRecord.season_id == season_id)
            .order_by(LeagueDivisionRecord.number)
        )
        return list(rows.scalars())
