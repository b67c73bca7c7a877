"""What an UPDATE or DELETE did, read from its result."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import CursorResult, Result


def rowcount(result: Result[*tuple[Any, ...]]) -> int:
    """How many rows the statement matched.

    ``AsyncSession.execute`` is typed to return a ``Result`` whatever it runs; an
    UPDATE or DELETE gives a ``CursorResult``, which alone has ``rowcount``.
    """
    assert isinstance(result, CursorResult), type(result)
    return result.rowcount
