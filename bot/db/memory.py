"""What a process remembers of its database between units of work, so a hot path need
not ask again: facts that stay true once stored (an achievement earned is never taken
back) or that only this process writes (the display name it last stored for a member).

A fact is remembered once the transaction that read or wrote it has committed, never
before (a rolled-back grant is no grant), and per database: per connection pool, so a
test's fresh database, or a database restored behind a new engine, starts with nothing
remembered. Bounded as the bot's other caches are (``bot.caches.BoundedCache``): what
is forgotten is asked of the database again.

    EARNED = Remembered[tuple[int, int, str], bool]("achievements earned", 5_000)
    if EARNED.get(session, key) is None: ...       # ask the database
    EARNED.put_at_commit(session, key, True)       # known once this transaction commits
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable
from typing import Any, Generic, TypeVar

from sqlalchemy import Engine, event
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from sqlalchemy.pool import Pool

from bot.caches import BoundedCache

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_ENTRY_BYTES = 200  # a small key and value in an ordered dict: close enough for a budget


class Remembered(Generic[K, V]):
    """Values by key, per database, learnt at commit (see the module)."""

    def __init__(self, name: str, max_items: int) -> None:
        self.name = name
        self.max_items = max_items
        self._stores: weakref.WeakKeyDictionary[Pool, BoundedCache[K, V]] = (
            weakref.WeakKeyDictionary()
        )
        self._pending = f"clubbot_remembered:{name}"  # in ``session.info``

    def _store(self, session: AsyncSession | Session) -> BoundedCache[K, V]:
        bind = session.get_bind()
        pool = bind.pool if isinstance(bind, Engine) else bind.engine.pool
        store = self._stores.get(pool)
        if store is None:
            store = self._stores[pool] = BoundedCache(
                self.name, self.max_items * _ENTRY_BYTES, lambda _: _ENTRY_BYTES
            )
        return store

    def get(self, session: AsyncSession, key: K) -> V | None:
        """What is remembered for ``key`` in this session's database, or None."""
        return self._store(session).get(key)

    def put_at_commit(self, session: AsyncSession, key: K, value: V) -> None:
        """Remember ``value`` for ``key`` once this session's transaction commits."""
        pending: dict[K, V] | None = session.info.get(self._pending)
        if pending is None:
            pending = session.info[self._pending] = {}
            event.listen(session.sync_session, "after_commit", self._learn, once=True)
            event.listen(session.sync_session, "after_rollback", self._forget, once=True)
        pending[key] = value

    def _learn(self, session: Session) -> None:
        pending: dict[Any, Any] = session.info.pop(self._pending, {})
        store = self._store(session)
        for key, value in pending.items():
            store.put(key, value)

    def _forget(self, session: Session) -> None:
        session.info.pop(self._pending, None)

    def clear(self) -> None:
        """Forget everything, in every database."""
        for store in list(self._stores.values()):
            store.clear()
