"""What an UPDATE or DELETE did, read from its result."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import update
from sqlalchemy.engine import CursorResult, Result
from sqlalchemy.ext.asyncio import AsyncSession


def rowcount(result: Result[*tuple[Any, ...]]) -> int:
    """How many rows the statement matched.

    ``AsyncSession.execute`` is typed to return a ``Result`` whatever it runs; an
    UPDATE or DELETE gives a ``CursorResult``, which alone has ``rowcount``.
    """
    assert isinstance(result, CursorResult), type(result)
    return result.rowcount


class Versioned(Protocol):
    """A row with an optimistic-concurrency ``version`` (events, sessions, lists…)."""

    id: int
    version: int


async def compare_and_set(session: AsyncSession, row: Versioned, changes: dict[str, Any]) -> bool:
    """Write ``changes`` and the next version if ``row`` still has the version it
    was read with; False, with nothing written, when someone else changed it
    first. The one compare-and-set every versioned repository uses."""
    model: Any = type(row)
    values = dict(changes, version=row.version + 1)
    result = await session.execute(
        update(model)
        .where(model.id == row.id, model.version == row.version)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if rowcount(result) != 1:
        return False
    for key, value in values.items():
        setattr(row, key, value)
    return True
