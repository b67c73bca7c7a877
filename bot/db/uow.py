"""Unit of work: one transaction per command or job, owned by the service."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator
from datetime import datetime
from types import TracebackType
from typing import TypeVar

import sqlalchemy.exc
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.repositories import (
    BoggleRepository,
    GameRepository,
    GuildRepository,
    HenyoRepository,
    JobRepository,
    LeaderboardRepository,
    MoveRepository,
    OutboxRepository,
    PlayerRepository,
    RatingRepository,
    ResultRepository,
)
from bot.db.repositories.daily import AchievementRepository, DailyRepository
from bot.db.repositories.events import EventRepository
from bot.db.repositories.jobs import EARLIEST_DUE as EARLIEST_JOB_DUE
from bot.db.repositories.leagues import LeagueRepository
from bot.db.repositories.outbox import WROTE_OUTBOX
from bot.db.repositories.puzzle_daily import PuzzleDailyRepository
from bot.db.repositories.puzzles import PuzzleRepository
from bot.db.repositories.schedule import ScheduleRepository
from bot.db.repositories.seeks import SeekRepository
from bot.db.repositories.sessions import SessionRepository
from bot.db.repositories.signups import SignupRepository
from bot.db.repositories.tournaments import TournamentRepository
from bot.db.repositories.web import WebRepository

log = logging.getLogger(__name__)
T = TypeVar("T")


class UnitOfWork:
    """``async with UnitOfWork(factory) as uow: ...; await uow.commit()``.

    Leaving the block without ``commit()`` rolls everything back, so a failed
    validation changes nothing. ``on_commit`` callbacks run after a successful
    commit only (e.g. wake the outbox sender or the scheduler).
    """

    def __init__(self, session_factory: async_sessionmaker[AsyncSession]) -> None:
        self._factory = session_factory
        self.session: AsyncSession
        self._after_commit: list[Callable[[], None]] = []

    async def __aenter__(self) -> UnitOfWork:
        self.session = self._factory()
        self.guilds = GuildRepository(self.session)
        self.players = PlayerRepository(self.session)
        self.games = GameRepository(self.session)
        self.moves = MoveRepository(self.session)
        self.outbox = OutboxRepository(self.session)
        self.results = ResultRepository(self.session)
        self.ratings = RatingRepository(self.session)
        self.leaderboard = LeaderboardRepository(self.session)
        self.jobs = JobRepository(self.session)
        self.henyo = HenyoRepository(self.session)
        self.boggle = BoggleRepository(self.session)
        self.web = WebRepository(self.session)
        self.signups = SignupRepository(self.session)
        self.sessions = SessionRepository(self.session)
        self.tournaments = TournamentRepository(self.session)
        self.events = EventRepository(self.session)
        self.leagues = LeagueRepository(self.session)
        self.seeks = SeekRepository(self.session)
        self.schedule = ScheduleRepository(self.session)
        self.puzzles = PuzzleRepository(self.session)
        self.puzzle_dailies = PuzzleDailyRepository(self.session)
        self.daily = DailyRepository(self.session)
        self.achievements = AchievementRepository(self.session)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            await self.session.rollback()
        finally:
            await self.session.close()

    @property
    def wrote_outbox(self) -> bool:
        """Whether this unit of work queued a post (sent once it commits)."""
        return bool(self.session.info.get(WROTE_OUTBOX))

    @property
    def earliest_job_due(self) -> datetime | None:
        """The earliest due time of the jobs this unit of work scheduled, if any."""
        due: datetime | None = self.session.info.get(EARLIEST_JOB_DUE)
        return due

    def on_commit(self, callback: Callable[[], None]) -> None:
        self._after_commit.append(callback)

    async def commit(self) -> None:
        await self.session.commit()
        callbacks, self._after_commit = self._after_commit, []
        for cb in callbacks:
            try:
                cb()
            except Exception:  # a notification hook must not undo a commit
                log.exception("after-commit callback failed")


def is_duplicate_row(exc: BaseException) -> bool:
    """A unique key refused a row: another transaction stored the same thing first."""
    return isinstance(exc, IntegrityError)


@contextlib.contextmanager
def duplicate_as(error: Exception) -> Iterator[None]:
    """Raise ``error`` instead when the block inserts a row that already exists."""
    try:
        yield
    except IntegrityError:
        raise error from None


def is_sqlite_locked(exc: BaseException) -> bool:
    return isinstance(exc, OperationalError) and "database is locked" in str(exc)


# PostgreSQL's SQLSTATEs for a transaction it aborted so that another could go on.
DEADLOCK, SERIALIZATION_FAILURE = "40P01", "40001"


def is_deadlock(exc: BaseException) -> bool:
    """PostgreSQL broke a deadlock (or a serialization conflict) by aborting this
    transaction: two writers took the same rows in opposite orders. Running it again
    from the start is what PostgreSQL's documentation prescribes."""
    if not isinstance(exc, sqlalchemy.exc.DBAPIError):
        return False
    code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
    return code in (DEADLOCK, SERIALIZATION_FAILURE)


def is_overloaded(exc: BaseException) -> bool:
    """The database could not be reached in time because the bot is saturated: every
    pooled connection stayed busy for the pool's whole timeout, or SQLite's write lock
    was held past its busy timeout (after ``retry_locked``/``transact``'s tries). The
    work never started or was rolled back, so nothing changed: it can be tried again."""
    return isinstance(exc, sqlalchemy.exc.TimeoutError) or is_sqlite_locked(exc)


async def retry_locked(
    work: Callable[[], Awaitable[T]], *, attempts: int = 5, base_delay: float = 0.05
) -> T:
    """Run ``work`` again when SQLite reports ``database is locked``.

    ``work`` must open its own unit of work so each attempt starts clean.
    """
    for attempt in range(attempts):
        try:
            return await work()
        except OperationalError as exc:
            if not is_sqlite_locked(exc) or attempt == attempts - 1:
                raise
            await asyncio.sleep(base_delay * (2**attempt))
    raise AssertionError("unreachable")


class ReadUnitOfWork(UnitOfWork):
    """A unit of work that only reads (``ServiceContext.reader()``): it cannot commit,
    and on SQLite it runs without the write lock."""

    async def commit(self) -> None:
        raise RuntimeError(
            "a read-only unit of work cannot commit: use ServiceContext.uow() to write"
        )
