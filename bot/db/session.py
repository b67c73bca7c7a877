"""The ORM session every unit of work runs on: it sends the writes a repository
deferred (``defer_write``) before anything else it sends.

A repository that would issue many small statements in one unit of work (a move
moves two or three timers) may queue them instead and write them together: the
session sends what is queued before its next statement, flush, savepoint or commit,
so every statement the unit of work issues sees the database exactly as if each
write had gone out when it was asked for, and locks are taken in the same order.
A rollback drops what is queued: all of it at a rollback of the transaction (or
when the session closes), and at a savepoint's what was queued inside it (what was
queued before went out as the savepoint began).
"""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction

# In ``session.info``: the deferred writes not yet sent, in the order they were queued.
DEFERRED_WRITES = "clubbot_deferred_writes"


class DeferredWrite(Protocol):
    def write(self, session: Session) -> None:
        """Send what is queued on ``session`` (synchronously: the session calls it
        from inside its own statement, in its greenlet) and forget it."""

    def discard(self) -> None:
        """Forget what is queued: the transaction rolled back."""


def defer_write(info: dict[Any, Any], deferred: DeferredWrite) -> None:
    """Have the session whose ``info`` this is call ``deferred.write`` before it next
    sends anything. ``deferred`` registers once until it is written or discarded."""
    info.setdefault(DEFERRED_WRITES, []).append(deferred)


class ClubSession(Session):
    """A session that sends the deferred writes first (see the module's text).

    Every way a session sends SQL passes here: ``execute`` (``get``, ``refresh`` and
    loads go through it), ``scalar``, ``scalars``, ``connection`` (work done on the
    connection itself), ``flush``, ``begin_nested`` (what was queued before a
    savepoint is written before it, as it would have been) and ``commit``."""

    def _send_deferred(self) -> None:
        deferred = self.info.pop(DEFERRED_WRITES, None)
        if deferred:
            for write in deferred:
                write.write(self)

    def _drop_deferred(self) -> None:
        for write in self.info.pop(DEFERRED_WRITES, None) or ():
            write.discard()

    def execute(self, *args: Any, **kwargs: Any) -> Any:
        self._send_deferred()
        return super().execute(*args, **kwargs)

    def scalar(self, *args: Any, **kwargs: Any) -> Any:
        self._send_deferred()
        return super().scalar(*args, **kwargs)

    def scalars(self, *args: Any, **kwargs: Any) -> Any:
        self._send_deferred()
        return super().scalars(*args, **kwargs)

    def connection(self, *args: Any, **kwargs: Any) -> Any:
        self._send_deferred()
        return super().connection(*args, **kwargs)

    def flush(self, *args: Any, **kwargs: Any) -> None:
        self._send_deferred()
        super().flush(*args, **kwargs)

    def begin_nested(self) -> Any:
        self._send_deferred()
        return super().begin_nested()

    def commit(self) -> None:
        self._send_deferred()
        super().commit()

    def rollback(self) -> None:
        self._drop_deferred()
        super().rollback()

    def close(self) -> None:
        self._drop_deferred()
        super().close()


@event.listens_for(ClubSession, "after_soft_rollback")
def _rolled_back(session: Session, _transaction: SessionTransaction) -> None:
    # Any rollback, a savepoint's too: what is queued was asked for inside it.
    if isinstance(session, ClubSession):
        session._drop_deferred()
