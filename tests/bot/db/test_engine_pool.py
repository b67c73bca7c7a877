"""PostgreSQL's connection pool is sized by the settings, and a sized pool keeps its
connections between bursts instead of opening new ones for each (issue #32: the
default pool of 5 opened 5-10 new server connections per step of a load test)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.client import ClubBot
from bot.config import SettingsError, load_settings
from bot.db.engine import create_engine
from tests.clock import FakeClock
from tests.conftest import postgres_url

ANY_POSTGRES = "postgresql+asyncpg://clubbot@127.0.0.1:5432/clubbot"


async def test_the_pool_settings_reach_the_bots_engine() -> None:
    settings = load_settings(
        None,
        database_url=ANY_POSTGRES,
        database_pool_size=7,
        database_max_overflow=3,
        database_pool_recycle=600,
    )
    bot = ClubBot(settings, clock=FakeClock(), sync_commands=False, run_background=False)
    try:
        pool: Any = bot.engine.sync_engine.pool
        assert (pool.size(), pool._max_overflow, pool._recycle) == (7, 3, 600)
        # a connection the server closed is replaced before use, without SQLAlchemy's
        # pre-ping (tests/bot/db/test_engine_round_trips.py)
        assert not pool._pre_ping
    finally:
        await bot.engine.dispose()


def test_sqlite_takes_no_pool_settings() -> None:
    settings = load_settings(None, database_url="sqlite+aiosqlite:///club.db")
    assert settings.database_pool == {}


@pytest.mark.parametrize(
    ("key", "value"),
    [("database_pool_size", 0), ("database_max_overflow", -1), ("database_pool_recycle", 5)],
)
def test_a_bad_pool_setting_is_refused_by_name(key: str, value: int) -> None:
    with pytest.raises(SettingsError, match=key.upper()):
        load_settings(None, database_url=ANY_POSTGRES, **{key: value})


async def _bursts(engine: AsyncEngine, width: int, times: int) -> int:
    """``times`` bursts of ``width`` queries at once; how many server connections opened."""
    opened = 0

    def count(*_: Any) -> None:
        nonlocal opened
        opened += 1

    event.listen(engine.sync_engine, "connect", count)

    async def query() -> None:
        async with engine.connect() as conn:
            await conn.execute(text("select pg_sleep(0.05)"))

    for _ in range(times):
        await asyncio.gather(*(query() for _ in range(width)))
    return opened


@pytest.mark.skipif(not postgres_url(), reason="TEST_DATABASE_URL is not set")
async def test_a_sized_pool_keeps_its_connections_between_bursts() -> None:
    url = postgres_url()
    assert url
    sized = create_engine(url, **load_settings(None, database_url=url).database_pool)
    small = create_engine(url, pool_size=5, max_overflow=10)  # SQLAlchemy's default
    try:
        assert await _bursts(sized, width=10, times=3) == 10  # opened once, kept
        assert await _bursts(small, width=10, times=3) == 5 + 3 * 5  # overflow reopened
    finally:
        await sized.dispose()
        await small.dispose()
