"""What every Henyo use case shares: the per-channel locks, the versioned
update, loading an event into its view, and telling listeners a round has ended.

A use case's work runs in ``bot.services.transactions.transact``, so an attempt
that lost a race (another writer bumped the version; two processes stored the
same message; SQLite was busy) starts again from a clean read.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from bot.db.models_henyo import HenyoEventRecord, HenyoRoundRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import henyo as messages
from bot.messages.post import Post
from bot.services import ServiceContext
from bot.services.henyo.pairs import event_pairs, member
from bot.services.henyo.snapshots import ClosedRound, EventSnapshot
from bot.services.transactions import LostRace
from engines.henyo import CATEGORIES

log = logging.getLogger(__name__)
T = TypeVar("T")

KIND = "henyo"
JOB_KIND = "henyo.round_end"
ATTEMPTS = 6

OPEN_ROUND = ("ready", "waiting", "running")
FINISHED_ROUND = ("guessed", "timed_out", "disqualified")


class StaleVersion(LostRace):
    """Someone else changed a Henyo row first: the whole unit of work is redone
    (``bot.services.transactions.transact``)."""

    def __init__(self) -> None:
        super().__init__(messages.TOO_BUSY)


def job_key(round_id: int) -> str:
    """A round's job key: one job, its start watchdog and then its end (``begin`` moves it)."""
    return f"henyo:round:{round_id}:end"


def require_host(event: HenyoEventRecord, user_id: int, is_moderator: bool, what: str) -> None:
    """Refuse anyone but the event's host or a moderator (``what``: what they tried to do)."""
    if user_id != event.host_id and not is_moderator:
        raise PermissionDeniedError(messages.host_only(event.host_id, what))


class HenyoCore:
    """The plumbing every Henyo use case shares: the context, the RNG, the channel locks and the
    listeners told when a round ends."""

    def __init__(self, ctx: ServiceContext, rng: random.Random | None = None) -> None:
        self.ctx = ctx
        self.rng = rng or random.Random()
        self.round_closed_listeners: list[Callable[[ClosedRound], None]] = []
        self._locks: dict[int, asyncio.Lock] = {}

    # ------------------------------------------------------------------ races and locks

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The lock that runs one channel's starts, rulings and disqualifications one at a time."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def lock_for_round(self, round_id: int) -> asyncio.Lock:
        """The lock for a round's reply buttons."""
        # Buttons know the round, not the channel; a separate lock still keeps
        # two presses of one round in order.
        return self.lock(-round_id)

    async def bump(
        self, uow: UnitOfWork, row: HenyoEventRecord | HenyoRoundRecord, **changes: object
    ) -> None:
        """Compare-and-set on ``row.version``: apply ``changes`` or raise ``StaleVersion``."""
        if not await uow.henyo.bump(row, **changes):
            raise StaleVersion()

    def notify_closed(self, closed: ClosedRound) -> None:
        """Tell the listeners a round has ended (after its commit); a listener that fails is
        logged, never raised."""
        self._locks.pop(-closed.round_id, None)
        for listener in list(self.round_closed_listeners):
            try:
                listener(closed)
            except Exception:  # a listener must not undo a committed round
                log.exception("henyo round-closed listener failed")

    # ------------------------------------------------------------------ loading

    async def names(self, uow: UnitOfWork, ids: Sequence[int]) -> dict[int, str]:
        """The club's display names of these members, by id."""
        return await uow.players.names(list(set(ids)))

    async def round(self, uow: UnitOfWork, round_id: int) -> HenyoRoundRecord:
        """The round by id; ``NotFoundError`` when there is none."""
        rnd = await uow.henyo.round(round_id)
        if rnd is None:
            raise NotFoundError(messages.no_round(round_id))
        return rnd

    async def event_for_members(
        self, uow: UnitOfWork, guild_id: int, channel_id: int
    ) -> HenyoEventRecord:
        """The open event of this channel, or the guild's only open event."""
        event = await uow.henyo.open_event_in_channel(channel_id)
        if event is not None:
            return event
        events = await uow.henyo.open_events_in_guild(guild_id)
        if not events:
            raise InvalidInputError(messages.NO_OPEN_EVENT)
        if len(events) > 1:
            raise InvalidInputError(messages.several_open_events([e.channel_id for e in events]))
        return events[0]

    async def event_view(self, uow: UnitOfWork, event: HenyoEventRecord) -> EventSnapshot:
        """The event as members see it: its settings, its host and its pairs (withdrawn pairs
        left out)."""
        pairs = await event_pairs(uow, event)
        names = await self.names(uow, [event.host_id, *pairs.members])
        shown = [pairs.view(t, names) for t in pairs.teams if pairs.statuses[t.id] != "withdrawn"]
        return EventSnapshot(
            event.id,
            event.guild_id,
            event.channel_id,
            member(names, event.host_id),
            event.status,
            event.pairs,
            event.time_limit_ms,
            event.penalty_ms,
            tuple(event.categories or CATEGORIES),
            event.language,
            event.list_message_id,
            shown,
            event.strict,
        )

    # ------------------------------------------------------------------ posting

    def post(self, uow: UnitOfWork, channel_id: int, *lines: str) -> None:
        """Announce in a channel after the commit (an outbox row in this transaction)."""
        uow.outbox.to_channel(channel_id, Post(content="\n".join(lines)))
