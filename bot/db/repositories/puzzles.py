"""Puzzles and members' attempts at them (``puzzles``, ``puzzle_attempts``).

Nothing here commits. An attempt changes through ``bump`` (a compare-and-set on its
version), so of two answers sent at once only one counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import case, exists, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.dml import compare_and_set
from bot.db.models import GameSeatRecord
from bot.db.models_puzzles import PuzzleAttemptRecord, PuzzleRecord
from bot.db.repositories.common import is_row_id


class PuzzleRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def get(self, puzzle_id: int) -> PuzzleRecord | None:
        if not is_row_id(puzzle_id):
            return None
        return await self.session.get(PuzzleRecord, puzzle_id)

    async def plies_of_game(self, game_id: int) -> set[int]:
        """The plies of ``game_id`` that are puzzles already."""
        rows = await self.session.scalars(
            select(PuzzleRecord.ply).where(PuzzleRecord.game_id == game_id)
        )
        return set(rows)

    async def add(self, rows: Sequence[PuzzleRecord]) -> None:
        """New puzzles, flushed (they have their ids)."""
        self.session.add_all(rows)
        await self.session.flush()

    async def count(self, guild_id: int, kind: str) -> int:
        return int(
            await self.session.scalar(
                select(func.count())
                .select_from(PuzzleRecord)
                .where(PuzzleRecord.guild_id == guild_id, PuzzleRecord.kind == kind)
            )
            or 0
        )

    async def next_for(
        self, guild_id: int, kind: str, player_id: int, rating: float
    ) -> PuzzleRecord | None:
        """A puzzle of the club's the member has not tried: one from a game they did not
        play in first, then the nearest in rating to theirs, then the oldest."""
        tried = exists().where(
            PuzzleAttemptRecord.puzzle_id == PuzzleRecord.id,
            PuzzleAttemptRecord.player_id == player_id,
        )
        played = exists().where(
            GameSeatRecord.game_id == PuzzleRecord.game_id,
            GameSeatRecord.user_id == player_id,
        )
        stmt = (
            select(PuzzleRecord)
            .where(PuzzleRecord.guild_id == guild_id, PuzzleRecord.kind == kind, ~tried)
            .order_by(
                case((played, 1), else_=0),
                func.abs(PuzzleRecord.rating - rating),
                PuzzleRecord.id,
            )
            .limit(1)
        )
        return await self.session.scalar(stmt)

    # -- attempts --------------------------------------------------------------------

    async def attempt(self, puzzle_id: int, player_id: int) -> PuzzleAttemptRecord | None:
        return await self.session.scalar(
            select(PuzzleAttemptRecord).where(
                PuzzleAttemptRecord.puzzle_id == puzzle_id,
                PuzzleAttemptRecord.player_id == player_id,
            )
        )

    async def attempt_versions(self, puzzle_id: int) -> dict[int, int]:
        """Each member's attempt at the puzzle, by version (what board pages watch)."""
        rows = await self.session.execute(
            select(PuzzleAttemptRecord.player_id, PuzzleAttemptRecord.version).where(
                PuzzleAttemptRecord.puzzle_id == puzzle_id
            )
        )
        return {int(player): int(version) for player, version in rows}

    async def open_attempt(
        self, guild_id: int, kind: str, player_id: int
    ) -> PuzzleAttemptRecord | None:
        """The member's puzzle under way in the club (the latest), if any."""
        return await self.session.scalar(
            select(PuzzleAttemptRecord)
            .join(PuzzleRecord, PuzzleRecord.id == PuzzleAttemptRecord.puzzle_id)
            .where(
                PuzzleAttemptRecord.guild_id == guild_id,
                PuzzleAttemptRecord.player_id == player_id,
                PuzzleAttemptRecord.status == "open",
                PuzzleRecord.kind == kind,
            )
            .order_by(PuzzleAttemptRecord.id.desc())
            .limit(1)
        )

    async def add_attempt(self, row: PuzzleAttemptRecord) -> PuzzleAttemptRecord:
        self.session.add(row)
        await self.session.flush()
        return row

    async def bump(self, row: PuzzleAttemptRecord, **changes: Any) -> bool:
        """Write ``changes`` if nobody changed the attempt since it was read; False otherwise."""
        return await compare_and_set(self.session, row, changes)

    async def solved_at(self, guild_id: int, player_id: int) -> list[datetime]:
        """When the member solved each puzzle they solved in the club."""
        rows = await self.session.scalars(
            select(PuzzleAttemptRecord.finished_at).where(
                PuzzleAttemptRecord.guild_id == guild_id,
                PuzzleAttemptRecord.player_id == player_id,
                PuzzleAttemptRecord.status == "solved",
            )
        )
        return [when for when in rows if when is not None]
