"""The weekly round (``/boggle schedule``): a weekday and a wall-clock time in
the club's time zone. A job an hour before each occurrence makes that week's
round (``scheduled``, announced with a heads-up) and moves itself to the next
week; the round's own open job rolls the grid on time.

A round that could not open within ``MISSED_AFTER`` (the bot was offline) is
skipped, not stacked; a rerun of the weekly job makes no second round.
"""

from __future__ import annotations

import logging
from datetime import datetime

from bot.db.models import JobRecord
from bot.db.models_boggle import BoggleRoundRecord, BoggleScheduleRecord
from bot.db.uow import UnitOfWork
from bot.messages import boggle as msg
from bot.messages.boggle import rounds as say
from bot.services.boggle.core import ANNOUNCE_LEAD, MISSED_AFTER, BoggleCore
from bot.services.boggle.jobs import JOB_OPEN, JOB_WEEKLY, open_key, weekly_key
from bot.services.boggle.options import (
    check_weekday,
    club_zone,
    entry_seconds,
    next_weekly_occurrence,
    parse_clock_time,
    resolve_options,
)
from bot.services.boggle.snapshots import RoundInfo, ScheduleInfo

log = logging.getLogger(__name__)


class WeeklySchedule:
    """The guild's weekly round: setting it, and the job that makes each week's round."""

    def __init__(self, core: BoggleCore) -> None:
        self.core = core

    async def schedule_weekly(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        created_by: int,
        weekday: int,
        at: str,
        size: int | None = None,
        duration: str | None = None,
        min_length: int | None = None,
        dice: str | None = None,
        where: str | None = None,
        entry_time: str | None = None,
    ) -> ScheduleInfo:
        """Set (or replace) the guild's weekly round at ``weekday`` and ``at`` in the club's
        time zone. ``where: room``: its rounds are played in the room, as ``/boggle start
        where: room`` plays one, each with ``entry_time`` to type the lists (default 2m)."""
        check_weekday(weekday)
        options = resolve_options(size, duration, min_length, dice)
        entry_s = entry_seconds(where, entry_time)
        wall = parse_clock_time(at)
        now = self.core.now()
        async with self.core.ctx.uow() as uow:
            guild = await uow.guilds.ensure(guild_id, guild_name)
            tz = club_zone(guild.timezone)
            schedule = await uow.boggle.schedule_of(guild_id)
            replaced = schedule is not None and schedule.active
            if schedule is None:
                schedule = BoggleScheduleRecord(guild_id=guild_id, created_at=now)
            next_at = next_weekly_occurrence(now, weekday, wall, tz)
            schedule.channel_id = channel_id
            schedule.weekday = weekday
            schedule.local_time = wall.strftime("%H:%M")
            schedule.size, schedule.dice = options.size, options.dice
            schedule.duration_s, schedule.min_length = options.duration_s, options.min_length
            schedule.entry_s = entry_s
            schedule.active = True
            schedule.next_at = next_at
            schedule.created_by = created_by
            schedule.updated_at = now
            await uow.boggle.add_schedule(schedule)
            await self._set_timer(uow, schedule, next_at)
            info = ScheduleInfo(
                guild_id,
                channel_id,
                weekday,
                schedule.local_time,
                tz.key,
                next_at,
                options,
                replaced,
                entry_s,
            )
            await uow.commit()
        return info

    async def on_weekly_round(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Create this week's round (announced ahead) and set the timer for next week's."""
        schedule = await uow.boggle.lock_schedule(int(job.payload["schedule_id"]))
        if schedule is None or not schedule.active or schedule.next_at is None:
            return
        now = self.core.now()
        occurrence = schedule.next_at
        guild = await uow.guilds.ensure(schedule.guild_id)
        await self.create_scheduled_round(uow, schedule, occurrence, now)
        following = next_weekly_occurrence(
            max(now, occurrence),
            schedule.weekday,
            parse_clock_time(schedule.local_time),
            club_zone(guild.timezone),
        )
        schedule.next_at = following
        schedule.updated_at = now
        await self._set_timer(uow, schedule, following)  # this very job, moved to next week
        self.core.after_commit(uow)
        await uow.commit()

    async def _set_timer(
        self, uow: UnitOfWork, schedule: BoggleScheduleRecord, occurrence: datetime
    ) -> None:
        await uow.jobs.schedule(
            JOB_WEEKLY,
            occurrence - ANNOUNCE_LEAD,
            {"schedule_id": schedule.id},
            key=weekly_key(schedule.id),
        )

    async def create_scheduled_round(
        self, uow: UnitOfWork, schedule: BoggleScheduleRecord, occurrence: datetime, now: datetime
    ) -> None:
        """This week's round, announced; none when it exists already (a rerun of the
        job), when its time is long past, or when another round is still going."""
        if await uow.boggle.has_occurrence(schedule.id, occurrence):
            return
        if now > occurrence + MISSED_AFTER:
            log.info(
                "skipped the weekly Boggle round of guild %s due %s: the bot was offline",
                schedule.guild_id,
                occurrence,
            )
            return
        busy = await uow.boggle.latest_round(schedule.guild_id)
        if busy is not None:
            uow.outbox.to_channel(
                schedule.channel_id,
                say.weekly_round_skipped(busy.number, busy.status == "open", busy.channel_id),
            )
            return
        record = await uow.boggle.add_round(
            BoggleRoundRecord(
                guild_id=schedule.guild_id,
                number=await uow.boggle.next_round_number(schedule.guild_id),
                channel_id=schedule.channel_id,
                schedule_id=schedule.id,
                occurrence=occurrence,
                status="scheduled",
                size=schedule.size,
                dice=schedule.dice,
                min_length=schedule.min_length,
                duration_s=schedule.duration_s,
                entry_s=schedule.entry_s or 0,
                seed=self.core.seeds(),
                lexicon=self.core.ctx.settings.lexicon,
                opens_at=occurrence,
                results={},
                version=1,
                created_at=now,
            )
        )
        await uow.jobs.schedule(
            JOB_OPEN, occurrence, {"round_id": record.id}, key=open_key(record.id)
        )
        uow.outbox.to_channel(record.channel_id, msg.heads_up(RoundInfo.of(record)))
        self.core.warm_after_commit(uow, record.lexicon)
