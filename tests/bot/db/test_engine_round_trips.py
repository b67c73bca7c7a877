"""What a unit of work costs in round trips to PostgreSQL (issue #32).

SQLAlchemy's pre-ping is three round trips on asyncpg (BEGIN, ``;``, ROLLBACK) at
every checkout, and a lookup's own BEGIN and ROLLBACK two more: under load they were
half of the bot's statements. Now a pooled connection is checked for a closed socket
(free) and pinged only after it sat idle; lookups run without a transaction. What
must still hold: a connection the server ended is replaced, not handed to a command;
a lookup cannot write; a writer's statements are one transaction.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db import engine as engine_module
from bot.db.engine import create_engine, create_read_session_factory, create_session_factory
from bot.db.models import PlayerRecord
from bot.db.uow import ReadUnitOfWork, UnitOfWork
from tests.conftest import postgres_url

needs_postgres = pytest.mark.skipif(not postgres_url(), reason="TEST_DATABASE_URL is not set")


async def _driver(conn: Any) -> Any:
    """The asyncpg connection under a SQLAlchemy connection."""
    return (await conn.get_raw_connection()).driver_connection


@needs_postgres
async def test_a_connection_the_server_ended_is_replaced_before_a_command_gets_it() -> None:
    url = postgres_url()
    assert url
    eng = create_engine(url, pool_size=1, max_overflow=0)
    admin = create_engine(url)
    try:
        async with eng.connect() as conn:
            first = (await conn.execute(text("select pg_backend_pid()"))).scalar_one()
            raw = await _driver(conn)
        async with admin.connect() as conn:  # the server ends the pooled, idle session
            await conn.execute(text("select pg_terminate_backend(:p)"), {"p": first})
        for _ in range(250):  # asyncpg reads the server's goodbye as it comes
            if raw.is_closed():
                break
            await asyncio.sleep(0.02)
        async with eng.connect() as conn:  # no error: a new connection
            second = (await conn.execute(text("select pg_backend_pid()"))).scalar_one()
        assert second != first
    finally:
        await eng.dispose()
        await admin.dispose()


@needs_postgres
async def test_a_connection_in_use_is_not_pinged_one_idle_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = postgres_url()
    assert url
    eng = create_engine(url, pool_size=1, max_overflow=0)
    sent: list[str] = []
    try:
        async with eng.connect() as conn:  # the one pooled connection, logged from now on
            (await _driver(conn)).add_query_logger(lambda record: sent.append(record.query))
        for _ in range(5):
            async with eng.connect() as conn:
                await conn.execute(text("select 1"))
        assert ";" not in sent  # used a moment ago: only its socket was looked at
        monkeypatch.setattr(engine_module, "PING_IDLE_SECONDS", 0.0)
        sent.clear()
        async with eng.connect() as conn:
            await conn.execute(text("select 1"))
        assert sent.count(";") == 1 and sent[0] == ";"  # idle: one ";" before use, alone
    finally:
        await eng.dispose()


@needs_postgres
async def test_a_lookup_runs_without_a_transaction_a_writer_in_one(
    backend: str, engine: AsyncEngine
) -> None:
    if backend != "postgres":
        pytest.skip("PostgreSQL's transactions")
    async with ReadUnitOfWork(create_read_session_factory(engine)) as uow:
        await uow.session.execute(text("select 1"))
        assert not (await _driver(await uow.session.connection())).is_in_transaction()
    async with UnitOfWork(create_session_factory(engine)) as uow:
        await uow.session.execute(text("select 1"))
        assert (await _driver(await uow.session.connection())).is_in_transaction()


async def test_a_lookup_cannot_write(engine: AsyncEngine) -> None:
    async with ReadUnitOfWork(create_read_session_factory(engine)) as uow:
        uow.session.add(PlayerRecord(id=7, display_name="seven"))
        with pytest.raises(RuntimeError, match="read-only"):
            await uow.session.flush()
    async with ReadUnitOfWork(create_read_session_factory(engine)) as uow:
        assert await uow.session.get(PlayerRecord, 7) is None
