"""Engine and session factory for SQLite (WAL, foreign keys) and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from bot.db import sqlite_driver

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
    # PostgreSQL: a connection the server or a proxy closed is noticed before use
    # (pre-ping), and the most recently used connections are handed out first
    # (LIFO), so those beyond a quiet hour's need sit idle rather than all being
    # kept warm. Sizes: DATABASE_POOL_SIZE and friends (bot/config.py).
    kwargs.setdefault("pool_pre_ping", True)
    kwargs.setdefault("pool_use_lifo", True)
    return create_async_engine(url, **kwargs)


def create_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


def create_read_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for reading only (same pool). On SQLite their transactions do not take
    the write lock, so lookups, boards and suggestions never queue behind a commit;
    on PostgreSQL they are ordinary transactions."""
    return async_sessionmaker(
        engine.execution_options(**{READ_ONLY_OPTION: True}), expire_on_commit=False
    )
