"""Use cases. Each owns its transaction (one unit of work per command) and the
clock and RNG it hands to engines. No discord import: services return results."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.config import Settings
from bot.db.models import utcnow
from bot.db.uow import UnitOfWork
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
        uow.on_commit(self.outbox_notify)
        uow.on_commit(self.scheduler.wake)
        return uow
