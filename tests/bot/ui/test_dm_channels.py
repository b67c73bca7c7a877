"""A member's DM channel is remembered in the database: after a restart a turn DM is
one request to Discord, and a remembered channel Discord no longer knows is
forgotten and the DM still arrives (real discord.py client, loopback Discord,
a real database)."""

from __future__ import annotations

from typing import Any

import discord
from sqlalchemy import Connection, event, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.models_dm_channels import DmChannelRecord
from bot.db.repositories import DmChannelRepository, OutboxRepository
from bot.messages.post import Post
from bot.ui.outbox import OutboxSender
from tests.clock import FakeClock


def _client() -> discord.Client:
    intents = discord.Intents.none()
    intents.guilds = intents.dm_messages = True
    return discord.Client(intents=intents)


async def _turn_dm(session_factory: Any, user_id: int, text: str) -> None:
    async with session_factory() as session:
        OutboxRepository(session).to_user(user_id, Post(content=text))
        await session.commit()


async def _stored(session_factory: Any, user_id: int) -> int | None:
    async with session_factory() as session:
        return await session.scalar(
            select(DmChannelRecord.channel_id).where(DmChannelRecord.user_id == user_id)
        )


async def _send_one(dc: Any, session_factory: Any, user: Any, text: str) -> list[str]:
    """Start a fresh client (a restarted bot), send one turn DM through the outbox,
    and return the REST requests that took (the client's own start aside)."""
    client = _client()
    await dc.start_bot(client)
    try:
        await _turn_dm(session_factory, user.id, text)
        before = len(dc.requests)
        assert await OutboxSender(client, session_factory, owner="test:1").flush() == 1
        return [f"{r.method} {r.path.split('?')[0]}" for r in dc.requests[before:]]
    finally:
        await dc.stop_bot(client)


async def test_after_a_restart_a_turn_dm_is_one_request(
    loopback: Any, session_factory: Any, clock: FakeClock
) -> None:
    dc = loopback
    guild = dc.add_guild("Library Club")
    ana = dc.add_user("ana")
    dc.add_member(guild, ana)

    first = await _send_one(dc, session_factory, ana, "It's your turn in Scrabble #1")
    assert first[:-1] == ["POST /users/@me/channels"]  # opened once…
    channel = dc.dm_channel(ana, create=False)
    assert channel is not None and await _stored(session_factory, ana.id) == channel.id  # …kept

    again = await _send_one(dc, session_factory, ana, "It's your turn in Scrabble #1 again")
    assert again == [f"POST /channels/{channel.id}/messages"]
    assert [m.content for m in dc.dms_to(ana)] == [
        "It's your turn in Scrabble #1",
        "It's your turn in Scrabble #1 again",
    ]


async def test_a_stored_channel_discord_no_longer_knows_is_replaced(
    loopback: Any, session_factory: Any, clock: FakeClock
) -> None:
    dc = loopback
    guild = dc.add_guild("Library Club")
    ben = dc.add_user("ben")
    dc.add_member(guild, ben)
    gone = 1234567890123456789
    async with session_factory() as session:
        await DmChannelRepository(session).remember(ben.id, gone, clock())
        await session.commit()

    requests = await _send_one(dc, session_factory, ben, "It's your turn in chess #4")
    channel = dc.dm_channel(ben, create=False)
    assert channel is not None
    assert requests == [
        f"POST /channels/{gone}/messages",  # 404, 10003 Unknown Channel
        "POST /users/@me/channels",
        f"POST /channels/{channel.id}/messages",
    ]
    assert [m.content for m in dc.dms_to(ben)] == ["It's your turn in chess #4"]
    assert await _stored(session_factory, ben.id) == channel.id


async def test_a_members_channel_is_looked_up_and_stored_a_statement_each_then_remembered(
    loopback: Any, backend: str, engine: AsyncEngine, session_factory: Any, clock: FakeClock
) -> None:
    """A member's first DM asks the database one lookup and one store (on PostgreSQL
    with no BEGIN, COMMIT or ROLLBACK around either: they were five more round trips);
    their next DM from the same process asks nothing about the channel."""
    dc = loopback
    guild = dc.add_guild("Library Club")
    cy = dc.add_user("cy")
    dc.add_member(guild, cy)
    sent: list[str] = []

    def statement(conn: Connection, cursor: Any, text: str, *args: Any) -> None:
        sent.append(" ".join(text.split()[:4]))

    def begun(conn: Connection) -> None:
        if conn.get_execution_options().get("isolation_level") != "AUTOCOMMIT":
            sent.append("BEGIN")

    client = _client()
    await dc.start_bot(client)
    event.listen(engine.sync_engine, "before_cursor_execute", statement)
    event.listen(engine.sync_engine, "begin", begun)
    try:
        sender = OutboxSender(client, session_factory, owner="test:1")
        await _turn_dm(session_factory, cy.id, "It's your turn in Scrabble #2")
        first = len(sent)
        assert await sender.flush() == 1
        mine = [s.split()[0] for s in sent[first:] if "dm_channels" in s]
        assert mine == ["SELECT", "INSERT"]
        if backend == "postgres":
            assert "BEGIN" not in sent[first:]
        await _turn_dm(session_factory, cy.id, "It's your turn in Scrabble #2 again")
        again = len(sent)
        assert await sender.flush() == 1
        assert not [s for s in sent[again:] if "dm_channels" in s]
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", statement)
        event.remove(engine.sync_engine, "begin", begun)
        await dc.stop_bot(client)
    assert [m.content for m in dc.dms_to(cy)] == [
        "It's your turn in Scrabble #2",
        "It's your turn in Scrabble #2 again",
    ]
