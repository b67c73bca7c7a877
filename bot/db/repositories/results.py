"""The club's record: ``results`` (one row per member per finished game or round)
and ``ratings`` (a member's standing in one game: rating and running totals)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import PlayerRecord, RatingRecord, ResultRecord


class ResultRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def add(self, result: ResultRecord) -> ResultRecord:
        self.session.add(result)
        return result

    def record(
        self,
        *,
        guild_id: int,
        kind: str,
        player_id: int,
        played_at: datetime,
        outcome: str | None,
        game_id: int | None = None,
        round_ref: str | None = None,
        score: float | None = None,
        opponent_score: float | None = None,
        points: float | None = None,
        time_ms: int | None = None,
        season: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> ResultRecord:
        """One member's result, written with the unit of work."""
        return self.add(
            ResultRecord(
                guild_id=guild_id,
                game_kind=kind,
                game_id=game_id,
                round_ref=round_ref,
                player_id=player_id,
                outcome=outcome,
                score=score,
                opponent_score=opponent_score,
                points=points,
                time_ms=time_ms,
                season=season,
                extra=dict(extra or {}),
                played_at=played_at,
            )
        )

    async def flush(self) -> None:
        """Write the pending results and standings now, so this unit of work's next
        reads (a season's standings, a table) count them."""
        await self.session.flush()

    async def take_back(self, guild_id: int, kind: str, round_ref: str) -> list[ResultRecord]:
        """Delete a round's results (a Henyo host's undo) and return them."""
        await self.session.flush()
        rows = list(
            (
                await self.session.execute(
                    select(ResultRecord).where(
                        ResultRecord.guild_id == guild_id,
                        ResultRecord.game_kind == kind,
                        ResultRecord.round_ref == round_ref,
                    )
                )
            ).scalars()
        )
        for row in rows:
            await self.session.delete(row)
        await self.session.flush()
        return rows

    async def best_time(self, guild_id: int, kind: str, player_id: int) -> int | None:
        """A member's best time in a game, from their results."""
        return (
            await self.session.execute(
                select(func.min(ResultRecord.time_ms)).where(
                    ResultRecord.guild_id == guild_id,
                    ResultRecord.game_kind == kind,
                    ResultRecord.player_id == player_id,
                )
            )
        ).scalar_one_or_none()

    async def for_guild(self, guild_id: int) -> list[tuple[ResultRecord, str | None]]:
        """Every result of the club, oldest first, each with the member's cached name."""
        rows = await self.session.execute(
            select(ResultRecord, PlayerRecord.display_name)
            .outerjoin(PlayerRecord, PlayerRecord.id == ResultRecord.player_id)
            .where(ResultRecord.guild_id == guild_id)
            .order_by(ResultRecord.played_at, ResultRecord.id)
        )
        return [(result, name) for result, name in rows]


class RatingRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def get_or_new(self, guild_id: int, game_kind: str, player_id: int) -> RatingRecord:
        rating = await self.session.get(RatingRecord, (guild_id, game_kind, player_id))
        if rating is None:
            rating = RatingRecord(
                guild_id=guild_id,
                game_kind=game_kind,
                player_id=player_id,
                rating=1500.0,
                rd=350.0,
                volatility=0.06,
                games=0,
                wins=0,
                losses=0,
                draws=0,
                points=0.0,
                spread=0.0,
            )
            self.session.add(rating)
        return rating

    async def for_member(self, guild_id: int, player_id: int) -> list[RatingRecord]:
        """A member's standing in each game they have played in the club."""
        rows = await self.session.execute(
            select(RatingRecord).where(
                RatingRecord.guild_id == guild_id, RatingRecord.player_id == player_id
            )
        )
        return list(rows.scalars())

    async def for_guild(self, guild_id: int) -> list[tuple[RatingRecord, str | None]]:
        """Every standing of the club by game, best rating first, each with the
        member's cached name."""
        rows = await self.session.execute(
            select(RatingRecord, PlayerRecord.display_name)
            .outerjoin(PlayerRecord, PlayerRecord.id == RatingRecord.player_id)
            .where(RatingRecord.guild_id == guild_id)
            .order_by(RatingRecord.game_kind, RatingRecord.rating.desc())
        )
        return [(rating, name) for rating, name in rows]


__all__ = ["RatingRepository", "ResultRepository"]
