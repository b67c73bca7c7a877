"""Agreed game times (``time_proposals``) and the server's scheduled events
(``guild_events``), as ``bot.services.scheduling`` sees them. Nothing here commits."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.dml import rowcount
from bot.db.models_schedule import GuildEventRecord, TimeProposalRecord
from bot.db.repositories.common import is_row_id


class ScheduleRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ------------------------------------------------------------------ game times

    async def add_proposal(self, row: TimeProposalRecord) -> TimeProposalRecord:
        """A new proposal, flushed (it has its id)."""
        self.session.add(row)
        await self.session.flush()
        return row

    async def proposal(self, proposal_id: int) -> TimeProposalRecord | None:
        if not is_row_id(proposal_id):
            return None
        return await self.session.get(TimeProposalRecord, proposal_id)

    async def of_game(
        self, game_id: int, statuses: Collection[str] = ("open", "accepted")
    ) -> list[TimeProposalRecord]:
        """The game's proposals with these statuses, newest first."""
        stmt = (
            select(TimeProposalRecord)
            .where(
                TimeProposalRecord.game_id == game_id,
                TimeProposalRecord.status.in_(list(statuses)),
            )
            .order_by(TimeProposalRecord.id.desc())
        )
        return list((await self.session.execute(stmt)).scalars())

    async def replace(self, game_id: int, statuses: Collection[str], at: datetime) -> int:
        """Mark the game's proposals with these statuses ``replaced``; how many were."""
        result = await self.session.execute(
            update(TimeProposalRecord)
            .where(
                TimeProposalRecord.game_id == game_id,
                TimeProposalRecord.status.in_(list(statuses)),
            )
            .values(status="replaced", decided_at=at)
            .execution_options(synchronize_session="fetch")
        )
        return rowcount(result)

    async def take(self, proposal_id: int, *, agreed_at: datetime, by: int, at: datetime) -> bool:
        """Accept an open proposal at ``agreed_at`` (compare-and-set: of two accepts at
        once, one takes it); False when it is no longer open."""
        result = await self.session.execute(
            update(TimeProposalRecord)
            .where(TimeProposalRecord.id == proposal_id, TimeProposalRecord.status == "open")
            .values(status="accepted", agreed_at=agreed_at, accepted_by=by, decided_at=at)
            .execution_options(synchronize_session="fetch")
        )
        return rowcount(result) == 1

    async def agreed(self, game_ids: Collection[int]) -> dict[int, datetime]:
        """The agreed time of each of these games that has one."""
        if not game_ids:
            return {}
        stmt = select(TimeProposalRecord.game_id, TimeProposalRecord.agreed_at).where(
            TimeProposalRecord.game_id.in_(list(game_ids)),
            TimeProposalRecord.status == "accepted",
        )
        return {game_id: at for game_id, at in (await self.session.execute(stmt)).all() if at}

    # ------------------------------------------------------------------ server events

    async def event_of(self, owner_kind: str, owner_id: int) -> GuildEventRecord | None:
        stmt = select(GuildEventRecord).where(
            GuildEventRecord.owner_kind == owner_kind, GuildEventRecord.owner_id == owner_id
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def event(self, event_id: int) -> GuildEventRecord | None:
        if not is_row_id(event_id):
            return None
        return await self.session.get(GuildEventRecord, event_id)

    async def add_event(self, row: GuildEventRecord) -> GuildEventRecord:
        self.session.add(row)
        await self.session.flush()
        return row
