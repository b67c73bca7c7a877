"""The tournament tables as the tournament service sees them: a tournament and its
entrants, rounds, pairings and log.

Nothing here commits. A tournament changes through ``bump``, a compare-and-set on
its version, so two directors acting at once (or a director and a finishing
game's job) never both apply: the second gets False and retries or refuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.dml import compare_and_set
from bot.db.models import RatingRecord
from bot.db.models_tournaments import (
    TournamentEntrantRecord,
    TournamentLogRecord,
    TournamentPairingRecord,
    TournamentRecord,
    TournamentRoundRecord,
)
from bot.db.repositories.common import is_row_id

TournamentRow = (
    TournamentRecord
    | TournamentEntrantRecord
    | TournamentRoundRecord
    | TournamentPairingRecord
    | TournamentLogRecord
)
LIVE = ("signup", "running", "paused")


class TournamentRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def add(self, row: TournamentRow) -> None:
        self.session.add(row)

    async def flush(self) -> None:
        await self.session.flush()

    async def get(self, tournament_id: int) -> TournamentRecord | None:
        if not is_row_id(tournament_id):
            return None
        return await self.session.get(TournamentRecord, tournament_id)

    async def bump(self, row: TournamentRecord, **changes: Any) -> bool:
        """Apply ``changes`` and a new version if the row still has the version read;
        False (nothing written) when someone else changed it first."""
        return await compare_and_set(self.session, row, changes)

    async def live_in_guild(self, guild_id: int) -> list[TournamentRecord]:
        """The guild's tournaments not yet over, newest first."""
        rows = await self.session.execute(
            select(TournamentRecord)
            .where(TournamentRecord.guild_id == guild_id, TournamentRecord.status.in_(LIVE))
            .order_by(TournamentRecord.id.desc())
        )
        return list(rows.scalars())

    async def recent_in_guild(self, guild_id: int, limit: int = 25) -> list[TournamentRecord]:
        rows = await self.session.execute(
            select(TournamentRecord)
            .where(TournamentRecord.guild_id == guild_id)
            .order_by(TournamentRecord.id.desc())
            .limit(limit)
        )
        return list(rows.scalars())

    # ------------------------------------------------------------------ entrants

    async def entrants(self, tournament_id: int) -> list[TournamentEntrantRecord]:
        rows = await self.session.execute(
            select(TournamentEntrantRecord)
            .where(TournamentEntrantRecord.tournament_id == tournament_id)
            .order_by(TournamentEntrantRecord.number)
        )
        return list(rows.scalars())

    # ------------------------------------------------------------------ rounds

    async def rounds(self, tournament_id: int) -> list[TournamentRoundRecord]:
        rows = await self.session.execute(
            select(TournamentRoundRecord)
            .where(TournamentRoundRecord.tournament_id == tournament_id)
            .order_by(TournamentRoundRecord.number)
        )
        return list(rows.scalars())

    async def round(self, tournament_id: int, number: int) -> TournamentRoundRecord | None:
        rows = await self.session.execute(
            select(TournamentRoundRecord).where(
                TournamentRoundRecord.tournament_id == tournament_id,
                TournamentRoundRecord.number == number,
            )
        )
        return rows.scalar_one_or_none()

    # ------------------------------------------------------------------ pairings

    async def pairings(
        self, tournament_id: int, round_number: int | None = None
    ) -> list[TournamentPairingRecord]:
        stmt = select(TournamentPairingRecord).where(
            TournamentPairingRecord.tournament_id == tournament_id
        )
        if round_number is not None:
            stmt = stmt.where(TournamentPairingRecord.round == round_number)
        rows = await self.session.execute(
            stmt.order_by(TournamentPairingRecord.round, TournamentPairingRecord.board)
        )
        return list(rows.scalars())

    async def pairing_of_game(self, game_id: int) -> TournamentPairingRecord | None:
        rows = await self.session.execute(
            select(TournamentPairingRecord).where(TournamentPairingRecord.game_id == game_id)
        )
        return rows.scalar_one_or_none()

    async def game_ids(self, tournament_id: int) -> list[int]:
        rows = await self.session.execute(
            select(TournamentPairingRecord.game_id)
            .where(
                TournamentPairingRecord.tournament_id == tournament_id,
                TournamentPairingRecord.game_id.is_not(None),
            )
            .order_by(TournamentPairingRecord.round, TournamentPairingRecord.board)
        )
        return [int(g) for g in rows.scalars() if g is not None]

    # ------------------------------------------------------------------ log

    def log(
        self,
        tournament_id: int,
        *,
        at: datetime,
        actor_id: int | None,
        action: str,
        detail: dict[str, Any] | None = None,
    ) -> None:
        self.session.add(
            TournamentLogRecord(
                tournament_id=tournament_id,
                at=at,
                actor_id=actor_id,
                action=action,
                detail=dict(detail or {}),
            )
        )

    async def log_entries(self, tournament_id: int) -> Sequence[TournamentLogRecord]:
        rows = await self.session.execute(
            select(TournamentLogRecord)
            .where(TournamentLogRecord.tournament_id == tournament_id)
            .order_by(TournamentLogRecord.id)
        )
        return list(rows.scalars())

    # ------------------------------------------------------------------ seeding

    async def ratings_of(
        self, guild_id: int, game_kind: str, user_ids: Sequence[int]
    ) -> dict[int, float]:
        """The members' ratings in this game (none yet: left out), for seeding."""
        if not user_ids:
            return {}
        rows = await self.session.execute(
            select(RatingRecord.player_id, RatingRecord.rating).where(
                RatingRecord.guild_id == guild_id,
                RatingRecord.game_kind == game_kind,
                RatingRecord.player_id.in_(list(user_ids)),
            )
        )
        return {int(uid): float(rating) for uid, rating in rows}
