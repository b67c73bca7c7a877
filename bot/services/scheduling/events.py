"""The server's scheduled events (issue #30): a club session, a tournament round and a
league season shown in Discord's Events list, kept in step with them.

The game's own transaction says what the event should be (``place_event``: its name,
place, start and end; ``remove_event``: gone) by writing the ``guild_events`` row and
a sync job; the job tells Discord after the commit, through ``EventsPort`` (the
Discord side: ``bot.ui.schedule``), outside any transaction. A Discord failure fails
the job, which the scheduler retries, so nothing is lost; a server where the bot may
not manage events is skipped with a log line. Each change moves the row's version on;
the job records the version it told Discord, and runs again if more changed meanwhile.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.db.models import JobRecord
from bot.db.models_schedule import GuildEventRecord
from bot.db.uow import UnitOfWork
from bot.scheduler import JobSpec
from bot.services import ServiceContext

log = logging.getLogger(__name__)

JOB_SYNC = "schedule.sync_event"
MIN_LENGTH = timedelta(minutes=5)
SESSION, TOURNAMENT_ROUND, LEAGUE_SEASON = "session", "tournament_round", "league_season"


def sync_key(event_id: int) -> str:
    """The job key of an event's sync (one per event: a change moves it to now)."""
    return f"schedule:event:{event_id}"


@dataclass(frozen=True)
class WantedEvent:
    """What Discord's event should be, as the sync job tells the port."""

    guild_id: int
    discord_id: int | None  # Discord's id, once made
    name: str
    channel_id: int | None  # shown as the channel's name, when ``location`` is empty
    location: str
    starts_at: datetime
    ends_at: datetime
    remove: bool
    now: datetime


class EventsPort(Protocol):
    """The Discord side of the server's events (``bot.ui.schedule.DiscordEvents``)."""

    async def sync(self, wanted: WantedEvent) -> int | None:
        """Make Discord's event what ``wanted`` says; its id after (None once removed, or
        the id it had when the bot may not manage the server's events). Raises on
        Discord's own trouble, so the job is tried again."""
        ...


async def place_event(
    uow: UnitOfWork,
    *,
    guild_id: int,
    owner_kind: str,
    owner_id: int,
    name: str,
    starts_at: datetime,
    ends_at: datetime,
    now: datetime,
    channel_id: int | None = None,
    location: str = "",
) -> None:
    """In the caller's transaction: the event of (``owner_kind``, ``owner_id``) should be
    scheduled so; the sync job tells Discord after the commit. Nothing when unchanged."""
    ends_at = max(ends_at, starts_at + MIN_LENGTH)
    row = await uow.schedule.event_of(owner_kind, owner_id)
    fields: dict[str, Any] = {
        "name": name[:100],
        "channel_id": channel_id,
        "location": location[:100],
        "starts_at": starts_at,
        "ends_at": ends_at,
        "status": "scheduled",
    }
    if row is None:
        row = await uow.schedule.add_event(
            GuildEventRecord(
                guild_id=guild_id,
                owner_kind=owner_kind,
                owner_id=owner_id,
                version=1,
                synced_version=0,
                updated_at=now,
                **fields,
            )
        )
    else:
        if all(getattr(row, k) == v for k, v in fields.items()):
            return
        for key, value in fields.items():
            setattr(row, key, value)
        row.version += 1
        row.updated_at = now
    await _sync_soon(uow, row, now)


async def remove_event(uow: UnitOfWork, owner_kind: str, owner_id: int, now: datetime) -> None:
    """In the caller's transaction: the event of (``owner_kind``, ``owner_id``) is over or
    cancelled; the sync job deletes Discord's. Nothing when there is none."""
    row = await uow.schedule.event_of(owner_kind, owner_id)
    if row is None or row.status == "removed":
        return
    row.status = "removed"
    row.version += 1
    row.updated_at = now
    await _sync_soon(uow, row, now)


async def _sync_soon(uow: UnitOfWork, row: GuildEventRecord, now: datetime) -> None:
    await uow.jobs.schedule(
        JOB_SYNC, now, {"event_id": row.id, "guild_id": row.guild_id}, key=sync_key(row.id)
    )


class GuildEvents:
    """The sync job of the server's scheduled events; ``port`` is set by the cog."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.port: EventsPort | None = None

    def job_handlers(self) -> Mapping[str, JobSpec]:
        """The sync job, whose Discord call is its prepare step."""
        return {JOB_SYNC: JobSpec(self.on_sync_event, prepare=self.prepare_sync_event)}

    async def prepare_sync_event(self, payload: dict[str, Any]) -> tuple[int, int | None] | None:
        """Tell Discord, before the job's transaction: (the version told, Discord's id)."""
        async with self.ctx.reader() as uow:
            row = await uow.schedule.event(int(payload["event_id"]))
            if row is None or row.synced_version == row.version:
                return None
            wanted = WantedEvent(
                guild_id=row.guild_id,
                discord_id=row.discord_id,
                name=row.name,
                channel_id=row.channel_id,
                location=row.location,
                starts_at=row.starts_at,
                ends_at=row.ends_at,
                remove=row.status == "removed",
                now=self.ctx.clock(),
            )
            version = row.version
        if self.port is None:
            log.info("no Discord port for server events: event %s left as it is", payload)
            return version, wanted.discord_id
        return version, await self.port.sync(wanted)

    async def on_sync_event(
        self, uow: UnitOfWork, job: JobRecord, prepared: tuple[int, int | None] | None
    ) -> None:
        """Record what Discord was told; again at once if the event changed meanwhile."""
        if prepared is None:
            return
        version, discord_id = prepared
        row = await uow.schedule.event(int(job.payload["event_id"]))
        if row is None:
            return
        row.discord_id = discord_id
        row.synced_version = max(row.synced_version, version)
        if row.version != row.synced_version:
            await _sync_soon(uow, row, self.ctx.clock())
