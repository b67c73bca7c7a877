from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from bot.db.engine import create_engine
from bot.db.migrate import current_revision, downgrade_to, head_revision, upgrade_to_head
from bot.db.registry import Base


async def test_empty_database_upgrades_to_head_and_downgrades_to_base(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        assert await upgrade_to_head(engine) == head_revision()
        async with engine.connect() as conn:
            tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        assert {
            "guilds",
            "players",
            "games",
            "game_seats",
            "moves",
            "jobs",
            "outbox",
            "results",
            "ratings",
        } <= tables
        assert await downgrade_to(engine, "base") is None
        async with engine.connect() as conn:
            tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        assert tables <= {"alembic_version"}
        assert await upgrade_to_head(engine) == head_revision()
        assert await current_revision(engine) == head_revision()
    finally:
        await engine.dispose()


async def test_migrations_match_the_models(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        await upgrade_to_head(engine)
        async with engine.connect() as conn:
            diff = await conn.run_sync(
                lambda c: compare_metadata(
                    MigrationContext.configure(c, opts={"compare_type": False}), Base.metadata
                )
            )
        assert diff == []
    finally:
        await engine.dispose()


async def test_sqlite_runs_in_wal_mode_with_foreign_keys(sqlite_url: str) -> None:
    from sqlalchemy import text

    engine = create_engine(sqlite_url)
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
            assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar() == 1
    finally:
        await engine.dispose()
