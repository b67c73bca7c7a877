from __future__ import annotations

import pytest
from sqlalchemy import insert, select, text, update
from sqlalchemy.exc import IntegrityError

from bot.db import sqlite_driver
from bot.db.engine import create_engine
from bot.db.models import GuildRecord, PlayerRecord
from bot.db.sqlite_driver import PrefetchingConnection


async def test_sqlite_engines_use_the_prefetching_connection(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    try:
        async with engine.connect() as conn:
            raw = await conn.get_raw_connection()
            assert isinstance(raw.driver_connection, PrefetchingConnection)
    finally:
        await engine.dispose()


async def test_rows_rowcounts_and_batches_come_back_as_with_aiosqlite(engine) -> None:
    async with engine.begin() as conn:
        await conn.execute(
            insert(PlayerRecord), [{"id": n, "display_name": f"p{n}"} for n in range(1, 151)]
        )
        assert (
            await conn.execute(select(PlayerRecord.id).order_by(PlayerRecord.id))
        ).scalars().all() == list(range(1, 151))
        changed = await conn.execute(
            update(PlayerRecord).where(PlayerRecord.id > 100).values(display_name="x")
        )
        assert changed.rowcount == 50
        assert (
            await conn.execute(select(PlayerRecord.id).where(PlayerRecord.id == 999))
        ).first() is None
        result = await conn.execute(select(PlayerRecord.id).order_by(PlayerRecord.id))
        assert result.fetchmany(3) == [(1,), (2,), (3,)]
        assert len(result.fetchall()) == 147


async def test_a_failed_statement_raises_and_leaves_the_connection_usable(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY)"))
            await conn.execute(text("INSERT INTO t (id) VALUES (1)"))
        with pytest.raises(IntegrityError):
            async with engine.begin() as conn:
                await conn.execute(text("INSERT INTO t (id) VALUES (1)"))
        async with engine.begin() as conn:
            await conn.execute(text("INSERT INTO t (id) VALUES (2)"))
            assert (await conn.execute(text("SELECT count(*) FROM t"))).scalar_one() == 2
    finally:
        await engine.dispose()


async def test_orm_inserts_get_their_ids_and_rolled_back_work_is_gone(session_factory) -> None:
    async with session_factory() as session:
        session.add(GuildRecord(id=7, name="club", settings={}))
        await session.commit()
    async with session_factory() as session:
        session.add(PlayerRecord(id=1, display_name="kept"))
        await session.commit()
        session.add(PlayerRecord(id=2, display_name="dropped"))
        await session.flush()
        await session.rollback()
    async with session_factory() as session:
        names = (await session.execute(select(PlayerRecord.display_name))).scalars().all()
        assert names == ["kept"]


async def test_the_cursor_works_awaited_and_entered_as_both_sqlalchemy_lines_use_it(
    tmp_path,
) -> None:
    conn = await sqlite_driver.connect(str(tmp_path / "direct.db"))
    try:
        cursor = await conn.cursor()  # SQLAlchemy 2.0 awaits connection.cursor()
        await cursor.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
        await cursor.executemany("INSERT INTO t (name) VALUES (?)", [("a",), ("b",), ("c",)])
        assert cursor.rowcount == 3 and cursor.description is None
        await conn.commit()
        async with conn.cursor() as entered:  # SQLAlchemy 2.1 enters it
            await entered.execute("SELECT name FROM t WHERE id > ? ORDER BY id", (0,))
            assert entered.description[0][0] == "name"
            assert await entered.fetchone() == ("a",)
            assert await entered.fetchmany(1) == [("b",)]
            assert await entered.fetchall() == [("c",)]
            assert await entered.fetchone() is None
    finally:
        await conn.close()
