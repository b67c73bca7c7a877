"""SQLite's single writer: a competing writer makes the bot wait, never fail.

Every transaction starts with ``BEGIN IMMEDIATE`` under a 10 s busy timeout
(``bot/db/engine.py``), and ``retry_locked`` (``bot/db/uow.py``) runs a unit of
work again if the lock stays taken longer than that.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

import bot.db.engine as db_engine
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade_to_head
from bot.db.uow import UnitOfWork, retry_locked
from tests.reliability.games import club_db


class HeldLock:
    """Another program (a backup script, a second bot by mistake) holding the write lock.

    Taken in a worker thread: waiting for it on the event loop would stall the
    in-process bot, which may be half-way through a transaction itself.
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    @classmethod
    async def take(cls, path: Path) -> HeldLock:
        def begin() -> sqlite3.Connection:
            db = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
            db.execute("BEGIN IMMEDIATE")
            return db

        return cls(await asyncio.to_thread(begin))

    def release(self) -> None:
        self.db.execute("ROLLBACK")
        self.db.close()


async def test_a_command_waits_for_a_competing_writer_and_then_succeeds(club) -> None:
    dc = club.dc
    await club.start()
    lock = await HeldLock.take(club.db_path)
    asyncio.get_running_loop().call_later(1.5, lock.release)

    ix = await dc.slash(club.moderator, club.channel, "henyo event open", pairs=3)

    assert not ix.answer.ephemeral, ix.answer.content
    assert await club_db(club).value("select count(*) from henyo_events") == 1


async def test_a_timer_due_while_the_database_is_locked_fires_once_the_lock_goes(club) -> None:
    dc = club.dc
    db = club_db(club)
    await club.start()
    alice, bob = club.members["alice"], club.members["bob"]
    await dc.slash(alice, club.channel, "scrabble new", opponent=bob)
    lock = await HeldLock.take(club.db_path)
    club.clock.advance(days=4)  # the invitation's expiry is due; the scheduler polls every 50 ms
    await asyncio.sleep(1.0)
    lock.release()
    notice = await dc.wait_for_message(
        channel=club.channel, predicate=lambda m: "expired" in m.content, timeout=15
    )
    await asyncio.sleep(0.3)
    assert "Scrabble #1" in notice.content
    assert await db.value("select status from games") == "abandoned"
    assert await db.rows(
        "select status, attempts, last_error from jobs where kind = 'scrabble.invite_expiry'"
    ) == [("done", 0, None)]
    assert len([m for m in dc.messages_in(club.channel) if "expired" in m.content]) == 1


async def test_retry_locked_runs_the_work_again_when_the_lock_outlasts_the_busy_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "locked.db"
    monkeypatch.setattr(db_engine, "SQLITE_BUSY_TIMEOUT_MS", 50)
    engine = create_engine(f"sqlite+aiosqlite:///{path}")
    await upgrade_to_head(engine)
    factory = create_session_factory(engine)
    attempts = 0

    async def work() -> str:
        nonlocal attempts
        attempts += 1
        async with UnitOfWork(factory) as uow:
            await uow.guilds.ensure(1, "Library Games Club")
            await uow.commit()
        return "written"

    try:
        lock = await HeldLock.take(path)
        with pytest.raises(OperationalError, match="database is locked"):
            await work()  # without the retry, the busy timeout alone gives up
        asyncio.get_running_loop().call_later(0.4, lock.release)
        assert await retry_locked(work, attempts=8, base_delay=0.05) == "written"
        assert attempts > 2
    finally:
        await engine.dispose()
    with sqlite3.connect(path) as db:
        assert db.execute("select name from guilds").fetchall() == [("Library Games Club",)]
