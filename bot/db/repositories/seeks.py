"""Open challenges (the ``seeks`` table) as ``bot.services.matchmaking`` sees them.

Nothing here commits. A seek changes through ``bump`` (a compare-and-set on its
version), so of two accepts at once only one takes it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.dml import compare_and_set
from bot.db.models_seeks import SeekRecord
from bot.db.repositories.common import is_row_id


class SeekRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, row: SeekRecord) -> SeekRecord:
        """A new seek, flushed (it has its id)."""
        self.session.add(row)
        await self.session.flush()
        return row

    async def get(self, seek_id: int) -> SeekRecord | None:
        if not is_row_id(seek_id):
            return None
        return await self.session.get(SeekRecord, seek_id)

    async def open_count(self, guild_id: int, user_id: int) -> int:
        """How many seeks the member has open in this guild."""
        return int(
            await self.session.scalar(
                select(func.count())
                .select_from(SeekRecord)
                .where(
                    SeekRecord.guild_id == guild_id,
                    SeekRecord.user_id == user_id,
                    SeekRecord.status == "open",
                )
            )
            or 0
        )

    async def open_in_guild(self, guild_id: int, kind: str | None = None) -> list[SeekRecord]:
        """The guild's open seeks, oldest first."""
        stmt = select(SeekRecord).where(
            SeekRecord.guild_id == guild_id, SeekRecord.status == "open"
        )
        if kind is not None:
            stmt = stmt.where(SeekRecord.kind == kind)
        return list((await self.session.execute(stmt.order_by(SeekRecord.id))).scalars())

    async def bump(self, row: SeekRecord, **changes: Any) -> bool:
        """Write ``changes`` if nobody changed the seek since it was read; False otherwise."""
        return await compare_and_set(self.session, row, changes)
