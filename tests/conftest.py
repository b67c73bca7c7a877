"""Shared fixtures: real databases (a SQLite file; PostgreSQL when configured), and
the service context every service test builds its service on (``ctx``)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import shutil
import sqlite3
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.config import load_settings
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import script_heads_without_alembic, upgrade_to_head
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from tests.clock import FakeClock

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DIR = REPO_ROOT.parent / "shared"

pytest_plugins = ["tests.clock", "tests.loopback.plugin", "tests.reliability.logscan"]

POSTGRES_URL = os.environ.get("TEST_DATABASE_URL")


def pytest_configure(config: pytest.Config) -> None:
    """Word graphs built for test word lists go to a folder of this run, not the
    user's cache (every scripted game writes a list of its own). Bots the tests
    start as processes inherit it."""
    if "CLUBBOT_CACHE_DIR" not in os.environ:
        folder = tempfile.mkdtemp(prefix="clubbot-test-cache-")
        os.environ["CLUBBOT_CACHE_DIR"] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def shared_path(*parts: str) -> Path:
    """A path in ../shared; skip (or, under CI, fail) when it is missing."""
    path = SHARED_DIR.joinpath(*parts)
    if not path.exists():
        message = f"{path} is missing: clone the project with its shared/ folder beside it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def sqlite_write_lock_free(path: str) -> bool:
    """Whether nobody holds the SQLite database's write lock right now (asked
    without waiting, from a connection of its own)."""
    probe = sqlite3.connect(path, timeout=0)
    try:
        probe.execute("BEGIN IMMEDIATE")
        probe.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:  # "database is locked"
        return False
    finally:
        probe.close()


async def reset_postgres(url: str) -> None:
    engine = create_engine(url)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


def _backends() -> list:
    params = [pytest.param("sqlite", id="sqlite")]
    params.append(
        pytest.param(
            "postgres",
            id="postgres",
            marks=pytest.mark.skipif(not POSTGRES_URL, reason="TEST_DATABASE_URL is not set"),
        )
    )
    return params


@pytest.fixture(params=_backends())
def backend(request: pytest.FixtureRequest) -> str:
    """Which database a test runs on: "sqlite", and "postgres" when configured."""
    return str(request.param)


# A test that gets a database through ``engine`` starts from one at head with no
# rows: a copy of a SQLite file migrated once per run, or PostgreSQL's schema
# migrated once and emptied between tests (TRUNCATE is far cheaper than dropping
# the schema and migrating again). A test that only asks for ``database_url``
# gets an empty database, as the migration tests need.
_postgres_at_head = False


@pytest.fixture
async def database_url(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[str]:
    """An empty database (a fresh SQLite file, a wiped PostgreSQL schema), or,
    when the test also uses ``engine``, one already at head with no rows."""
    global _postgres_at_head
    at_head = "engine" in request.fixturenames
    if backend == "sqlite":
        path = tmp_path / "club.db"
        if at_head:
            shutil.copyfile(request.getfixturevalue("migrated_sqlite_template"), path)
        yield f"sqlite+aiosqlite:///{path}"
    else:
        assert POSTGRES_URL
        if at_head:
            await _empty_postgres_at_head(POSTGRES_URL)
        else:
            _postgres_at_head = False
            await reset_postgres(POSTGRES_URL)
        yield POSTGRES_URL


@pytest.fixture
async def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"


@pytest.fixture(scope="session")
def migrated_sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head once per run; tests start from copies."""
    path = tmp_path_factory.mktemp("template") / "club.db"

    async def migrate() -> None:
        eng = create_engine(f"sqlite+aiosqlite:///{path}")
        await upgrade_to_head(eng)
        await eng.dispose()  # the last connection closing folds the WAL into the file

    # Asked for from inside a test's running event loop: migrate on a thread of its own.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, migrate()).result()
    return path


async def _empty_postgres_at_head(url: str) -> None:
    global _postgres_at_head
    eng = create_engine(url)
    try:
        if _postgres_at_head and await _stamped_at_head(eng):
            async with eng.begin() as conn:
                tables = (
                    await conn.execute(
                        text(
                            "select tablename from pg_tables where schemaname = 'public' "
                            "and tablename <> 'alembic_version'"
                        )
                    )
                ).scalars()
                names = ", ".join(f'"{name}"' for name in tables)
                if names:
                    await conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
            return
        _postgres_at_head = False
        await reset_postgres(url)
        await upgrade_to_head(eng)
        _postgres_at_head = True
    finally:
        await eng.dispose()


async def _stamped_at_head(eng: AsyncEngine) -> bool:
    heads = script_heads_without_alembic()
    async with eng.connect() as conn:
        stamped = set(
            (await conn.execute(text("select version_num from alembic_version"))).scalars()
        )
    return heads is not None and stamped == set(heads)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await upgrade_to_head(eng)  # at head already: a look at alembic_version
    yield eng
    await eng.dispose()


@pytest.fixture
def session_factory(engine: AsyncEngine):
    return create_session_factory(engine)


def make_service_context(session_factory, clock: FakeClock, **settings: object) -> ServiceContext:
    """A service context on the test's database and clock (the scheduler on the same clock)."""
    return ServiceContext(
        settings=load_settings(None, **settings),
        session_factory=session_factory,
        scheduler=Scheduler(session_factory, clock=clock),
        clock=clock,
    )


@pytest.fixture
def ctx(session_factory, clock: FakeClock) -> ServiceContext:
    """The service context of a service test: the built-in word list, no Stockfish."""
    return make_service_context(session_factory, clock, lexicon="default", stockfish_path="")
