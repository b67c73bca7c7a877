"""aiosqlite connections whose statements cost one thread hop each.

aiosqlite runs every sqlite3 call on the connection's own thread and hands
the result back to the event loop. SQLAlchemy's adapter makes four such calls
per statement (open a cursor, execute, fetch all rows, close the cursor), and
each hop is a thread wake-up plus a loop wake-up: on a busy two-core machine
that is 0.2–0.5 ms apiece, most of the cost of a small transaction.

``PrefetchingConnection.cursor()`` returns a cursor that executes, fetches
every row and closes the sqlite3 cursor in a single hop, and serves
description, rowcount and rows from memory afterwards. SQLAlchemy fetches all
rows of a statement at once anyway (its aiosqlite adapter buffers them), so
nothing changes for callers; the statements, transactions and locking are
exactly aiosqlite's.

Only aiosqlite's ``Connection._execute`` (queue a call on the connection's
thread) and ``Connection._conn`` are used; both exist from aiosqlite 0.17 on.
"""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import Awaitable, Callable, Generator, Iterable, Sequence
from threading import Thread
from typing import Any

import aiosqlite

_Outcome = tuple[Any, int, int | None, list[Any]]


class PrefetchingCursor:
    """The DBAPI-cursor face SQLAlchemy's aiosqlite adapter uses, one hop per statement."""

    def __init__(self, connection: PrefetchingConnection) -> None:
        self._connection = connection
        self._rows: deque[Any] = deque()
        self.description: Any = None
        self.rowcount = -1
        self.lastrowid: int | None = None
        self.arraysize = 1

    # SQLAlchemy 2.0 awaits ``connection.cursor()``; 2.1 enters it as an async context.
    def __await__(self) -> Generator[Any, None, PrefetchingCursor]:
        return self
        yield  # pragma: no cover - makes this a generator

    async def __aenter__(self) -> PrefetchingCursor:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def _run(self, sql: str, parameters: Any, many: bool) -> _Outcome:
        """On the connection's thread: the whole statement, rows included."""
        cursor = self._connection._conn.cursor()
        try:
            if many:
                cursor.executemany(sql, parameters)
            else:
                cursor.execute(sql, parameters)
            rows = cursor.fetchall() if cursor.description else []
            return cursor.description, cursor.rowcount, cursor.lastrowid, rows
        finally:
            cursor.close()

    async def _submit(self, sql: str, parameters: Any, many: bool) -> PrefetchingCursor:
        # aiosqlite's private ``_execute`` has no annotations: name what it returns here.
        execute: Callable[..., Awaitable[_Outcome]] = self._connection._execute
        outcome = await execute(self._run, sql, parameters, many)
        self.description, self.rowcount, self.lastrowid, rows = outcome
        self._rows = deque(rows)
        return self

    async def execute(self, sql: str, parameters: Any = None) -> PrefetchingCursor:
        return await self._submit(sql, () if parameters is None else parameters, False)

    async def executemany(self, sql: str, parameters: Iterable[Any]) -> PrefetchingCursor:
        return await self._submit(sql, list(parameters), True)

    async def fetchone(self) -> Any:
        return self._rows.popleft() if self._rows else None

    async def fetchmany(self, size: int | None = None) -> Sequence[Any]:
        count = min(self.arraysize if size is None else size, len(self._rows))
        return [self._rows.popleft() for _ in range(count)]

    async def fetchall(self) -> Sequence[Any]:
        rows = list(self._rows)
        self._rows.clear()
        return rows

    async def close(self) -> None:
        self._rows.clear()  # the sqlite3 cursor was closed on the thread already

    async def setinputsizes(self, *sizes: Any) -> None:
        return None

    async def nextset(self) -> None:
        return None


class PrefetchingConnection(aiosqlite.Connection):
    # aiosqlite's ``cursor`` is a coroutine; this returns a cursor that can be awaited
    # or entered, which is how SQLAlchemy uses it, but not the same signature.
    def cursor(self) -> PrefetchingCursor:  # type: ignore[override]
        return PrefetchingCursor(self)


def connect(
    database: str | bytes, *, iter_chunk_size: int = 64, **kwargs: Any
) -> PrefetchingConnection:
    """What ``aiosqlite.connect`` does, with the prefetching connection class.

    SQLAlchemy calls this (``connect_args={"async_creator_fn": connect}``) with
    the arguments it would give ``aiosqlite.connect``.
    """
    location = database.decode("utf-8") if isinstance(database, bytes) else str(database)

    def connector() -> sqlite3.Connection:
        # With ``**kwargs`` mypy can't pick one of connect's overloads (one takes a factory).
        conn: sqlite3.Connection = sqlite3.connect(location, **kwargs)
        return conn

    connection = PrefetchingConnection(connector, iter_chunk_size)
    # A forgotten connection must not keep the interpreter alive at exit (as SQLAlchemy does for aiosqlite).
    thread = connection if isinstance(connection, Thread) else getattr(connection, "_thread", None)
    if thread is not None:
        thread.daemon = True
    return connection
