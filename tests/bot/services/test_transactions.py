"""``transact`` runs a unit of work again when it lost a race it could not see coming:
here, PostgreSQL breaking a deadlock between two writers by aborting one."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from sqlalchemy import select, update

from bot.db.models import GuildRecord
from bot.db.uow import UnitOfWork
from bot.services.transactions import transact


async def test_the_writer_postgresql_aborts_to_break_a_deadlock_runs_again_and_both_apply(
    session_factory, database_url: str
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite has one writer at a time: no deadlock")
    ctx = SimpleNamespace(uow=lambda: UnitOfWork(session_factory))
    async with UnitOfWork(session_factory) as uow:
        await uow.guilds.ensure(1, "one")
        await uow.guilds.ensure(2, "two")
        await uow.commit()
    both_hold_one = asyncio.Barrier(2)
    runs: list[str] = []

    def writer(name: str, first: int, second: int):  # type: ignore[no-untyped-def]
        async def work(uow: UnitOfWork) -> str:
            runs.append(name)
            for guild_id in (first, second):
                await uow.session.execute(
                    update(GuildRecord)
                    .where(GuildRecord.id == guild_id)
                    .values(settings={"by": name})
                )
                if guild_id == first and runs.count(name) == 1:
                    # the first time, each holds its first row when it asks for the other's
                    await asyncio.wait_for(both_hold_one.wait(), timeout=5)
            return name

        return work

    done = await asyncio.gather(
        transact(ctx, writer("ana", 1, 2)), transact(ctx, writer("ben", 2, 1))
    )

    assert sorted(done) == ["ana", "ben"]
    assert len(runs) == 3  # one of them was aborted once and ran again
    again = next(name for name in ("ana", "ben") if runs.count(name) == 2)
    async with UnitOfWork(session_factory) as uow:
        settings = (await uow.session.execute(select(GuildRecord.settings))).scalars().all()
    assert list(settings) == [{"by": again}, {"by": again}]  # it ran last, whole
