"""What every Boggle use case shares: the context (units of work, clock,
settings), the seed of a new round's dice, opening a round (rolling the grid,
posting it, setting the close timer), cancelling one, the after-commit hooks
of job transactions, and warming the word list in the background.

Concurrency: submissions read the round ``FOR SHARE`` and the close job
updates it, so on PostgreSQL closing waits for in-flight submissions; SQLite
serialises writers anyway (``BEGIN IMMEDIATE``), and this process queues its
own submissions on one lock (``writing``) rather than in SQLite's busy handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Coroutine
from datetime import datetime, timedelta

from bot.compute.boggle import warm_boggle
from bot.context import ServiceContext
from bot.db.models_boggle import BoggleRoundRecord
from bot.db.uow import UnitOfWork
from bot.messages import boggle as msg
from bot.offload import offload
from bot.services.boggle import seasons
from bot.services.boggle.jobs import JOB_CLOSE, JOB_ENTRY, close_key, entry_key
from bot.services.boggle.snapshots import RoundInfo
from bot.services.words import word_list_ref
from engines.boggle import roll

log = logging.getLogger(__name__)

# A DM sent before the end may reach the bot a moment later (gateway latency,
# a resume): lists stay open this long past the countdown, judged by the
# message's own time.
CLOSE_GRACE = timedelta(seconds=5)
ANNOUNCE_LEAD = timedelta(hours=1)  # a scheduled round is announced this long before it opens
MISSED_AFTER = timedelta(hours=1)  # a scheduled opening later than this (bot offline) is skipped
LATE_NOTE_WINDOW = timedelta(minutes=30)  # late DMs this soon after a round get a "too late" note


def new_seed() -> int:
    """A fresh seed for a round's dice (stored, so the grid can be rebuilt)."""
    return secrets.randbits(62)


def package_seed() -> int:
    """``bot.services.boggle.new_seed()``, looked up when called: a test or a
    benchmark that sets it there gets a known grid from every round."""
    from bot.services import boggle

    return boggle.new_seed()


class BoggleCore:
    """What every Boggle use case shares: the context, the seeds, opening and cancelling a round,
    the after-commit hooks and warming the word list."""

    def __init__(self, ctx: ServiceContext, seeds: Callable[[], int] = package_seed) -> None:
        self.ctx = ctx
        self.seeds = seeds
        self._background: set[asyncio.Task[None]] = set()
        self._write_lock = asyncio.Lock() if ctx.settings.is_sqlite else None

    def now(self) -> datetime:
        """Now, by the context's clock."""
        return self.ctx.clock()

    def writing(self) -> contextlib.AbstractAsyncContextManager[None]:
        """SQLite has one writer: queue this process's submissions here rather than
        in SQLite's busy handler, whose sleeps would stall a burst of DMs."""
        if self._write_lock is None:
            return contextlib.nullcontext()
        return self._write_lock

    def after_commit(self, uow: UnitOfWork) -> None:
        """Send the outbox and wake the scheduler as soon as this unit of work commits."""
        # Job handlers get the scheduler's own unit of work, without the
        # context's hooks: send the outbox and re-check timers right away.
        uow.on_commit(self.ctx.outbox_notify)
        uow.on_commit(self.ctx.scheduler.wake)

    # -- a round's life

    async def open_round(self, uow: UnitOfWork, record: BoggleRoundRecord, now: datetime) -> None:
        """Roll the grid, start the countdown, post the grid and set the close timer."""
        record.grid = str(roll(record.dice, record.seed))
        record.status = "open"
        record.opens_at = now
        # In the room, the lists close once the time to type them after the countdown is up.
        record.ends_at = now + timedelta(seconds=record.duration_s + record.entry_s)
        record.version += 1
        await uow.boggle.flush()
        if record.entry_s:
            await uow.jobs.schedule(
                JOB_ENTRY,
                now + timedelta(seconds=record.duration_s),
                {"round_id": record.id},
                key=entry_key(record.id),
            )
        await uow.jobs.schedule(
            JOB_CLOSE,
            record.ends_at + CLOSE_GRACE,
            {"round_id": record.id},
            key=close_key(record.id),
        )
        guild = await uow.guilds.get(record.guild_id)
        if guild is not None:
            await seasons.ensure_season(uow, guild, now)
        uow.outbox.to_channel(record.channel_id, msg.announcement(RoundInfo.of(record)))
        self.after_commit(uow)
        self.warm_after_commit(uow, record.lexicon)

    def cancel_record(self, record: BoggleRoundRecord, reason: str) -> None:
        """Mark the round cancelled now, for ``reason``; its jobs are the caller's to cancel."""
        record.status = "cancelled"
        record.cancel_reason = reason
        record.closed_at = self.now()
        record.version += 1

    # -- the word list, ready before a round ends

    async def warm_lexicon(self, name: str | None = None) -> None:
        """Load the word list, the solver's index and the words' levels (which of the best
        words nobody found a member knows) now, so closing a round is quick."""
        try:
            words = await word_list_ref(self.ctx, name)
            # In a worker (which keeps them for the round's close), or here in a thread.
            await offload(warm_boggle, words)
        except Exception:  # warming is an optimisation: the score job loads it anyway
            log.warning("could not warm the word list %r", name, exc_info=True)

    def warm_in_background(self, name: str | None = None) -> None:
        """Warm the word list (``warm_lexicon``) without waiting for it."""
        self._spawn(self.warm_lexicon(name))

    def warm_after_commit(self, uow: UnitOfWork, name: str) -> None:
        """Warm the round's word list in the background once this unit of work commits."""
        uow.on_commit(lambda: self.warm_in_background(name))

    async def wait_background(self) -> None:
        """Let background work (word-list warming) finish, e.g. before shutting down a test."""
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        try:
            task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:
            work.close()
            return
        self._background.add(task)
        task.add_done_callback(self._background.discard)
