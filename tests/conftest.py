"""Shared fixtures: real databases (a SQLite file; PostgreSQL when configured), and
the service context every service test builds its service on (``ctx``)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import os
import re
import shutil
import socket
import sqlite3
import tempfile
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from bot.config import load_settings
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import script_heads_without_alembic, upgrade_to_head
from bot.db.registry import Base
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from tests.clock import FakeClock

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DIR = REPO_ROOT.parent / "shared"

pytest_plugins = [
    "tests.clock",
    "tests.loopback.plugin",
    "tests.reliability.logscan",
    "tests.reliability.tally",
]

T = TypeVar("T")


def pytest_configure(config: pytest.Config) -> None:
    """Word graphs built for test word lists go to a folder of this run, not the
    user's cache (every scripted game writes a list of its own). Bots the tests
    start as processes inherit it, and so do pytest-xdist's workers: the folder is
    safe to share (a graph is stored under its list's hash, written to a file of
    the writing process and renamed into place)."""
    # CPU work runs in threads in tests (a process pool per test bot would slow the
    # suite); the pool's own tests, and one end-to-end run, ask for workers.
    os.environ.setdefault("CPU_WORKERS", "0")
    if "CLUBBOT_CACHE_DIR" not in os.environ:
        folder = tempfile.mkdtemp(prefix="clubbot-test-cache-")
        os.environ["CLUBBOT_CACHE_DIR"] = folder
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


@pytest.fixture(autouse=True)
def _no_cpu_pool_left_behind() -> Iterator[None]:
    """A test that starts a bot in this process with CPU workers (an end-to-end run
    with the pool on) leaves ``bot.offload``'s pool configured, closed: the next test
    in this worker starts as the suite does, with none (what it sends runs in a thread
    either way, but code asking whether a pool is there must not be told one is)."""
    yield
    from bot import offload

    if offload.current().workers:
        offload.configure(0)


# The order tests are handed out in (pytest-xdist gives each worker the next one as
# it finishes, in collection order): the long ones first, so the run never ends on
# one worker still busy with a minute-long test while the other waits. The tests
# marked ``slow`` go first (the reliability tests, the large pairing tournaments),
# then those that start a bot against the loopback Discord or a browser, then the
# rest, each in its collected order. The two kill-under-load tests share one lock
# (100 interactions a second side by side overload 2 cores): one goes first, the
# other last among the slow ones, so no worker waits for the lock.
_LOCKED_TOGETHER = "tests/reliability/test_kill_under_load.py::"


def _start_order(item: pytest.Item) -> tuple[int, int]:
    if _LOCKED_TOGETHER in item.nodeid:
        first = "test_one_process_killed" in item.nodeid
        return (0, 0 if first else 2)
    if item.get_closest_marker("slow"):
        return (0, 1)
    if item.nodeid.startswith(("tests/e2e/", "tests/reliability/")) or "browser" in item.nodeid:
        return (1, 0)
    return (2, 0)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_start_order)  # stable: within a tier, the collected order


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under PostgreSQL, a process that runs tests gets a database of its own (below);
    pytest-xdist's controller runs none."""
    config = session.config
    runs_tests = not (
        config.pluginmanager.has_plugin("dsession") or config.getoption("collectonly")
    )
    if runs_tests and os.environ.get("TEST_DATABASE_URL"):
        _own_postgres_database(config)


@pytest.hookimpl(trylast=True)  # after the session's fixtures are torn down
def pytest_sessionfinish(session: pytest.Session) -> None:
    # Here rather than at unconfigure: pytest-xdist ends its workers soon after this.
    drop = session.config.stash.get(_DROP_OWN_DATABASE, None)
    if drop is not None:
        drop()


def postgres_url() -> str | None:
    """PostgreSQL for the tests (``TEST_DATABASE_URL``), if configured: once the
    session has started, this test process's own database on that server."""
    return os.environ.get("TEST_DATABASE_URL")


# PostgreSQL, one database per test process. Under pytest-xdist the workers run
# tests side by side, so each gets a database of its own on the server
# TEST_DATABASE_URL names, e.g. ``test_gw0_1a2b3c_4242`` (the configured name, the
# worker, this machine, the process id); without xdist pytest's own process gets
# ``test_main_…``. It is created empty when the process starts (from a connection
# to the configured database, which the tests never use themselves),
# TEST_DATABASE_URL is pointed at it so that every fixture, test and bot process
# uses it, and it is dropped when the process ends. The process id keeps two runs
# at once apart (several people may test against one server); a run that crashed
# leaves its databases behind, and the next run on this machine drops every one
# whose process is gone.


def _run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end from synchronous code, on a thread of its own (the
    caller may be inside a test's running event loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _machine() -> str:
    """A short tag of this machine, in the names of the databases its runs create."""
    return hashlib.sha1(socket.gethostname().encode()).hexdigest()[:6]


def _process_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # someone else's, and alive
        return False
    return False


async def _admin(configured: str, *statements: str) -> list[str]:
    """Run statements outside a transaction (as CREATE/DROP DATABASE must) on the
    configured database; return the names of the databases on the server."""
    engine = create_async_engine(configured, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        async with engine.connect() as conn:
            for statement in statements:
                await conn.execute(text(statement))
            return list((await conn.execute(text("select datname from pg_database"))).scalars())
    finally:
        await engine.dispose()


_DROP_OWN_DATABASE = pytest.StashKey[Callable[[], None]]()


def _own_postgres_database(config: pytest.Config) -> None:
    configured = os.environ["TEST_DATABASE_URL"]
    base = make_url(configured).database or "test"
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"{base}_{worker}_{_machine()}_{os.getpid()}"
    # This machine's leftovers of crashed runs (a restore test's copy included).
    leftover = re.compile(rf"{re.escape(base)}_(?:gw\d+|main)_{_machine()}_(\d+)(?:_\w+)?")
    stale = [
        found
        for found in _run_async(_admin(configured))
        if (match := leftover.fullmatch(found)) and _process_gone(int(match.group(1)))
    ]
    for found in stale:
        # Another worker of this run may be dropping the same one.
        with contextlib.suppress(DBAPIError):
            _run_async(_admin(configured, f'DROP DATABASE IF EXISTS "{found}" WITH (FORCE)'))
    _run_async(_admin(configured, f'CREATE DATABASE "{name}"'))
    # A commit here need not wait for its WAL to reach the disk: the tests kill bot
    # processes, never the server, so nothing they check changes, and PostgreSQL's
    # tests take about a quarter less time. The server's own settings are untouched.
    _run_async(_admin(configured, f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
    own = make_url(configured).set(database=name).render_as_string(hide_password=False)
    os.environ["TEST_DATABASE_URL"] = own

    def drop() -> None:
        os.environ["TEST_DATABASE_URL"] = configured
        _run_async(_admin(configured, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    config.stash[_DROP_OWN_DATABASE] = drop


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
    """Empty PostgreSQL's schema (no tables at all; the next ``engine`` migrates again)."""
    global _postgres_at_head
    _postgres_at_head = False  # whichever test ran here before, in whatever order
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
            marks=pytest.mark.skipif(not postgres_url(), reason="TEST_DATABASE_URL is not set"),
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
    at_head = "engine" in request.fixturenames
    if backend == "sqlite":
        path = tmp_path / "club.db"
        if at_head:
            shutil.copyfile(request.getfixturevalue("migrated_sqlite_template"), path)
        yield f"sqlite+aiosqlite:///{path}"
    else:
        url = postgres_url()
        assert url
        if at_head:
            await _empty_postgres_at_head(url)
        else:
            await reset_postgres(url)
        yield url


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

    _run_async(migrate())  # asked for from inside a test's running event loop
    return path


async def _empty_postgres_at_head(url: str) -> None:
    global _postgres_at_head
    eng = create_engine(url)
    try:
        if _postgres_at_head and await _stamped_at_head(eng):
            async with eng.begin() as conn:
                await _delete_every_row(conn)
            return
        _postgres_at_head = False
        await reset_postgres(url)
        await upgrade_to_head(eng)
        _postgres_at_head = True
    finally:
        await eng.dispose()


async def _delete_every_row(conn: AsyncConnection) -> None:
    """Empty every table and restart every sequence, in one round trip.

    DELETE, not TRUNCATE: TRUNCATE gives each table and index new files, and
    with a truncate before every test the server had well over 100,000 files to
    sync at its next checkpoint, which DROP DATABASE waits for (a minute and more
    on a loaded disk). A few rows deleted leave no files behind."""
    present = set(
        (
            await conn.execute(
                text(
                    "select tablename from pg_tables where schemaname = 'public' "
                    "and tablename <> 'alembic_version'"
                )
            )
        ).scalars()
    )
    # Referencing tables before the tables they reference; any table the models do
    # not know (none at head) is truncated first, with whatever references it.
    ordered = [t.name for t in reversed(Base.metadata.sorted_tables) if t.name in present]
    unknown = sorted(present - set(ordered))
    sequences = (
        await conn.execute(
            text(
                "select sequencename, start_value from pg_sequences "
                "where schemaname = 'public' and last_value is not null"
            )
        )
    ).all()
    steps = [f'TRUNCATE "{name}" RESTART IDENTITY CASCADE;' for name in unknown]
    steps += [f'DELETE FROM "{name}";' for name in ordered]
    steps += [f"PERFORM setval('public.\"{name}\"', {start}, false);" for name, start in sequences]
    if steps:
        await conn.execute(text("DO $$ BEGIN " + " ".join(steps) + " END $$"))


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
