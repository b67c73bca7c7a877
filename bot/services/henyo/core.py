"""What every Henyo use case shares: retrying a lost race, the per-channel
locks, the versioned update, loading an event into its view, and telling
listeners a round has ended.

A use case opens its own unit of work inside ``retrying``, so an attempt that
lost a race (another writer bumped the version; two processes stored the same
message; SQLite was busy) starts again from a clean read.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from bot.db.models_henyo import HenyoEventRecord, HenyoRoundRecord, HenyoTeamRecord
from bot.db.uow import UnitOfWork, is_duplicate_row, is_sqlite_locked
from bot.errors import ConflictError, InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import henyo as messages
from bot.messages.post import Post
from bot.services import ServiceContext
from bot.services.henyo.views import ClosedRound, EventView, Member, TeamView
from engines.henyo import CATEGORIES

log = logging.getLogger(__name__)
T = TypeVar("T")

KIND = "henyo"
JOB_KIND = "henyo.round_end"
ATTEMPTS = 6

ACTIVE_TEAM = ("registered", "disqualified")
OPEN_ROUND = ("ready", "running")
FINISHED_ROUND = ("guessed", "timed_out", "disqualified")


class StaleVersion(Exception):
    """Someone else changed the row first: redo the whole unit of work."""


def job_key(round_id: int) -> str:
    return f"henyo:round:{round_id}:end"


def slot_statuses(event: HenyoEventRecord, teams: Sequence[HenyoTeamRecord]) -> dict[int, str]:
    """Playing, waiting, withdrawn or disqualified, for every team of the event.

    The first ``pairs`` teams that have not withdrawn (in registration order)
    play; a disqualified team keeps its slot, a withdrawn one frees it.
    """
    statuses: dict[int, str] = {}
    active = [t for t in teams if t.status in ACTIVE_TEAM]
    for index, team in enumerate(active):
        if team.status == "disqualified":
            statuses[team.id] = "disqualified"
        else:
            statuses[team.id] = "playing" if index < event.pairs else "waiting"
    for team in teams:
        statuses.setdefault(team.id, "withdrawn")
    return statuses


def slot_numbers(event: HenyoEventRecord, teams: Sequence[HenyoTeamRecord]) -> dict[int, int]:
    """Each pair's number as members read it: its place in the playing list
    (disqualified pairs keep theirs) or on the waiting list, counted without the
    gaps withdrawn pairs leave; 0 for a withdrawn pair."""
    statuses = slot_statuses(event, teams)
    numbers: dict[int, int] = {}
    playing = waiting = 0
    for team in teams:
        if statuses[team.id] == "waiting":
            waiting += 1
            numbers[team.id] = waiting
        elif statuses[team.id] in ("playing", "disqualified"):
            playing += 1
            numbers[team.id] = playing
        else:
            numbers[team.id] = 0
    return numbers


def require_host(event: HenyoEventRecord, user_id: int, is_moderator: bool, what: str) -> None:
    if user_id != event.host_id and not is_moderator:
        raise PermissionDeniedError(messages.host_only(event.host_id, what))


def member(names: dict[int, str], user_id: int) -> Member:
    return Member(user_id, names.get(user_id, str(user_id)))


def team_view(
    team: HenyoTeamRecord, status: str, names: dict[int, str], number: int = 0
) -> TeamView:
    return TeamView(
        team.id,
        team.position,
        member(names, team.guesser_id),
        member(names, team.answerer_id),
        status,
        number,
    )


def registered_team_of(teams: Sequence[HenyoTeamRecord], user_id: int) -> HenyoTeamRecord | None:
    """The still-registered pair ``user_id`` plays in (not a withdrawn or disqualified one)."""
    return next(
        (t for t in teams if t.status == "registered" and user_id in (t.guesser_id, t.answerer_id)),
        None,
    )


def team_members(teams: Sequence[HenyoTeamRecord]) -> list[int]:
    return [t.guesser_id for t in teams] + [t.answerer_id for t in teams]


class HenyoCore:
    def __init__(self, ctx: ServiceContext, rng: random.Random | None = None) -> None:
        self.ctx = ctx
        self.rng = rng or random.Random()
        self.round_closed_listeners: list[Callable[[ClosedRound], None]] = []
        self._locks: dict[int, asyncio.Lock] = {}

    # ------------------------------------------------------------------ races and locks

    async def retrying(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` (which opens its own unit of work) again on a lost race."""
        for attempt in range(ATTEMPTS):
            try:
                return await work()
            except StaleVersion:
                pass
            except Exception as exc:
                lost_race = is_duplicate_row(exc) or is_sqlite_locked(exc)
                if not lost_race or attempt == ATTEMPTS - 1:
                    raise
            await asyncio.sleep(0.01 * (2**attempt))
        raise ConflictError(messages.TOO_BUSY)

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def lock_for_round(self, round_id: int) -> asyncio.Lock:
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
        self._locks.pop(-closed.round_id, None)
        for listener in list(self.round_closed_listeners):
            try:
                listener(closed)
            except Exception:  # a listener must not undo a committed round
                log.exception("henyo round-closed listener failed")

    # ------------------------------------------------------------------ loading

    async def names(self, uow: UnitOfWork, ids: Sequence[int]) -> dict[int, str]:
        return await uow.players.names(list(set(ids)))

    async def round(self, uow: UnitOfWork, round_id: int) -> HenyoRoundRecord:
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

    async def event_view(self, uow: UnitOfWork, event: HenyoEventRecord) -> EventView:
        teams = await uow.henyo.teams(event.id)
        statuses = slot_statuses(event, teams)
        numbers = slot_numbers(event, teams)
        names = await self.names(uow, [event.host_id, *team_members(teams)])
        shown = [
            team_view(t, statuses[t.id], names, numbers[t.id])
            for t in teams
            if statuses[t.id] != "withdrawn"
        ]
        return EventView(
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
        )

    # ------------------------------------------------------------------ posting

    def post(self, uow: UnitOfWork, channel_id: int, *lines: str) -> None:
        """Announce in a channel after the commit (an outbox row in this transaction)."""
        uow.outbox.to_channel(channel_id, Post(content="\n".join(lines)))
