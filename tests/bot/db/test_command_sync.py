"""The command_syncs store: the hash last synced per application and scope."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot.db.command_sync import record_sync, synced_hashes

T0 = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)


async def test_a_new_database_has_synced_nothing(session_factory) -> None:
    assert await synced_hashes(session_factory, 1) == {}


async def test_a_recorded_sync_replaces_the_scopes_earlier_hash(session_factory) -> None:
    await record_sync(session_factory, 1, "guild:42", "a" * 64, T0)
    await record_sync(session_factory, 1, "global", "b" * 64, T0)
    await record_sync(session_factory, 1, "guild:42", "c" * 64, T0)
    assert await synced_hashes(session_factory, 1) == {"guild:42": "c" * 64, "global": "b" * 64}


async def test_hashes_belong_to_one_application(session_factory) -> None:
    # The same database started with another bot's token syncs that bot's commands.
    await record_sync(session_factory, 1, "guild:42", "a" * 64, T0)
    assert await synced_hashes(session_factory, 2) == {}


async def test_two_processes_recording_the_same_scope_at_once_both_succeed(
    session_factory,
) -> None:
    await asyncio.gather(
        *(record_sync(session_factory, 1, "guild:42", str(i) * 64, T0) for i in range(4))
    )
    hashes = await synced_hashes(session_factory, 1)
    assert list(hashes) == ["guild:42"] and hashes["guild:42"] in {str(i) * 64 for i in range(4)}
