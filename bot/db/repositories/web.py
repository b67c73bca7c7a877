"""What the club's web page and the operations endpoints read: a club by its page's
secret, the club's games, rounds and events as lists, and the counts ``/metrics``
reports. Read-only: nothing here writes."""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import GameRecord, GuildRecord, JobRecord, MoveRecord, OutboxRecord
from bot.db.models_boggle import BoggleRoundRecord
from bot.db.models_henyo import HenyoEventRecord, HenyoRoundRecord
from bot.db.models_sessions import ClubSessionRecord


def web_token(settings: dict[str, Any] | None) -> str | None:
    """The page's secret in ``guilds.settings["web"]`` while the page is on."""
    web = (settings or {}).get("web")
    if not isinstance(web, dict) or not web.get("enabled"):
        return None
    token = web.get("token")
    return token if isinstance(token, str) and token else None


class WebRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def guild_by_token(self, token: str) -> GuildRecord | None:
        """The club whose page is on at this secret, else None.

        Every club's settings are read and compared in constant time: a bot serves
        tens of clubs, not millions, and the JSON column has no portable index."""
        found = None
        rows = await self.session.execute(select(GuildRecord))
        for guild in rows.scalars():
            secret = web_token(guild.settings)
            if secret is not None and hmac.compare_digest(secret.encode(), token.encode()):
                found = guild
        return found

    async def games(
        self, guild_id: int, statuses: Sequence[str], *, limit: int = 50
    ) -> list[GameRecord]:
        """The club's games in these states, most recently changed first."""
        stmt = (
            select(GameRecord)
            .where(GameRecord.guild_id == guild_id, GameRecord.status.in_(list(statuses)))
            .order_by(GameRecord.updated_at.desc(), GameRecord.id.desc())
            .limit(limit)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def move_counts(self, game_ids: Sequence[int]) -> dict[int, int]:
        """How many moves each of these games has, in one query."""
        if not game_ids:
            return {}
        rows = await self.session.execute(
            select(MoveRecord.game_id, func.count())
            .where(MoveRecord.game_id.in_(list(game_ids)))
            .group_by(MoveRecord.game_id)
        )
        return {game_id: int(count) for game_id, count in rows}

    async def boggle_rounds(self, guild_id: int, *, limit: int = 20) -> list[BoggleRoundRecord]:
        stmt = (
            select(BoggleRoundRecord)
            .where(BoggleRoundRecord.guild_id == guild_id)
            .order_by(BoggleRoundRecord.number.desc())
            .limit(limit)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def henyo_events(self, guild_id: int, *, limit: int = 20) -> list[HenyoEventRecord]:
        stmt = (
            select(HenyoEventRecord)
            .where(HenyoEventRecord.guild_id == guild_id)
            .order_by(HenyoEventRecord.id.desc())
            .limit(limit)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def henyo_rounds(self, guild_id: int, *, limit: int = 5) -> list[HenyoRoundRecord]:
        """The club's newest Henyo rounds (the room's screen follows the latest)."""
        stmt = (
            select(HenyoRoundRecord)
            .where(HenyoRoundRecord.guild_id == guild_id)
            .order_by(HenyoRoundRecord.id.desc())
            .limit(limit)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def club_sessions(self, guild_id: int, *, limit: int = 20) -> list[ClubSessionRecord]:
        stmt = (
            select(ClubSessionRecord)
            .where(ClubSessionRecord.guild_id == guild_id)
            .order_by(ClubSessionRecord.id.desc())
            .limit(limit)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def ping(self) -> None:
        await self.session.execute(text("SELECT 1"))

    async def games_running(self) -> dict[str, int]:
        """Games in progress, by kind."""
        rows = await self.session.execute(
            select(GameRecord.kind, func.count())
            .where(GameRecord.status == "active")
            .group_by(GameRecord.kind)
        )
        return {kind: int(count) for kind, count in rows}

    async def jobs_due(self, now: datetime) -> int:
        return int(
            (
                await self.session.execute(
                    select(func.count()).where(JobRecord.status == "due", JobRecord.due_at <= now)
                )
            ).scalar_one()
        )

    async def outbox_backlog(self) -> int:
        return int(
            (
                await self.session.execute(
                    select(func.count()).where(OutboxRecord.sent_at.is_(None))
                )
            ).scalar_one()
        )
