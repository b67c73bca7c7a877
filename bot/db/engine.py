"""Engine and session factory for SQLite (WAL, foreign keys) and PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event, exc
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session

from bot.db import sqlite_driver
from bot.db.session import ClubSession

SQLITE_BUSY_TIMEOUT_MS = 10_000
READ_ONLY_OPTION = "clubbot_read_only"


def _sqlite_on_connect(dbapi_conn: Any, _record: Any) -> None:
    # We issue BEGIN ourselves (see _sqlite_on_begin), so the driver must not.
    dbapi_conn.isolation_level = None
    cursor = dbapi_conn.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


def _sqlite_on_begin(conn: Any) -> None:
    """Take the write lock when a transaction starts.

    A deferred transaction that reads and then writes can fail at once with
    "database is locked" when another connection wrote in between (WAL
    snapshots cannot be upgraded). Starting with BEGIN IMMEDIATE makes such a
    transaction wait for the lock (busy_timeout) instead, so a unit of work
    either runs on fresh data or waits its turn.
    """
    if conn.get_execution_options().get(READ_ONLY_OPTION):
        # A reader (see create_read_session_factory) never writes: a deferred BEGIN
        # reads a consistent WAL snapshot without waiting for the writer.
        conn.exec_driver_sql("BEGIN")
    else:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def create_engine(database_url: str, **kwargs: Any) -> AsyncEngine:
    url = make_url(database_url)
    # Statement parameters can hold secrets (a Henyo word, a rack): keep them
    # out of exception texts that reach the log.
    kwargs.setdefault("hide_parameters", True)
    if url.get_backend_name() == "sqlite":
        if url.database and url.database != ":memory:":
            Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        if url.get_driver_name() == "aiosqlite":
            # One thread hop per statement instead of four (see bot/db/sqlite_driver.py).
            connect_args = dict(kwargs.pop("connect_args", {}))
            connect_args.setdefault("async_creator_fn", sqlite_driver.connect)
            kwargs["connect_args"] = connect_args
        engine = create_async_engine(url, **kwargs)
        event.listen(engine.sync_engine, "connect", _sqlite_on_connect)
        event.listen(engine.sync_engine, "begin", _sqlite_on_begin)
        return engine
    # PostgreSQL: the most recently used connections are handed out first (LIFO), so
    # those beyond a quiet hour's need sit idle rather than all being kept warm.
    # Sizes: DATABASE_POOL_SIZE and friends (bot/config.py). A connection the server
    # or a proxy closed is noticed before use, but not with SQLAlchemy's pre-ping,
    # which on asyncpg is three round trips (BEGIN, ";", ROLLBACK) at every checkout:
    # a third of the bot's statements under load (issue #32). See _checkout.
    kwargs.setdefault("pool_use_lifo", True)
    engine = create_async_engine(url, **kwargs)
    if not kwargs.get("pool_pre_ping"):
        event.listen(engine.sync_engine, "connect", _checked_in)  # new: alive
        event.listen(engine.sync_engine, "checkin", _checked_in)
        event.listen(engine.sync_engine, "checkout", _checkout)
    return engine


# A pooled connection idle longer than this is pinged before use (one round trip);
# one used since is only checked for a closed socket, which costs nothing.
PING_IDLE_SECONDS = 10.0
_IDLE_SINCE = "clubbot_idle_since"


def _checked_in(_dbapi_conn: Any, record: Any) -> None:
    record.info[_IDLE_SINCE] = time.monotonic()


def _checkout(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
    """The pool's liveness check, as cheap as it can be. A server that restarted or
    ended the session closes its socket, which asyncpg notices as it happens: such a
    connection is refused here at no cost. One idle for ``PING_IDLE_SECONDS`` (a
    proxy or a firewall may have dropped it silently) is pinged with one ``;``.
    ``DisconnectionError`` makes the pool discard it and hand out another."""
    raw = dbapi_conn.driver_connection
    if raw is None or raw.is_closed():
        raise exc.DisconnectionError("the server closed the connection")
    idle_since = record.info.get(_IDLE_SINCE)
    if idle_since is not None and time.monotonic() - idle_since < PING_IDLE_SECONDS:
        return
    try:
        dbapi_conn.run_async(lambda conn: conn.fetchrow(";"))
    except Exception as error:
        raise exc.DisconnectionError(f"the connection failed its ping: {error}") from error


def create_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for units of work (``ClubSession``: they send a repository's deferred
    writes, the queued job changes, before anything else)."""
    return async_sessionmaker(engine, expire_on_commit=False, sync_session_class=ClubSession)


def create_read_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for reading only (same pool). On SQLite their transactions do not take
    the write lock, so lookups, boards and suggestions never queue behind a commit.
    On PostgreSQL they run without a transaction (autocommit): under READ COMMITTED
    each statement reads its own snapshot either way, and a lookup saves the BEGIN
    and ROLLBACK round trips. A read session refuses to flush a change (it would be
    committed at once, where it used to be rolled back)."""
    options: dict[str, Any] = {READ_ONLY_OPTION: True}
    if engine.dialect.name == "postgresql":
        options["isolation_level"] = "AUTOCOMMIT"
    return async_sessionmaker(
        engine.execution_options(**options),
        expire_on_commit=False,
        sync_session_class=ReadSession,
    )


def create_statement_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions whose statements each stand alone (same pool): on PostgreSQL every
    statement commits as it runs (autocommit), so a unit of work that is one statement
    (the outbox's claim, reading the rows it takes; marking rows sent) costs one round
    trip, not three with its BEGIN and COMMIT. Only for work where one statement says
    all (or each of a few may take effect without the others): nothing is rolled back.
    On SQLite a transaction as ever (BEGIN IMMEDIATE, held for its statements only):
    the write lock must be taken before reading, and a statement costs no round trip."""
    if engine.dialect.name != "postgresql":
        return create_session_factory(engine)
    return async_sessionmaker(
        engine.execution_options(isolation_level="AUTOCOMMIT"),
        expire_on_commit=False,
        sync_session_class=ClubSession,
    )


def sessions_like(
    factory: async_sessionmaker[AsyncSession],
    make: Callable[[AsyncEngine], async_sessionmaker[AsyncSession]],
) -> async_sessionmaker[AsyncSession]:
    """Sessions made by ``make`` on the engine ``factory`` is bound to (the same pool);
    ``factory`` itself when it is bound to none (a test's own)."""
    bind = factory.kw.get("bind")
    return make(bind) if isinstance(bind, AsyncEngine) else factory


class ReadSession(ClubSession):
    """The session of a read-only unit of work."""


@event.listens_for(ReadSession, "before_flush")
def _no_writes(session: Session, _context: Any, _instances: Any) -> None:
    if session.new or session.deleted or session.dirty:
        raise RuntimeError("a read-only unit of work cannot write: use ServiceContext.uow()")
