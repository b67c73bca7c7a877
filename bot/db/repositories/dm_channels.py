"""Members' DM channels (the ``dm_channels`` table): looked up before a DM, stored
when Discord opened one, forgotten when Discord no longer knows it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, bindparam, delete, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.dml import rowcount
from bot.db.models import UTCDateTime
from bot.db.models_dm_channels import DmChannelRecord

_UPSERTS: dict[str, Any] = {}


def _upsert(dialect: str) -> Any:
    """Store a member's DM channel, or replace the one stored: built once per dialect
    (a member's first DM from any process stores it), its parameters bound as it runs."""
    statement = _UPSERTS.get(dialect)
    if statement is None:
        insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
        base = insert(DmChannelRecord).values(
            user_id=bindparam("user_id", type_=BigInteger),
            channel_id=bindparam("channel_id", type_=BigInteger),
            created_at=bindparam("created_at", type_=UTCDateTime),
        )
        statement = _UPSERTS[dialect] = base.on_conflict_do_update(
            index_elements=[DmChannelRecord.user_id],
            set_={"channel_id": base.excluded.channel_id, "created_at": base.excluded.created_at},
        )
    return statement


class DmChannelRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def channel_id(self, user_id: int) -> int | None:
        """The member's DM channel, if one was stored."""
        return await self.session.scalar(
            select(DmChannelRecord.channel_id).where(DmChannelRecord.user_id == user_id)
        )

    async def remember(self, user_id: int, channel_id: int, at: datetime) -> None:
        """Store (or replace) the member's DM channel. An upsert: two processes may
        open the same member's channel at once, and Discord gives both the same one."""
        await self.session.execute(
            _upsert(self.session.get_bind().dialect.name),
            {"user_id": user_id, "channel_id": channel_id, "created_at": at},
        )

    async def forget(self, user_id: int, channel_id: int) -> bool:
        """Drop the stored channel if it is still ``channel_id`` (another process may
        have stored a fresh one meanwhile); whether a row went."""
        result = await self.session.execute(
            delete(DmChannelRecord).where(
                DmChannelRecord.user_id == user_id, DmChannelRecord.channel_id == channel_id
            )
        )
        return rowcount(result) > 0
