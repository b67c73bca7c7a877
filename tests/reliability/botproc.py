"""``python -m tests.reliability.botproc`` is ``python -m bot`` with test-only hooks.

Production code knows nothing of these hooks: this module patches them in
before it hands over to ``bot.__main__.main``. Each is switched on by an
environment variable the reliability tests set:

``RELIABILITY_CRASH``
    A JSON list of crash points. The process kills itself with SIGKILL (no
    clean-up, no flush: as ``kill -9`` or a power cut would) at the first one
    it reaches. A point is ``{"at": ..., "table": ..., "nth": n}``, where
    ``table`` is a table name (any write to it) or ``"UPDATE games"`` (one kind of
    write):

    - ``"at": "commit"`` — right after a transaction that wrote to ``table``
      committed (the work is durable; nothing after it ran: no answer to the
      member, no outbox send);
    - ``"at": "before_commit"`` — right before such a commit (the work is lost);
    - ``"at": "outbox_sent"`` — right after Discord accepted an outbox post,
      before the row is marked sent.

    ``nth`` (default 1) skips the first ``nth - 1`` matches. Just before dying
    the process prints ``RELIABILITY-CRASH <json>`` to stderr, so a test can
    tell its kill point was reached rather than something else killing it.

``RELIABILITY_CLOCK_OFFSET``
    Seconds added to the bot's clock (the machine's): the offset of the test
    world's running clock (tests/clock.py), which the loopback Discord stamps
    messages with too. A restart after ``world.time_passes(...)`` is "later" for
    both, so the timers that fell due while the bot was down are due now,
    without waiting for them.

``RELIABILITY_PROBE_JOBS``
    Registers the job kind ``reliability.probe``: it DMs ``payload["user_id"]``
    (``probe <n>``) through the outbox, in the job's own transaction.

The bot also skips discord.py's 2 s wait for further guilds at start-up (the
in-process harness does the same), so a restart takes as long as the imports.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from datetime import timedelta
from typing import Any

PROBE_KIND = "reliability.probe"
CRASH_MARK = "RELIABILITY-CRASH"
_WRITE = re.compile(r'^\s*(INSERT|UPDATE|DELETE)\s+(?:INTO\s+|FROM\s+)?"?(\w+)"?', re.IGNORECASE)


class CrashPoints:
    """Counts matches of each crash point and kills the process at the chosen one."""

    def __init__(self, points: list[dict[str, Any]]) -> None:
        self.points = points
        self.seen = [0] * len(points)
        # Tables written by the open transaction of each DBAPI connection.
        self.written: dict[int, set[str]] = {}

    def reached(self, at: str, tables: set[str] | None = None) -> None:
        for index, point in enumerate(self.points):
            if point["at"] != at:
                continue
            if point.get("table") is not None and point["table"] not in (tables or set()):
                continue
            self.seen[index] += 1
            if self.seen[index] == int(point.get("nth", 1)):
                self.die(point)

    @staticmethod
    def die(point: dict[str, Any]) -> None:
        sys.stderr.write(f"{CRASH_MARK} {json.dumps(point, sort_keys=True)}\n")
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGKILL)


def _connection_key(connection: Any) -> int:
    return id(getattr(connection, "dbapi_connection", connection))


def install_crash_points(points: list[dict[str, Any]]) -> CrashPoints:
    from sqlalchemy import event
    from sqlalchemy.engine import Engine
    from sqlalchemy.engine.default import DefaultDialect

    from bot.ui.outbox import OutboxSender

    crash = CrashPoints(points)

    @event.listens_for(Engine, "before_cursor_execute")
    def _track(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        match = _WRITE.match(statement)
        if match:
            verb, table = match.group(1).upper(), match.group(2).lower()
            crash.written.setdefault(_connection_key(conn.connection), set()).update(
                {table, f"{verb} {table}"}
            )

    original_commit = DefaultDialect.do_commit
    original_rollback = DefaultDialect.do_rollback

    def do_commit(self: Any, dbapi_connection: Any) -> None:
        tables = crash.written.pop(_connection_key(dbapi_connection), set())
        if tables:
            crash.reached("before_commit", tables)
        original_commit(self, dbapi_connection)
        if tables:
            crash.reached("commit", tables)

    def do_rollback(self: Any, dbapi_connection: Any) -> None:
        crash.written.pop(_connection_key(dbapi_connection), None)
        original_rollback(self, dbapi_connection)

    DefaultDialect.do_commit = do_commit  # type: ignore[method-assign]
    DefaultDialect.do_rollback = do_rollback  # type: ignore[method-assign]

    original_send = OutboxSender._send

    async def _send(self: OutboxSender, row: Any, siblings: Any = None) -> Any:
        sent_with = await original_send(self, row, siblings)
        crash.reached("outbox_sent", {row.target_kind})
        return sent_with

    OutboxSender._send = _send  # type: ignore[method-assign]
    return crash


async def probe_job(uow: Any, job: Any) -> None:
    """A test job: its effect (an outbox DM) commits with its done-mark."""
    from bot.messages.post import Post

    pause = float(job.payload.get("sleep", 0))
    if pause:
        await asyncio.sleep(pause)
    uow.outbox.to_user(int(job.payload["user_id"]), Post(content=f"probe {job.payload['n']}"))
    await uow.commit()


def install_bot_hooks(clock_offset: float, probe_jobs: bool) -> None:
    import bot.client
    from bot.db.models import utcnow

    base = bot.client.ClubBot
    offset = timedelta(seconds=clock_offset)

    class ReliabilityBot(base):  # type: ignore[misc, valid-type]
        def __init__(self, settings: Any, **kwargs: Any) -> None:
            if offset:
                kwargs.setdefault("clock", lambda: utcnow() + offset)
            super().__init__(settings, **kwargs)
            self._connection.guild_ready_timeout = 0.1
            if probe_jobs:
                self.scheduler.register(PROBE_KIND, probe_job)

    bot.client.ClubBot = ReliabilityBot  # type: ignore[misc]


def main() -> int:
    points = json.loads(os.environ.get("RELIABILITY_CRASH") or "[]")
    if points:
        install_crash_points(points)
    install_bot_hooks(
        float(os.environ.get("RELIABILITY_CLOCK_OFFSET") or 0),
        bool(os.environ.get("RELIABILITY_PROBE_JOBS")),
    )
    from bot.__main__ import main as bot_main

    return bot_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
