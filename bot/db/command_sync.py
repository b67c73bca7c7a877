"""Reading and recording command syncs (the ``command_syncs`` table).

A tiny store beside the repositories: the client asks which tree hash Discord
holds for each scope before syncing, and records the new hash after a sync
succeeds. Each call is its own short transaction.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models_command_sync import CommandSyncRecord


async def synced_hashes(
    session_factory: async_sessionmaker[AsyncSession], application_id: int
) -> dict[str, str]:
    """The tree hash last synced for each scope of this application."""
    async with session_factory() as session:
        rows = await session.execute(
            select(CommandSyncRecord.scope, CommandSyncRecord.tree_hash).where(
                CommandSyncRecord.application_id == application_id
            )
        )
        return {scope: tree_hash for scope, tree_hash in rows}


async def record_sync(
    session_factory: async_sessionmaker[AsyncSession],
    application_id: int,
    scope: str,
    tree_hash: str,
    synced_at: datetime,
) -> None:
    """Store the hash Discord now holds for ``scope`` (insert or replace)."""
    async with session_factory() as session:
        values = {
            "application_id": application_id,
            "scope": scope,
            "tree_hash": tree_hash,
            "synced_at": synced_at,
        }
        # Shard processes start together and may record the same scope at once:
        # an upsert, not a read-then-insert that one of them would lose.
        insert = (
            postgresql_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
        )
        statement = insert(CommandSyncRecord).values(**values)
        statement = statement.on_conflict_do_update(
            index_elements=[CommandSyncRecord.application_id, CommandSyncRecord.scope],
            set_={
                "tree_hash": statement.excluded.tree_hash,
                "synced_at": statement.excluded.synced_at,
            },
        )
        await session.execute(statement)
        await session.commit()
