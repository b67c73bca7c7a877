"""What every service is handed: storage (units of work), scheduler, clock, settings.

It lives outside ``bot.services`` because it is where the database meets the
use cases: services open units of work from it and never see a session."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.config import Settings
from bot.db.engine import create_read_session_factory
from bot.db.models import utcnow
from bot.db.uow import ReadUnitOfWork, UnitOfWork
from bot.scheduler import Scheduler


@dataclass
class ServiceContext:
    """What every service needs: storage, scheduler, clock, settings."""

    settings: Settings
    session_factory: async_sessionmaker[AsyncSession]
    scheduler: Scheduler
    clock: Callable[[], datetime] = utcnow
    # Called after a commit that wrote outbox rows, so they are sent promptly.
    outbox_notify: Callable[[], None] = lambda: None
    extras: dict[str, Any] = field(default_factory=dict)

    def uow(self) -> UnitOfWork:
        uow = UnitOfWork(self.session_factory)

        def posts_queued() -> None:
            if uow.wrote_outbox:  # most commits queue none: no claim for them
                self.outbox_notify()

        uow.on_commit(posts_queued)
        uow.on_commit(self.scheduler.wake_for(uow))
        return uow

    def reader(self) -> ReadUnitOfWork:
        """A unit of work for lookups that write nothing (boards, suggestions as you
        type, leaderboards): on SQLite it does not wait for the write lock."""
        factory = self.extras.get("_read_session_factory")
        if factory is None:
            bind = self.session_factory.kw.get("bind")
            factory = (
                create_read_session_factory(bind) if bind is not None else self.session_factory
            )
            self.extras["_read_session_factory"] = factory
        return ReadUnitOfWork(factory)
