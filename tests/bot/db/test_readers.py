"""Read-only units of work: on SQLite they read while a writer holds the lock."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import load_settings
from bot.db.models import GuildRecord
from bot.db.uow import UnitOfWork
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from tests.clock import FakeClock


def _ctx(session_factory) -> ServiceContext:
    clock = FakeClock()
    return ServiceContext(
        settings=load_settings(None),
        session_factory=session_factory,
        scheduler=Scheduler(session_factory, clock=clock),
        clock=clock,
    )


async def test_a_reader_sees_the_last_commit_while_a_writer_holds_the_lock(
    session_factory, database_url
) -> None:
    ctx = _ctx(session_factory)
    async with ctx.uow() as uow:
        uow.session.add(GuildRecord(id=1, name="before", settings={}))
        await uow.commit()
    async with ctx.uow() as writer:  # BEGIN IMMEDIATE on SQLite: the write lock is held from here
        guild = await writer.session.get(GuildRecord, 1)
        guild.name = "after"
        await writer.session.flush()
        # A writing unit of work would now wait for the lock; a reader does not.
        async with ctx.reader() as reader:
            seen = await asyncio.wait_for(reader.session.get(GuildRecord, 1), timeout=30)
            assert seen.name == "before"
        await writer.commit()
    async with ctx.reader() as reader:
        assert (await reader.session.get(GuildRecord, 1)).name == "after"


async def test_a_reader_cannot_commit(session_factory) -> None:
    ctx = _ctx(session_factory)
    async with ctx.reader() as reader:
        reader.session.add(GuildRecord(id=2, name="sneaky", settings={}))
        with pytest.raises(RuntimeError, match="read-only"):
            await reader.commit()
    async with UnitOfWork(session_factory) as uow:
        assert await uow.session.get(GuildRecord, 2) is None
