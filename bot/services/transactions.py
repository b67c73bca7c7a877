"""The one way a use case writes: its work in one unit of work, committed, and run
again from a fresh read when it lost a race it could not see coming.

    async def work(uow: UnitOfWork) -> SignedUp:
        row = await ...              # read, decide, write: never commit here
        return SignedUp(...)

    return await transact(self.ctx, work)

A lost race is another writer getting there first: a version bumped in between
(:class:`LostRace`, raised by a compare-and-set), the same row inserted first (a
unique key: two games made at once took the same number), SQLite's write lock, or
PostgreSQL aborting one of two writers that took the same rows in opposite orders
(a deadlock).
Each is tried again after a short backoff, jittered so that writers who lost together
do not all come back together (a club's members starting games at once under load
lost five times in a row when every loser waited the same 10, 20, 40 and 80 ms);
the last is raised. Any other error rolls the unit of work back and is raised at
once, so a refusal changes nothing.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from bot.db.uow import UnitOfWork, is_deadlock, is_duplicate_row, is_sqlite_locked
from bot.errors import ConflictError

T = TypeVar("T")

ATTEMPTS = 8


class Writer(Protocol):
    """Where units of work come from (a ``ServiceContext``)."""

    def uow(self) -> UnitOfWork:
        """A new unit of work; whoever opens it commits it."""


class LostRace(ConflictError):
    """Another writer changed the row between our read and our write: read again.
    Its message is what the member reads if the race is lost every time."""


async def transact(
    ctx: Writer,
    work: Callable[[UnitOfWork], Awaitable[T]],
    *,
    conflicts: bool = False,
    attempts: int = ATTEMPTS,
) -> T:
    """``work`` in a unit of work of its own, committed; again from the start on a lost
    race. With ``conflicts`` (a job: nobody to tell) any ``ConflictError`` (a stale
    version the work reports as such) is read again too."""
    for attempt in range(attempts):
        last = attempt == attempts - 1
        try:
            async with ctx.uow() as uow:
                result = await work(uow)
                await uow.commit()
            return result
        except LostRace:
            if last:
                raise
        except ConflictError:
            if not conflicts or last:
                raise
        except Exception as exc:
            if not (is_duplicate_row(exc) or is_sqlite_locked(exc) or is_deadlock(exc)) or last:
                raise
        await asyncio.sleep(0.01 * (2**attempt) * random.uniform(0.5, 1.5))
    raise AssertionError("unreachable")
