"""Club sessions, their boards and the explanations of played words, as
``bot.services.sessions`` sees them. Nothing here commits; a session changes
through ``bump`` (a compare-and-set on its version)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.dml import compare_and_set
from bot.db.models_sessions import ClubSessionRecord, SessionBoardRecord, WordExplanationRecord
from bot.db.repositories.common import is_row_id

UNFINISHED = ("open", "formed", "started")


class SessionRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def add(self, row: ClubSessionRecord | SessionBoardRecord | WordExplanationRecord) -> None:
        self.session.add(row)

    async def flush(self) -> None:
        await self.session.flush()

    async def get(self, session_id: int) -> ClubSessionRecord | None:
        if not is_row_id(session_id):
            return None
        return await self.session.get(ClubSessionRecord, session_id)

    async def current_in_channel(self, channel_id: int) -> ClubSessionRecord | None:
        """The channel's session not yet over (open, formed or started), if any."""
        stmt = select(ClubSessionRecord).where(
            ClubSessionRecord.channel_id == channel_id,
            ClubSessionRecord.status.in_(UNFINISHED),
        )
        return (
            await self.session.execute(stmt.order_by(ClubSessionRecord.id.desc()).limit(1))
        ).scalar_one_or_none()

    async def latest(
        self, guild_id: int, channel_id: int | None = None
    ) -> ClubSessionRecord | None:
        """The guild's newest session (in ``channel_id`` when given), whatever its status."""
        stmt = select(ClubSessionRecord).where(ClubSessionRecord.guild_id == guild_id)
        if channel_id is not None:
            stmt = stmt.where(ClubSessionRecord.channel_id == channel_id)
        return (
            await self.session.execute(stmt.order_by(ClubSessionRecord.id.desc()).limit(1))
        ).scalar_one_or_none()

    async def bump(self, row: ClubSessionRecord, **changes: object) -> bool:
        """Apply ``changes`` and a new version if the session still has the version
        read; False (nothing written) when someone else changed it first."""
        return await compare_and_set(self.session, row, changes)

    async def boards(self, session_id: int) -> list[SessionBoardRecord]:
        stmt = (
            select(SessionBoardRecord)
            .where(SessionBoardRecord.session_id == session_id)
            .order_by(SessionBoardRecord.number)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def board_of_game(self, game_id: int) -> SessionBoardRecord | None:
        stmt = select(SessionBoardRecord).where(SessionBoardRecord.game_id == game_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def explanations(self, game_ids: Sequence[int]) -> list[WordExplanationRecord]:
        if not game_ids:
            return []
        stmt = (
            select(WordExplanationRecord)
            .where(WordExplanationRecord.game_id.in_(list(game_ids)))
            .order_by(WordExplanationRecord.game_id, WordExplanationRecord.ply)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def explanation(self, game_id: int, ply: int) -> WordExplanationRecord | None:
        stmt = select(WordExplanationRecord).where(
            WordExplanationRecord.game_id == game_id, WordExplanationRecord.ply == ply
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()
