"""Games events, their rounds and prize lines as ``bot.services.events`` sees them.

Nothing here commits. An event changes through ``bump`` (a compare-and-set on its
version), so two hosts acting at once never both apply.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.dml import compare_and_set
from bot.db.models_events import GamesEventPrizeRecord, GamesEventRecord, GamesEventRoundRecord
from bot.db.repositories.common import is_row_id


class EventRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def add(self, row: GamesEventRecord | GamesEventRoundRecord | GamesEventPrizeRecord) -> None:
        self.session.add(row)

    async def flush(self) -> None:
        await self.session.flush()

    async def delete(self, row: GamesEventRoundRecord) -> None:
        """A round whose game was cancelled (a Boggle round), so it can start again."""
        await self.session.delete(row)
        await self.session.flush()

    async def get(self, event_id: int) -> GamesEventRecord | None:
        if not is_row_id(event_id):
            return None
        return await self.session.get(GamesEventRecord, event_id)

    async def open_in_channel(self, channel_id: int) -> GamesEventRecord | None:
        stmt = (
            select(GamesEventRecord)
            .where(GamesEventRecord.channel_id == channel_id, GamesEventRecord.status == "open")
            .order_by(GamesEventRecord.id.desc())
            .limit(1)
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def in_guild(self, guild_id: int, *, status: str | None = None) -> list[GamesEventRecord]:
        """The guild's events, newest first (only ``status`` ones when given)."""
        stmt = select(GamesEventRecord).where(GamesEventRecord.guild_id == guild_id)
        if status is not None:
            stmt = stmt.where(GamesEventRecord.status == status)
        stmt = stmt.order_by(GamesEventRecord.id.desc()).limit(25)
        return list((await self.session.execute(stmt)).scalars())

    async def rounds(self, event_id: int) -> list[GamesEventRoundRecord]:
        stmt = (
            select(GamesEventRoundRecord)
            .where(GamesEventRoundRecord.event_id == event_id)
            .order_by(GamesEventRoundRecord.id)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def round_playing(self, game: str, ref_id: int) -> GamesEventRoundRecord | None:
        """The event round a Henyo event, a Boggle round or a tournament plays, if any."""
        stmt = select(GamesEventRoundRecord).where(
            GamesEventRoundRecord.game == game, GamesEventRoundRecord.ref_id == ref_id
        )
        return (await self.session.execute(stmt)).scalars().first()

    async def prizes(self, event_id: int) -> list[GamesEventPrizeRecord]:
        stmt = (
            select(GamesEventPrizeRecord)
            .where(GamesEventPrizeRecord.event_id == event_id)
            .order_by(GamesEventPrizeRecord.game, GamesEventPrizeRecord.place)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def bump(self, row: GamesEventRecord, **changes: object) -> bool:
        """Apply ``changes`` and a new version if the event still has the version read;
        False (nothing written) when someone else changed it first."""
        return await compare_and_set(self.session, row, changes)
