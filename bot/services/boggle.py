"""Word Boggle rounds: start, weekly schedules, DM'd and form submissions,
closing, scoring, results and seasons.

A round's life (each arrow one committed transaction):

* ``scheduled`` — a weekly schedule created it ahead of time (an announcement
  goes out ``ANNOUNCE_LEAD`` before it opens); ``/boggle start`` skips this.
* ``open`` — the grid is rolled from the stored seed and posted (through the
  outbox) with a countdown; the close job is set for ``ends_at`` plus a short
  grace, so a DM *sent* before the end but *delivered* just after still counts.
* ``closed`` — the close job froze the lists: from now on nothing is added.
* ``scored`` — the score job judged every list with the engine, recorded points
  for the leaderboard and the season, and posted the results.

Submissions carry Discord's own time (the DM's snowflake), never the time the
bot happened to see them: a DM counts when it was sent before ``ends_at`` and
reached the bot while the round was still open. Each DM is stored for every
open round in a guild the member belongs to (one open round per guild at most),
so a member of two clubs playing at once plays in both with one list.

Concurrency: submissions read the round ``FOR SHARE`` and the close job updates
it, so on PostgreSQL closing waits for in-flight submissions; SQLite serialises
writers anyway (``BEGIN IMMEDIATE``). A message id seen twice (a gateway replay,
the catch-up after a restart) is stored once.

Nothing here imports discord: the methods return plain results, and the
messages that timer jobs post are built here as outbox payloads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Collection, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time, timedelta
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import Select, case, func, select
from sqlalchemy.exc import IntegrityError

from bot.db.models import GuildRecord, JobRecord, PlayerRecord, RatingRecord, ResultRecord
from bot.db.models_boggle import BoggleRoundRecord, BoggleScheduleRecord, BoggleSubmissionRecord
from bot.db.uow import UnitOfWork
from bot.errors import ConflictError, InvalidInputError, NotFoundError
from bot.scheduler import cancel_job, schedule_job
from bot.services import ServiceContext
from bot.services.results import record_points
from bot.services.words import get_lexicon
from engines.boggle import (
    DEFAULT_MIN_LENGTH,
    BoggleError,
    Grid,
    RoundResult,
    WordStatus,
    dice_for_side,
    dice_set,
    display_blocklist,
    player_words,
    roll,
    score_round,
    solver_index,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

KIND = "boggle"
JOB_OPEN = "boggle.open"
JOB_CLOSE = "boggle.close"
JOB_SCORE = "boggle.score"
JOB_WEEKLY = "boggle.weekly"
JOB_SEASON = "boggle.season"
JOB_KINDS = (JOB_OPEN, JOB_CLOSE, JOB_SCORE, JOB_WEEKLY, JOB_SEASON)
# Names the cog registers with the outbox: the grid image, a text file, the round's buttons.
GRID_RENDERER = "boggle_grid"
TEXT_RENDERER = "boggle_text"
ROUND_VIEW = "boggle_round"

SIZES = (4, 5, 6)
DEFAULT_SIZE = 4
DEFAULT_DURATION_S = 180
MIN_DURATION_S, MAX_DURATION_S = 10, 60 * 60
MIN_LENGTHS = (3, 4, 5, 6)
DEFAULT_SEASON_TARGET = 100
MIN_SEASON_TARGET, MAX_SEASON_TARGET = 5, 100_000
SEASON_RESETS = ("none", "month", "quarter", "year")

# A DM sent before the end may reach the bot a moment later (gateway latency,
# a resume): lists stay open this long past the countdown, judged by the
# message's own time.
CLOSE_GRACE = timedelta(seconds=5)
ANNOUNCE_LEAD = timedelta(hours=1)  # a scheduled round is announced this long before it opens
MISSED_AFTER = timedelta(hours=1)  # a scheduled opening later than this (bot offline) is skipped
LATE_NOTE_WINDOW = timedelta(minutes=30)  # late DMs this soon after a round get a "too late" note
# After a restart, the DMs of at most this many likely first-time players per
# guild are read back (each costs a call to Discord); see catch_up_targets.
CATCH_UP_PER_GUILD = 200
MAX_WORDS_PER_LIST = 500
MAX_MESSAGES_PER_LIST = 300
RESULTS_FIELDS = 25  # Discord's limit of fields per embed
RESULTS_EMBED_CHARS = (
    5500  # under Discord's 6,000 per message, leaving room for the title and footer
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

STATUS_LABELS = {
    WordStatus.SCORED.value: "Scored",
    WordStatus.CANCELLED.value: "Cancelled (on another list too)",
    WordStatus.NOT_ON_GRID.value: "Not on the grid",
    WordStatus.NOT_A_WORD.value: "Not a word",
    WordStatus.TOO_SHORT.value: "Too short",
}
STATUS_ORDER = tuple(STATUS_LABELS)

_DURATION_PART = re.compile(r"(\d+)(hours?|h|minutes?|mins?|m|seconds?|secs?|s)?", re.IGNORECASE)
_CLOCK_TIME = re.compile(r"^(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$", re.IGNORECASE)
_MARKDOWN = re.compile(r"([\\*_~`|>\[\]])")


def new_seed() -> int:
    """A fresh seed for a round's dice (stored, so the grid can be rebuilt)."""
    return secrets.randbits(62)


# -- options ---------------------------------------------------------------------


@dataclass(frozen=True)
class RoundOptions:
    size: int = DEFAULT_SIZE
    dice: str = "classic16"
    duration_s: int = DEFAULT_DURATION_S
    min_length: int = DEFAULT_MIN_LENGTH


def parse_duration(text: str) -> int:
    """Seconds in "90s", "3m", "2m30s", "1h" or a bare number of minutes ("3")."""
    cleaned = text.strip().lower().replace(" ", "")
    if not cleaned:
        raise InvalidInputError("Give a duration like `3m`, `90s` or `2m30s`.")
    if cleaned.isdigit():
        return int(cleaned) * 60
    total, position = 0, 0
    for match in _DURATION_PART.finditer(cleaned):
        if match.start() != position or match.group(2) is None:
            break
        unit = match.group(2)[0]
        total += int(match.group(1)) * {"h": 3600, "m": 60, "s": 1}[unit]
        position = match.end()
    if position != len(cleaned) or total == 0:
        raise InvalidInputError(
            f"I couldn't read `{text[:20]}` as a duration: try `3m`, `90s` or `2m30s`."
        )
    return total


def resolve_options(
    size: int | None = None,
    duration: str | None = None,
    min_length: int | None = None,
    dice: str | None = None,
) -> RoundOptions:
    """Check a round's options (a bad one is a clear error and changes nothing)."""
    try:
        if dice:
            chosen = dice_set(dice.strip().lower())
            if size is not None and size != chosen.side:
                raise InvalidInputError(
                    f"The {chosen.name} dice make a {chosen.side}x{chosen.side} grid, not {size}x{size}: "
                    "leave out the size or pick other dice."
                )
        else:
            if size is not None and size not in SIZES:
                raise InvalidInputError("Boggle grids are 4x4, 5x5 or 6x6.")
            chosen = dice_for_side(size or DEFAULT_SIZE)
    except BoggleError as exc:
        raise InvalidInputError(str(exc)) from None
    seconds = DEFAULT_DURATION_S if duration is None else parse_duration(duration)
    if not MIN_DURATION_S <= seconds <= MAX_DURATION_S:
        raise InvalidInputError("A round lasts from 10 seconds to 60 minutes (e.g. `3m`).")
    length = DEFAULT_MIN_LENGTH if min_length is None else min_length
    if length not in MIN_LENGTHS:
        raise InvalidInputError("The minimum word length is 3, 4, 5 or 6 letters.")
    return RoundOptions(size=chosen.side, dice=chosen.name, duration_s=seconds, min_length=length)


def parse_clock_time(text: str) -> time:
    """A wall-clock time: "19:00", "7pm", "7:30 pm", "07.30"."""
    match = _CLOCK_TIME.match(text.strip())
    if match is None:
        raise InvalidInputError(f"I couldn't read `{text[:20]}` as a time: use `19:00` or `7pm`.")
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    meridiem = (match.group(3) or "").replace(".", "").lower()
    if meridiem:
        if not 1 <= hour <= 12:
            raise InvalidInputError("With am/pm the hour is 1 to 12 (e.g. `7pm`).")
        hour = hour % 12 + (12 if meridiem == "pm" else 0)
    if hour > 23 or minute > 59:
        raise InvalidInputError("A time is 00:00 to 23:59.")
    return time(hour, minute)


def next_weekly_occurrence(after: datetime, weekday: int, at: time, tz: ZoneInfo) -> datetime:
    """The first ``weekday`` at wall-clock ``at`` in ``tz`` strictly after ``after`` (UTC).

    Each occurrence is computed from the local date, so a weekly 19:00 stays
    19:00 across daylight-saving changes. A wall time that does not exist that
    day (skipped by a spring-forward) resolves with the offset in force before
    the change, i.e. it runs an hour later on the wall clock, once.
    """
    local = after.astimezone(tz)
    day = local.date() + timedelta(days=(weekday - local.weekday()) % 7)
    while True:
        candidate = datetime.combine(day, at, tzinfo=tz).astimezone(UTC)
        if candidate > after:
            return candidate
        day += timedelta(days=7)


def next_season_boundary(after: datetime, every: str, tz: ZoneInfo) -> datetime | None:
    """Midnight (club time) starting the next month, quarter or year after ``after``."""
    if every == "none":
        return None
    local = after.astimezone(tz)
    year, month = local.year, local.month
    if every == "month":
        month += 1
    elif every == "quarter":
        month = (month - 1) // 3 * 3 + 4
    elif every == "year":
        year, month = year + 1, 1
    else:
        raise InvalidInputError("A season resets every `month`, `quarter`, `year` or `none`.")
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return datetime(year, month, 1, tzinfo=tz).astimezone(UTC)


def club_zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


# -- what the service returns ----------------------------------------------------------


@dataclass(frozen=True)
class RoundInfo:
    id: int
    guild_id: int
    number: int
    channel_id: int
    status: str
    size: int
    dice: str
    min_length: int
    duration_s: int
    opens_at: datetime
    ends_at: datetime | None
    grid: str | None

    @property
    def rows(self) -> tuple[tuple[str, ...], ...]:
        """Faces as printed ("Qu", "A"), row by row; empty until the round opens."""
        return Grid.parse(self.grid).rows if self.grid else ()

    @classmethod
    def of(cls, record: BoggleRoundRecord) -> RoundInfo:
        return cls(
            record.id,
            record.guild_id,
            record.number,
            record.channel_id,
            record.status,
            record.size,
            record.dice,
            record.min_length,
            record.duration_s,
            record.opens_at,
            record.ends_at,
            record.grid,
        )


@dataclass(frozen=True)
class ScheduleInfo:
    guild_id: int
    channel_id: int
    weekday: int
    local_time: str
    timezone: str
    next_at: datetime
    options: RoundOptions
    replaced: bool


@dataclass(frozen=True)
class SubmissionReceipt:
    round_id: int
    round_number: int
    guild_id: int
    guild_name: str
    channel_id: int
    ends_at: datetime
    new_words: int  # words not on the list before this message
    total_words: int  # distinct words on the list now
    repeated: bool = False  # this very message was stored before (a replay)
    full: bool = False  # the list hit its cap; some words were not added


@dataclass(frozen=True)
class LateNote:
    round_number: int
    guild_name: str
    channel_id: int
    ended_at: datetime


@dataclass(frozen=True)
class DmOutcome:
    receipts: list[SubmissionReceipt] = field(default_factory=list)
    late: list[LateNote] = field(default_factory=list)

    @property
    def no_round(self) -> bool:
        return not self.receipts and not self.late


@dataclass(frozen=True)
class CancelOutcome:
    what: str  # "round" | "schedule"
    round_number: int | None = None
    round_status: str | None = None  # what the round was when cancelled: "open" | "scheduled"
    channel_id: int | None = None
    schedule_next_at: datetime | None = None  # the schedule still runs: its next round
    schedule_remains: bool = False
    also_cancelled_round: int | None = None  # a scheduled round stopped with its schedule


@dataclass(frozen=True)
class Standing:
    player_id: int
    name: str
    points: float
    rounds: int
    wins: int


@dataclass(frozen=True)
class SeasonEnd:
    number: int
    winners: list[tuple[int, str]]
    points: float
    reason: str  # "target" | "moderator" | "schedule"
    next_number: int


@dataclass(frozen=True)
class SeasonInfo:
    number: int
    started_at: datetime
    target: int
    every: str
    next_reset_at: datetime | None
    standings: list[Standing] = field(default_factory=list)
    ended: SeasonEnd | None = None
    previous: dict[str, Any] | None = None


@dataclass(frozen=True)
class ResultsView:
    last: dict[str, Any] | None  # the last scored round's stored summary
    running: RoundInfo | None
    season: SeasonInfo


@dataclass(frozen=True)
class CatchUpTarget:
    """A player whose DMs are read back after a restart, and from where.

    ``after_message_id``: the last DM stored for an open round (the player has
    a list). ``since``: no list yet, so whatever they sent after the round
    opened (for a member of two guilds playing, the earlier opening).
    """

    user_id: int
    after_message_id: int | None = None
    since: datetime | None = None

    @property
    def start(self) -> int | datetime:
        """Where to read from: after this message id, or after this moment."""
        if self.after_message_id is not None:
            return self.after_message_id
        assert self.since is not None
        return self.since


# -- the service ---------------------------------------------------------------


class BoggleService:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self._background: set[asyncio.Task[None]] = set()
        self._write_lock = asyncio.Lock() if ctx.settings.is_sqlite else None

    # ---------------------------------------------------------------- starting

    async def start_round(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        started_by: int,
        size: int | None = None,
        duration: str | None = None,
        min_length: int | None = None,
        dice: str | None = None,
    ) -> RoundInfo:
        """Open a round now: the grid and its countdown go to ``channel_id``."""
        options = resolve_options(size, duration, min_length, dice)
        lexicon_name = self.ctx.settings.lexicon
        await get_lexicon(self.ctx, lexicon_name)  # a broken word list fails here, not at the end
        now = self.ctx.clock()
        try:
            async with self.ctx.uow() as uow:
                await uow.guilds.ensure(guild_id, guild_name)
                running = await self._live_round(uow, guild_id, ("open",))
                if running is not None:
                    raise ConflictError(
                        f"Round #{running.number} is still running in <#{running.channel_id}>: "
                        f"it ends <t:{_unix(running.ends_at)}:R>."
                    )
                record = BoggleRoundRecord(
                    guild_id=guild_id,
                    number=await self._next_number(uow, guild_id),
                    channel_id=channel_id,
                    status="scheduled",
                    size=options.size,
                    dice=options.dice,
                    min_length=options.min_length,
                    duration_s=options.duration_s,
                    seed=new_seed(),
                    lexicon=lexicon_name,
                    opens_at=now,
                    started_by=started_by,
                    results={},
                    version=1,
                    created_at=now,
                )
                uow.session.add(record)
                await uow.session.flush()
                await self._open(uow, record, now)
                info = RoundInfo.of(record)
                await uow.commit()
        except IntegrityError:
            raise ConflictError(
                "Another round was started at the same moment: look at the channel."
            ) from None
        return info

    async def _open(self, uow: UnitOfWork, record: BoggleRoundRecord, now: datetime) -> None:
        grid = roll(record.dice, record.seed)
        record.grid = str(grid)
        record.status = "open"
        record.opens_at = now
        record.ends_at = now + timedelta(seconds=record.duration_s)
        record.version += 1
        await uow.session.flush()
        await schedule_job(
            uow.session,
            JOB_CLOSE,
            record.ends_at + CLOSE_GRACE,
            {"round_id": record.id},
            key=_close_key(record.id),
        )
        guild = await uow.guilds.get(record.guild_id)
        if guild is not None:
            await self._ensure_season(uow, guild, now)
        uow.outbox.to_channel(record.channel_id, announcement_payload(RoundInfo.of(record)))
        self._after_commit(uow)
        lexicon = record.lexicon
        uow.on_commit(lambda: self.warm_in_background(lexicon))

    async def warm_lexicon(self, name: str | None = None) -> None:
        """Load the word list and the solver's index now, so closing a round is quick."""
        try:
            lexicon = await get_lexicon(self.ctx, name)
            await asyncio.to_thread(solver_index, lexicon)
        except Exception:  # warming is an optimisation: the score job loads it anyway
            log.warning("could not warm the word list %r", name, exc_info=True)

    def warm_in_background(self, name: str | None = None) -> None:
        self._spawn(self.warm_lexicon(name))

    async def wait_background(self) -> None:
        """Let background work (word-list warming) finish, e.g. before shutting down a test."""
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        try:
            task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:
            work.close()
            return
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _next_number(self, uow: UnitOfWork, guild_id: int) -> int:
        latest = (
            await uow.session.execute(
                select(func.max(BoggleRoundRecord.number)).where(
                    BoggleRoundRecord.guild_id == guild_id
                )
            )
        ).scalar_one_or_none()
        return (latest or 0) + 1

    async def _live_round(
        self, uow: UnitOfWork, guild_id: int, statuses: Sequence[str] = ("open", "scheduled")
    ) -> BoggleRoundRecord | None:
        stmt = (
            select(BoggleRoundRecord)
            .where(
                BoggleRoundRecord.guild_id == guild_id, BoggleRoundRecord.status.in_(list(statuses))
            )
            .order_by(BoggleRoundRecord.opens_at.desc(), BoggleRoundRecord.id.desc())
            .limit(1)
        )
        return (await uow.session.execute(stmt)).scalar_one_or_none()

    def _after_commit(self, uow: UnitOfWork) -> None:
        # Job handlers get the scheduler's own unit of work, without the
        # context's hooks: send the outbox and re-check timers right away.
        uow.on_commit(self.ctx.outbox_notify)
        uow.on_commit(self.ctx.scheduler.wake)

    # ---------------------------------------------------------------- weekly schedule

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
    ) -> ScheduleInfo:
        """Set (or replace) the guild's weekly round at ``weekday`` and ``at`` in the club's time zone."""
        if weekday not in range(7):
            raise InvalidInputError("Pick a day of the week.")
        options = resolve_options(size, duration, min_length, dice)
        wall = parse_clock_time(at)
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            guild = await uow.guilds.ensure(guild_id, guild_name)
            tz = club_zone(guild.timezone)
            schedule = (
                await uow.session.execute(
                    select(BoggleScheduleRecord).where(BoggleScheduleRecord.guild_id == guild_id)
                )
            ).scalar_one_or_none()
            replaced = schedule is not None and schedule.active
            if schedule is None:
                schedule = BoggleScheduleRecord(guild_id=guild_id, created_at=now)
                uow.session.add(schedule)
            next_at = next_weekly_occurrence(now, weekday, wall, tz)
            schedule.channel_id = channel_id
            schedule.weekday = weekday
            schedule.local_time = wall.strftime("%H:%M")
            schedule.size, schedule.dice = options.size, options.dice
            schedule.duration_s, schedule.min_length = options.duration_s, options.min_length
            schedule.active = True
            schedule.next_at = next_at
            schedule.created_by = created_by
            schedule.updated_at = now
            await uow.session.flush()
            await schedule_job(
                uow.session,
                JOB_WEEKLY,
                next_at - ANNOUNCE_LEAD,
                {"schedule_id": schedule.id},
                key=_weekly_key(schedule.id),
            )
            info = ScheduleInfo(
                guild_id,
                channel_id,
                weekday,
                schedule.local_time,
                tz.key,
                next_at,
                options,
                replaced,
            )
            await uow.commit()
        return info

    async def run_weekly_job(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Create this week's round (announced ahead) and set the timer for next week's."""
        schedule = await uow.session.get(
            BoggleScheduleRecord, int(job.payload["schedule_id"]), with_for_update=True
        )
        if schedule is None or not schedule.active or schedule.next_at is None:
            return
        now = self.ctx.clock()
        occurrence = schedule.next_at
        guild = await uow.guilds.ensure(schedule.guild_id)
        tz = club_zone(guild.timezone)
        await self._create_scheduled_round(uow, schedule, occurrence, now)
        following = next_weekly_occurrence(
            max(now, occurrence), schedule.weekday, parse_clock_time(schedule.local_time), tz
        )
        schedule.next_at = following
        schedule.updated_at = now
        # The same key moves this very job to next week's announcement time.
        await schedule_job(
            uow.session,
            JOB_WEEKLY,
            following - ANNOUNCE_LEAD,
            {"schedule_id": schedule.id},
            key=_weekly_key(schedule.id),
        )
        self._after_commit(uow)
        await uow.commit()

    async def _create_scheduled_round(
        self, uow: UnitOfWork, schedule: BoggleScheduleRecord, occurrence: datetime, now: datetime
    ) -> None:
        exists = (
            await uow.session.execute(
                select(BoggleRoundRecord.id).where(
                    BoggleRoundRecord.schedule_id == schedule.id,
                    BoggleRoundRecord.occurrence == occurrence,
                )
            )
        ).first()
        if exists is not None:
            return  # this week's round was made already (a rerun of the job)
        if now > occurrence + MISSED_AFTER:
            log.info(
                "skipped the weekly Boggle round of guild %s due %s: the bot was offline",
                schedule.guild_id,
                occurrence,
            )
            return
        busy = await self._live_round(uow, schedule.guild_id)
        if busy is not None:
            uow.outbox.to_channel(
                schedule.channel_id,
                {
                    "content": f"This week's scheduled Word Boggle round is skipped: round #{busy.number} "
                    f"is still {'running' if busy.status == 'open' else 'coming up'} in <#{busy.channel_id}>."
                },
            )
            return
        record = BoggleRoundRecord(
            guild_id=schedule.guild_id,
            number=await self._next_number(uow, schedule.guild_id),
            channel_id=schedule.channel_id,
            schedule_id=schedule.id,
            occurrence=occurrence,
            status="scheduled",
            size=schedule.size,
            dice=schedule.dice,
            min_length=schedule.min_length,
            duration_s=schedule.duration_s,
            seed=new_seed(),
            lexicon=self.ctx.settings.lexicon,
            opens_at=occurrence,
            results={},
            version=1,
            created_at=now,
        )
        uow.session.add(record)
        await uow.session.flush()
        await schedule_job(
            uow.session, JOB_OPEN, occurrence, {"round_id": record.id}, key=_open_key(record.id)
        )
        uow.outbox.to_channel(record.channel_id, heads_up_payload(RoundInfo.of(record)))
        lexicon = record.lexicon
        uow.on_commit(lambda: self.warm_in_background(lexicon))

    async def run_open_job(self, uow: UnitOfWork, job: JobRecord) -> None:
        """A scheduled round's time has come: roll and post the grid."""
        record = await self._lock_round(uow, int(job.payload["round_id"]))
        if record is None or record.status != "scheduled":
            return
        now = self.ctx.clock()
        if now > record.opens_at + MISSED_AFTER:
            self._cancel_record(record, "missed")
            uow.outbox.to_channel(
                record.channel_id,
                {
                    "content": f"Word Boggle round #{record.number} could not open on time "
                    f"(planned for <t:{_unix(record.opens_at)}:f>), so it is skipped."
                },
            )
        else:
            busy = await self._live_round(uow, record.guild_id, ("open",))
            if busy is not None and busy.id != record.id:
                self._cancel_record(record, "busy")
                uow.outbox.to_channel(
                    record.channel_id,
                    {
                        "content": f"Scheduled round #{record.number} is skipped: round #{busy.number} is still running."
                    },
                )
            else:
                await self._open(uow, record, now)
        self._after_commit(uow)
        await uow.commit()

    # ---------------------------------------------------------------- cancelling

    async def cancel(self, *, guild_id: int, what: str | None = None) -> CancelOutcome:
        """Cancel the running (or next scheduled) round, or stop the weekly schedule.

        Without ``what``: the round when there is one, else the schedule.
        """
        if what not in (None, "round", "schedule"):
            raise InvalidInputError("Cancel the `round` or the weekly `schedule`.")
        async with self.ctx.uow() as uow:
            live = await self._live_round(uow, guild_id)
            schedule = (
                await uow.session.execute(
                    select(BoggleScheduleRecord)
                    .where(
                        BoggleScheduleRecord.guild_id == guild_id,
                        BoggleScheduleRecord.active.is_(True),
                    )
                    .with_for_update()
                )
            ).scalar_one_or_none()
            target = what or (
                "round" if live is not None else "schedule" if schedule is not None else None
            )
            if target is None:
                raise NotFoundError(
                    "There is no Boggle round running or scheduled, and no weekly schedule."
                )
            if target == "round":
                outcome = await self._cancel_round(uow, live, schedule)
            else:
                outcome = await self._cancel_schedule(uow, schedule)
            self._after_commit(uow)
            await uow.commit()
        return outcome

    async def _cancel_round(
        self, uow: UnitOfWork, live: BoggleRoundRecord | None, schedule: BoggleScheduleRecord | None
    ) -> CancelOutcome:
        if live is None:
            raise NotFoundError("No Boggle round is running or scheduled right now.")
        record = await self._lock_round(uow, live.id)
        assert record is not None
        was = record.status
        if was not in ("open", "scheduled"):
            raise ConflictError("That round has just ended: its results are on the way.")
        self._cancel_record(record, "moderator")
        await cancel_job(uow.session, _open_key(record.id))
        await cancel_job(uow.session, _close_key(record.id))
        uow.outbox.to_channel(
            record.channel_id,
            {
                "content": f"Word Boggle round #{record.number} was cancelled by a moderator"
                + (": its lists will not be scored." if was == "open" else ".")
            },
        )
        return CancelOutcome(
            "round",
            record.number,
            was,
            record.channel_id,
            schedule_next_at=schedule.next_at if schedule is not None else None,
            schedule_remains=schedule is not None,
        )

    async def _cancel_schedule(
        self, uow: UnitOfWork, schedule: BoggleScheduleRecord | None
    ) -> CancelOutcome:
        if schedule is None:
            raise NotFoundError("There is no weekly Boggle schedule to cancel.")
        schedule.active = False
        schedule.next_at = None
        schedule.updated_at = self.ctx.clock()
        await cancel_job(uow.session, _weekly_key(schedule.id))
        # A round already announced by this schedule (not yet open) goes with it;
        # a round in progress plays on.
        pending = (
            (
                await uow.session.execute(
                    select(BoggleRoundRecord).where(
                        BoggleRoundRecord.schedule_id == schedule.id,
                        BoggleRoundRecord.status == "scheduled",
                    )
                )
            )
            .scalars()
            .all()
        )
        for record in pending:
            self._cancel_record(record, "moderator")
            await cancel_job(uow.session, _open_key(record.id))
            uow.outbox.to_channel(
                record.channel_id,
                {
                    "content": f"The weekly Word Boggle schedule was stopped, so round #{record.number} will not open."
                },
            )
        return CancelOutcome(
            "schedule",
            channel_id=schedule.channel_id,
            also_cancelled_round=pending[0].number if pending else None,
        )

    def _cancel_record(self, record: BoggleRoundRecord, reason: str) -> None:
        record.status = "cancelled"
        record.cancel_reason = reason
        record.closed_at = self.ctx.clock()
        record.version += 1

    # ---------------------------------------------------------------- submissions

    async def submit_dm(
        self,
        *,
        user_id: int,
        display_name: str,
        message_id: int,
        sent_at: datetime,
        text: str,
        guild_ids: Collection[int] | None = None,
    ) -> DmOutcome:
        """Add a DM'd list to every open round in ``guild_ids`` (the member's guilds).

        ``sent_at`` is the message's own (snowflake) time: it counts when it is
        before the round's end, even if it reached the bot after.
        """
        return await _retry_on_integrity(
            lambda: self._submit_dm(user_id, display_name, message_id, sent_at, text, guild_ids)
        )

    async def _submit_dm(
        self,
        user_id: int,
        display_name: str,
        message_id: int,
        sent_at: datetime,
        text: str,
        guild_ids: Collection[int] | None,
    ) -> DmOutcome:
        if guild_ids is not None and not guild_ids:
            return DmOutcome()
        async with self._writing(), self.ctx.uow() as uow:
            stmt = _rounds_with_guild_names().where(BoggleRoundRecord.status == "open")
            if guild_ids is not None:
                stmt = stmt.where(BoggleRoundRecord.guild_id.in_(list(guild_ids)))
            rounds = (await uow.session.execute(stmt.order_by(BoggleRoundRecord.id))).all()
            receipts: list[SubmissionReceipt] = []
            late: list[LateNote] = []
            for record, guild_name in rounds:
                if record.ends_at is not None and sent_at < record.ends_at:
                    receipts.append(
                        await self._add_entry(
                            uow,
                            record,
                            guild_name,
                            user_id,
                            display_name,
                            message_id,
                            sent_at,
                            "dm",
                            text,
                        )
                    )
                else:
                    late.append(_late_note(record, guild_name))
            if not rounds:
                late = await self._recently_ended(uow, guild_ids, sent_at)
            await uow.commit()
        return DmOutcome(receipts, late)

    def _writing(self) -> contextlib.AbstractAsyncContextManager[None]:
        """SQLite has one writer: queue this process's submissions here rather than
        in SQLite's busy handler, whose sleeps would stall a burst of DMs."""
        if self._write_lock is None:
            return contextlib.nullcontext()
        return self._write_lock

    async def submit_form(
        self, *, round_id: int, user_id: int, display_name: str, source_id: int, text: str
    ) -> SubmissionReceipt:
        """Add words sent through the Submit words form.

        A form reaches the bot live (an interaction not answered in 3 s fails),
        so the bot's clock is its time.
        """
        if not text.strip():
            raise InvalidInputError(
                "The form was empty: write your words separated by spaces, commas or new lines."
            )
        return await _retry_on_integrity(
            lambda: self._submit_form(round_id, user_id, display_name, source_id, text)
        )

    async def _submit_form(
        self, round_id: int, user_id: int, display_name: str, source_id: int, text: str
    ) -> SubmissionReceipt:
        now = self.ctx.clock()
        async with self._writing(), self.ctx.uow() as uow:
            row = (
                await uow.session.execute(
                    _rounds_with_guild_names().where(BoggleRoundRecord.id == round_id)
                )
            ).first()
            _require_open(row[0] if row else None, now)
            assert row is not None
            record, guild_name = row
            receipt = await self._add_entry(
                uow, record, guild_name, user_id, display_name, source_id, now, "form", text
            )
            await uow.commit()
        return receipt

    async def _add_entry(
        self,
        uow: UnitOfWork,
        record: BoggleRoundRecord,
        guild_name: str,
        player_id: int,
        display_name: str,
        source_id: int,
        at: datetime,
        via: str,
        text: str,
    ) -> SubmissionReceipt:
        submission = (
            await uow.session.execute(
                select(BoggleSubmissionRecord)
                .where(
                    BoggleSubmissionRecord.round_id == record.id,
                    BoggleSubmissionRecord.player_id == player_id,
                )
                .with_for_update()
            )
        ).scalar_one_or_none()
        assert record.ends_at is not None  # the callers checked the round is open
        # The round's part of every receipt; the counts are filled in below.
        receipt = SubmissionReceipt(
            round_id=record.id,
            round_number=record.number,
            guild_id=record.guild_id,
            guild_name=guild_name,
            channel_id=record.channel_id,
            ends_at=record.ends_at,
            new_words=0,
            total_words=0,
        )
        if submission is None:
            await uow.players.ensure(player_id, display_name)
            submission = BoggleSubmissionRecord(
                round_id=record.id,
                player_id=player_id,
                entries=[],
                words=[],
                first_at=at,
                last_at=at,
                last_source_id=source_id,
            )
            uow.session.add(submission)
        elif any(entry["id"] == str(source_id) for entry in submission.entries):
            return replace(receipt, total_words=len(submission.words), repeated=True)
        if len(submission.entries) >= MAX_MESSAGES_PER_LIST:
            return replace(receipt, total_words=len(submission.words), full=True)
        known = list(submission.words)
        seen = set(known)
        fresh = [word for word in player_words(text) if word not in seen]
        room = max(0, MAX_WORDS_PER_LIST - len(known))
        added = fresh[:room]
        # New list objects: the JSON columns are saved when reassigned, not when mutated.
        submission.entries = [
            *submission.entries,
            {"id": str(source_id), "at": at.isoformat(), "via": via, "text": text},
        ]
        submission.words = known + added
        submission.last_at = max(submission.last_at, at)
        submission.first_at = min(submission.first_at, at)
        submission.last_source_id = max(submission.last_source_id, source_id)
        await uow.session.flush()
        return replace(
            receipt,
            new_words=len(added),
            total_words=len(submission.words),
            full=len(added) < len(fresh),
        )

    async def _recently_ended(
        self, uow: UnitOfWork, guild_ids: Collection[int] | None, sent_at: datetime
    ) -> list[LateNote]:
        # Also rounds that ended *after* the message was sent: it was on time
        # but reached the bot once the lists were frozen.
        stmt = (
            select(BoggleRoundRecord, GuildRecord.name)
            .join(GuildRecord, GuildRecord.id == BoggleRoundRecord.guild_id)
            .where(
                BoggleRoundRecord.status.in_(("closed", "scored")),
                BoggleRoundRecord.ends_at > sent_at - LATE_NOTE_WINDOW,
            )
        )
        if guild_ids is not None:
            stmt = stmt.where(BoggleRoundRecord.guild_id.in_(list(guild_ids)))
        rows = (await uow.session.execute(stmt.order_by(BoggleRoundRecord.id))).all()
        return [_late_note(record, name) for record, name in rows]

    async def round_for_form(
        self, *, round_id: int | None = None, guild_id: int | None = None
    ) -> RoundInfo:
        """The open round a form would add to (by id, or the guild's), or a clear error."""
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            if round_id is not None:
                record = await uow.session.get(BoggleRoundRecord, round_id)
            else:
                assert guild_id is not None
                record = await self._live_round(uow, guild_id, ("open",))
                if record is None:
                    upcoming = await self._live_round(uow, guild_id, ("scheduled",))
                    if upcoming is not None:
                        raise NotFoundError(
                            f"Round #{upcoming.number} opens <t:{_unix(upcoming.opens_at)}:R>: send your words then."
                        )
                    raise NotFoundError("No Boggle round is open right now.")
            _require_open(record, now)
            assert record is not None
            return RoundInfo.of(record)

    async def open_rounds(self) -> list[RoundInfo]:
        async with self.ctx.uow() as uow:
            stmt = (
                select(BoggleRoundRecord)
                .where(BoggleRoundRecord.status == "open")
                .order_by(BoggleRoundRecord.id)
            )
            return [RoundInfo.of(r) for r in (await uow.session.execute(stmt)).scalars()]

    async def guilds_taking_dms(self, sent_at: datetime) -> list[int]:
        """Guilds a DM sent at ``sent_at`` may concern: an open round, or one that
        ended lately (a late list gets a note). One indexed query."""
        async with self.ctx.uow() as uow:
            rows = (
                await uow.session.execute(
                    select(BoggleRoundRecord.guild_id)
                    .where(
                        (BoggleRoundRecord.status == "open")
                        | (
                            BoggleRoundRecord.status.in_(("closed", "scored"))
                            & (BoggleRoundRecord.ends_at > sent_at - LATE_NOTE_WINDOW)
                        )
                    )
                    .distinct()
                    .order_by(BoggleRoundRecord.guild_id)
                )
            ).scalars()
            return [int(guild_id) for guild_id in rows]

    async def catch_up_targets(
        self,
        members: Mapping[int, Sequence[int]] | None = None,
        per_guild: int = CATCH_UP_PER_GUILD,
    ) -> list[CatchUpTarget]:
        """Whose DMs to read back after a restart, and from where.

        Discord does not replay DMs sent while the bot was away, so they are
        read from each DM channel. First every player of an open round, after
        their last stored DM. Then, per guild with an open round, the players
        likely to send a *first* list, read from the round's opening, at most
        ``per_guild`` of them, in this order: who played Boggle there before
        (latest first), who has any result there (latest first), and the
        guild's ``members`` as the caller knows them, but only when there are
        at most ``per_guild`` (a club; in a large server the known players are
        the likely ones, and reading every member's DMs would cost too much).
        """
        members = members or {}
        async with self.ctx.uow() as uow:
            rounds = (
                await uow.session.execute(
                    select(BoggleRoundRecord.guild_id, BoggleRoundRecord.opens_at)
                    .where(BoggleRoundRecord.status == "open")
                    .order_by(BoggleRoundRecord.opens_at, BoggleRoundRecord.id)
                )
            ).all()
            if not rounds:
                return []
            opened: dict[int, datetime] = {}  # each guild's earliest open round
            for guild_id, opens_at in rounds:
                opened.setdefault(int(guild_id), opens_at)
            listed = (
                await uow.session.execute(
                    select(
                        BoggleSubmissionRecord.player_id,
                        func.max(BoggleSubmissionRecord.last_source_id),
                    )
                    .join(
                        BoggleRoundRecord, BoggleRoundRecord.id == BoggleSubmissionRecord.round_id
                    )
                    .where(BoggleRoundRecord.status == "open")
                    .group_by(BoggleSubmissionRecord.player_id)
                    .order_by(BoggleSubmissionRecord.player_id)
                )
            ).all()
            targets = [
                CatchUpTarget(int(player), after_message_id=int(last)) for player, last in listed
            ]
            seen = {target.user_id for target in targets}
            since: dict[
                int, datetime
            ] = {}  # a likely player -> the earliest opening of their guilds' rounds
            for guild_id, opens_at in opened.items():
                known = list(members.get(guild_id, ()))
                likely = [
                    *await self._past_boggle_players(uow, guild_id, per_guild),
                    *await self._players_with_results(uow, guild_id, per_guild),
                    *(known if len(known) <= per_guild else ()),
                ]
                chosen = 0
                for player in dict.fromkeys(likely):
                    if player in seen:
                        continue  # has a list: read after it, above
                    if chosen >= per_guild:
                        break
                    chosen += 1
                    since[player] = min(since.get(player, opens_at), opens_at)
        return targets + [CatchUpTarget(player, since=at) for player, at in since.items()]

    async def _past_boggle_players(self, uow: UnitOfWork, guild_id: int, limit: int) -> list[int]:
        latest = func.max(BoggleSubmissionRecord.last_at)
        rows = await uow.session.execute(
            select(BoggleSubmissionRecord.player_id)
            .join(BoggleRoundRecord, BoggleRoundRecord.id == BoggleSubmissionRecord.round_id)
            .where(BoggleRoundRecord.guild_id == guild_id)
            .group_by(BoggleSubmissionRecord.player_id)
            .order_by(latest.desc(), BoggleSubmissionRecord.player_id)
            .limit(limit)
        )
        return [int(player) for player in rows.scalars()]

    async def _players_with_results(self, uow: UnitOfWork, guild_id: int, limit: int) -> list[int]:
        latest = func.max(ResultRecord.played_at)
        rows = await uow.session.execute(
            select(ResultRecord.player_id)
            .where(ResultRecord.guild_id == guild_id)
            .group_by(ResultRecord.player_id)
            .order_by(latest.desc(), ResultRecord.player_id)
            .limit(limit)
        )
        return [int(player) for player in rows.scalars()]

    # ---------------------------------------------------------------- closing and scoring

    async def run_close_job(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Time is up: freeze the lists (nothing is added after this commits)."""
        record = await self._lock_round(uow, int(job.payload["round_id"]))
        if record is None or record.status != "open":
            return
        now = self.ctx.clock()
        record.status = "closed"
        record.closed_at = now
        record.version += 1
        await schedule_job(
            uow.session, JOB_SCORE, now, {"round_id": record.id}, key=_score_key(record.id)
        )
        self._after_commit(uow)
        await uow.commit()

    async def run_score_job(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Judge the frozen lists, record points and the season, post the results."""
        record = await self._lock_round(uow, int(job.payload["round_id"]))
        if record is None or record.status != "closed":
            return
        assert record.grid is not None and record.ends_at is not None
        now = self.ctx.clock()
        submissions = list(
            (
                await uow.session.execute(
                    select(BoggleSubmissionRecord)
                    .where(BoggleSubmissionRecord.round_id == record.id)
                    .order_by(BoggleSubmissionRecord.first_at, BoggleSubmissionRecord.id)
                )
            ).scalars()
        )
        lexicon = await get_lexicon(self.ctx, record.lexicon)
        grid = Grid.parse(record.grid)
        lists = {s.player_id: _timely_words(s, record.ends_at) for s in submissions}
        result = await asyncio.to_thread(score_round, grid, lists, lexicon, record.min_length)
        names = await uow.players.names(list(lists))
        guild = await uow.guilds.ensure(record.guild_id)
        season = await self._ensure_season(uow, guild, now)
        label = season_label(season)
        standings_in_session = await self._load_standings(
            uow, record.guild_id, list(result.players)
        )
        for player_id, player in result.players.items():
            await record_points(
                uow,
                guild_id=record.guild_id,
                kind=KIND,
                player_id=player_id,
                points=player.total,
                played_at=now,
                round_ref=f"boggle:{record.id}",
                outcome="win" if player_id in result.winners else "loss",
                season=label,
                extra={
                    "round": record.number,
                    "words": len(player.words),
                    "scored": len(player.with_status(WordStatus.SCORED)),
                },
            )
        await uow.session.flush()
        del standings_in_session
        summary = round_summary(RoundInfo.of(record), result, names, label)
        record.results = summary
        record.status = "scored"
        record.scored_at = now
        record.season = label
        record.version += 1
        standings = await self._standings(uow, record.guild_id, label)
        ended = None
        target = int(season.get("target", DEFAULT_SEASON_TARGET))
        if result.players and standings and standings[0].points >= target:
            ended = await self._end_season(uow, guild, now, reason="target", standings=standings)
        for payload in results_payloads(summary, standings, season, target):
            uow.outbox.to_channel(record.channel_id, payload)
        if ended is not None:
            uow.outbox.to_channel(record.channel_id, season_end_payload(ended, target))
        self._after_commit(uow)
        await uow.commit()

    async def _load_standings(
        self, uow: UnitOfWork, guild_id: int, player_ids: list[int]
    ) -> list[RatingRecord]:
        """Every player's standing in the session, new ones inserted in one batch.

        ``record_points`` looks each standing up by key: found in the session
        it costs nothing; missing, it would cost a query and a flush per player.
        The caller keeps the returned list while it records: the session's
        identity map holds objects weakly.
        """
        stmt = select(RatingRecord).where(
            RatingRecord.guild_id == guild_id,
            RatingRecord.game_kind == KIND,
            RatingRecord.player_id.in_(player_ids),
        )
        ratings = list((await uow.session.execute(stmt)).scalars())
        known = {rating.player_id for rating in ratings}
        for player_id in player_ids:
            if player_id not in known:
                rating = RatingRecord(guild_id=guild_id, game_kind=KIND, player_id=player_id)
                uow.session.add(rating)
                ratings.append(rating)
        await uow.session.flush()
        return ratings

    async def _lock_round(self, uow: UnitOfWork, round_id: int) -> BoggleRoundRecord | None:
        return (
            await uow.session.execute(
                select(BoggleRoundRecord).where(BoggleRoundRecord.id == round_id).with_for_update()
            )
        ).scalar_one_or_none()

    # ---------------------------------------------------------------- results and seasons

    async def results(self, guild_id: int) -> ResultsView:
        """The last scored round (as posted) and the season table."""
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            last = (
                await uow.session.execute(
                    select(BoggleRoundRecord)
                    .where(
                        BoggleRoundRecord.guild_id == guild_id, BoggleRoundRecord.status == "scored"
                    )
                    .order_by(BoggleRoundRecord.scored_at.desc(), BoggleRoundRecord.id.desc())
                    .limit(1)
                )
            ).scalar_one_or_none()
            running = await self._live_round(uow, guild_id)
            guild = await uow.guilds.get(guild_id)
            season = _season_state(guild) or _new_season(1, now)
            standings = await self._standings(uow, guild_id, season_label(season))
            return ResultsView(
                last.results if last is not None else None,
                RoundInfo.of(running) if running is not None else None,
                self._season_info(guild, season, standings),
            )

    async def configure_season(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int | None,
        target: int | None = None,
        every: str | None = None,
        reset: bool = False,
    ) -> SeasonInfo:
        """Change the season's target or reset rhythm, or end it now (announcing its winner)."""
        if target is not None and not MIN_SEASON_TARGET <= target <= MAX_SEASON_TARGET:
            raise InvalidInputError(
                f"A season target is {MIN_SEASON_TARGET} to {MAX_SEASON_TARGET:,} points."
            )
        if every is not None and every not in SEASON_RESETS:
            raise InvalidInputError("A season resets every `month`, `quarter`, `year` or `none`.")
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            guild = await uow.guilds.ensure(guild_id, guild_name)
            season = await self._ensure_season(uow, guild, now)
            if target is not None or every is not None:
                season = {**season}
                if target is not None:
                    season["target"] = target
                if every is not None:
                    season["every"] = every
                _write_season(guild, season)
                if every is not None:
                    await self._schedule_season_reset(uow, guild, season, now)
            ended = None
            if reset:
                ended = await self._end_season(uow, guild, now, reason="moderator")
                if ended is not None and channel_id is not None:
                    uow.outbox.to_channel(
                        channel_id,
                        season_end_payload(ended, int(season.get("target", DEFAULT_SEASON_TARGET))),
                    )
            season = _season_state(guild) or season
            standings = await self._standings(uow, guild_id, season_label(season))
            info = self._season_info(guild, season, standings, ended)
            self._after_commit(uow)
            await uow.commit()
        return info

    async def run_season_job(self, uow: UnitOfWork, job: JobRecord) -> None:
        """The season's scheduled end (a new month, quarter or year in the club's time zone)."""
        guild = await uow.guilds.get(int(job.payload["guild_id"]))
        if guild is None:
            return
        season = _season_state(guild)
        if season is None or season.get("every", "none") == "none":
            return
        now = self.ctx.clock()
        standings = await self._standings(uow, guild.id, season_label(season))
        ended = await self._end_season(uow, guild, now, reason="schedule", standings=standings)
        channel_id = await self._announcement_channel(uow, guild)
        if ended is not None and ended.winners and channel_id is not None:
            uow.outbox.to_channel(
                channel_id,
                season_end_payload(ended, int(season.get("target", DEFAULT_SEASON_TARGET))),
            )
        fresh = _season_state(guild)
        assert fresh is not None
        await self._schedule_season_reset(uow, guild, fresh, now)
        self._after_commit(uow)
        await uow.commit()

    async def _announcement_channel(self, uow: UnitOfWork, guild: GuildRecord) -> int | None:
        schedule_channel = (
            await uow.session.execute(
                select(BoggleScheduleRecord.channel_id).where(
                    BoggleScheduleRecord.guild_id == guild.id, BoggleScheduleRecord.active.is_(True)
                )
            )
        ).scalar_one_or_none()
        if schedule_channel is not None:
            return int(schedule_channel)
        last_channel = (
            await uow.session.execute(
                select(BoggleRoundRecord.channel_id)
                .where(BoggleRoundRecord.guild_id == guild.id)
                .order_by(BoggleRoundRecord.id.desc())
                .limit(1)
            )
        ).scalar_one_or_none()
        return int(last_channel) if last_channel is not None else guild.default_channel_id

    async def _schedule_season_reset(
        self, uow: UnitOfWork, guild: GuildRecord, season: dict[str, Any], now: datetime
    ) -> None:
        boundary = next_season_boundary(now, season.get("every", "none"), club_zone(guild.timezone))
        key = _season_key(guild.id)
        if boundary is None:
            await cancel_job(uow.session, key)
        else:
            await schedule_job(uow.session, JOB_SEASON, boundary, {"guild_id": guild.id}, key=key)

    async def _ensure_season(
        self, uow: UnitOfWork, guild: GuildRecord, now: datetime
    ) -> dict[str, Any]:
        season = _season_state(guild)
        if season is None:
            season = _new_season(1, now)
            _write_season(guild, season)
            await uow.session.flush()
        return season

    async def _end_season(
        self,
        uow: UnitOfWork,
        guild: GuildRecord,
        now: datetime,
        *,
        reason: str,
        standings: list[Standing] | None = None,
    ) -> SeasonEnd | None:
        season = _season_state(guild)
        if season is None:
            return None
        if standings is None:
            standings = await self._standings(uow, guild.id, season_label(season))
        top = standings[0].points if standings else 0
        winners = [(s.player_id, s.name) for s in standings if s.points == top and top > 0]
        number = int(season.get("number", 1))
        # The next season starts just after now: results recorded at ``now``
        # (the round that reached the target) stay in the season they won.
        fresh = _new_season(number + 1, now + timedelta(microseconds=1), season)
        fresh["previous"] = {
            "number": number,
            "winners": [[pid, name] for pid, name in winners],
            "points": top,
            "ended_at": now.isoformat(),
            "reason": reason,
        }
        _write_season(guild, fresh)
        await uow.session.flush()
        return SeasonEnd(number, winners, top, reason, number + 1)

    async def _standings(
        self, uow: UnitOfWork, guild_id: int, label: str, limit: int = 10
    ) -> list[Standing]:
        points = func.coalesce(func.sum(ResultRecord.points), 0)
        wins = func.sum(case((ResultRecord.outcome == "win", 1), else_=0))
        rows = (
            await uow.session.execute(
                select(
                    ResultRecord.player_id, PlayerRecord.display_name, points, func.count(), wins
                )
                .join(PlayerRecord, PlayerRecord.id == ResultRecord.player_id)
                .where(
                    ResultRecord.guild_id == guild_id,
                    ResultRecord.game_kind == KIND,
                    ResultRecord.season == label,
                )
                .group_by(ResultRecord.player_id, PlayerRecord.display_name)
                .order_by(points.desc(), wins.desc(), ResultRecord.player_id)
                .limit(limit)
            )
        ).all()
        return [
            Standing(int(pid), name, float(pts), int(n), int(w or 0))
            for pid, name, pts, n, w in rows
        ]

    def _season_info(
        self,
        guild: GuildRecord | None,
        season: dict[str, Any],
        standings: list[Standing],
        ended: SeasonEnd | None = None,
    ) -> SeasonInfo:
        every = season.get("every", "none")
        tz = club_zone(guild.timezone if guild else None)
        started = datetime.fromisoformat(season["started_at"])
        return SeasonInfo(
            number=int(season.get("number", 1)),
            started_at=started,
            target=int(season.get("target", DEFAULT_SEASON_TARGET)),
            every=every,
            next_reset_at=next_season_boundary(max(started, self.ctx.clock()), every, tz),
            standings=standings,
            ended=ended,
            previous=season.get("previous"),
        )


# -- helpers ---------------------------------------------------------------------


async def _retry_on_integrity(work: Callable[[], Awaitable[T]], attempts: int = 3) -> T:
    """Two first messages from one player at once both insert their row: retry the loser."""
    for attempt in range(attempts):
        try:
            return await work()
        except IntegrityError:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


def _rounds_with_guild_names() -> Select[BoggleRoundRecord, str]:
    """Rounds with their guild's name, read ``FOR SHARE`` on PostgreSQL: closing
    (an update of the round) waits for submissions in flight."""
    return (
        select(BoggleRoundRecord, GuildRecord.name)
        .join(GuildRecord, GuildRecord.id == BoggleRoundRecord.guild_id)
        .with_for_update(read=True, of=BoggleRoundRecord)
    )


def _late_note(record: BoggleRoundRecord, guild_name: str) -> LateNote:
    return LateNote(record.number, guild_name, record.channel_id, record.ends_at or record.opens_at)


def _require_open(record: BoggleRoundRecord | None, now: datetime) -> None:
    if record is None:
        raise NotFoundError("That Boggle round doesn't exist.")
    if record.status == "scheduled":
        raise NotFoundError(
            f"Round #{record.number} opens <t:{_unix(record.opens_at)}:R>: send your words then."
        )
    if record.status == "cancelled":
        raise NotFoundError(f"Round #{record.number} was cancelled.")
    if record.status != "open" or record.ends_at is None or now >= record.ends_at:
        raise NotFoundError(
            f"Round #{record.number} has ended, so words can't be added any more. The results are posted in <#{record.channel_id}>."
        )


def _timely_words(submission: BoggleSubmissionRecord, ends_at: datetime) -> list[str]:
    """The list as frozen: words from messages sent before the end, in the order first written."""
    if all(datetime.fromisoformat(entry["at"]) < ends_at for entry in submission.entries):
        return list(submission.words)
    texts = [
        entry["text"]
        for entry in submission.entries
        if datetime.fromisoformat(entry["at"]) < ends_at
    ]
    return player_words("\n".join(texts))[:MAX_WORDS_PER_LIST]


def _season_state(guild: GuildRecord | None) -> dict[str, Any] | None:
    if guild is None:
        return None
    raw = ((guild.settings or {}).get("seasons") or {}).get(KIND)
    if isinstance(raw, str):  # a bare start time, as the leaderboard also accepts
        return {"number": 1, "started_at": raw, "target": DEFAULT_SEASON_TARGET, "every": "none"}
    return dict(raw) if isinstance(raw, dict) and raw.get("started_at") else None


def _new_season(
    number: int, started_at: datetime, previous: dict[str, Any] | None = None
) -> dict[str, Any]:
    keep = previous or {}
    return {
        "number": number,
        "started_at": started_at.isoformat(),
        "target": int(keep.get("target", DEFAULT_SEASON_TARGET)),
        "every": keep.get("every", "none"),
    }


def _write_season(guild: GuildRecord, season: dict[str, Any]) -> None:
    # A new dict all the way down: JSON columns are saved on reassignment.
    settings = dict(guild.settings or {})
    seasons = dict(settings.get("seasons") or {})
    seasons[KIND] = dict(season)
    settings["seasons"] = seasons
    guild.settings = settings


def season_label(season: dict[str, Any]) -> str:
    return f"S{int(season.get('number', 1))}"


def _unix(moment: datetime | None) -> int:
    return int(moment.timestamp()) if moment is not None else 0


def _open_key(round_id: int) -> str:
    return f"boggle:open:{round_id}"


def _close_key(round_id: int) -> str:
    return f"boggle:close:{round_id}"


def _score_key(round_id: int) -> str:
    return f"boggle:score:{round_id}"


def _weekly_key(schedule_id: int) -> str:
    return f"boggle:weekly:{schedule_id}"


def _season_key(guild_id: int) -> str:
    return f"boggle:season:{guild_id}"


# -- messages (built here because timer jobs post them through the outbox) ----------------------


def escape(text: str) -> str:
    """A member's name as plain text: no markdown, no mention syntax."""
    return _MARKDOWN.sub(r"\\\1", text).replace("@", "@\u200b")[:64]


def letters_text(rows: Sequence[Sequence[str]]) -> str:
    """The grid in words for screen readers: "I T V A / T E V W / ..."."""
    return " / ".join(" ".join(face for face in row) for row in rows)


def format_duration(seconds: int) -> str:
    """ "3 min", "2 min 30 s", "45 s"."""
    minutes, rest = divmod(seconds, 60)
    if not minutes:
        return f"{rest} s"
    return f"{minutes} min" + (f" {rest} s" if rest else "")


def describe_options(info: RoundInfo) -> str:
    return f"{info.size}x{info.size} grid · {format_duration(info.duration_s)} · words of {info.min_length}+ letters"


def grid_file_spec(info: RoundInfo, title: str) -> dict[str, Any]:
    return {
        "render": GRID_RENDERER,
        "args": {"rows": [list(r) for r in info.rows], "title": title, "round": info.number},
    }


def announcement_payload(info: RoundInfo) -> dict[str, Any]:
    ends = _unix(info.ends_at)
    content = (
        f"🎲 **Word Boggle — round #{info.number}** · {describe_options(info)}\n"
        f"Ends <t:{ends}:R> (at <t:{ends}:T>).\n"
        f"Letters, row by row: **{letters_text(info.rows)}**\n"
        "**DM me your words** (spaces, commas or new lines; send as many messages as you like) "
        "or press **Submit words**. A word on two players' lists is crossed off both!"
    )
    return {
        "content": content,
        "files": [grid_file_spec(info, f"Round {info.number}")],
        "view": {"kind": ROUND_VIEW, "args": {"round_id": info.id}},
    }


def heads_up_payload(info: RoundInfo) -> dict[str, Any]:
    opens = _unix(info.opens_at)
    return {
        "content": (
            f"⏰ **Word Boggle round #{info.number}** starts <t:{opens}:R> (<t:{opens}:F>) here: "
            f"{describe_options(info)}. When the grid appears, DM me your words or press **Submit words**."
        )
    }


def round_summary(
    info: RoundInfo, result: RoundResult[int], names: dict[int, str], season: str
) -> dict[str, Any]:
    """The stored results of a round: what the results message and /boggle results show."""
    players = sorted(
        result.players.values(), key=lambda p: -p.total
    )  # stable: first to submit first on ties
    ranked, previous_total, rank = [], None, 0
    for position, player in enumerate(players, start=1):
        if player.total != previous_total:
            rank, previous_total = position, player.total
        ranked.append(
            {
                "id": player.player,
                "name": names.get(player.player, str(player.player)),
                "rank": rank,
                "total": player.total,
                "words": [[w.word, w.status.value, w.points] for w in player.words],
            }
        )
    return {
        "round_id": info.id,
        "number": info.number,
        "grid": info.grid,
        "size": info.size,
        "min_length": info.min_length,
        "ends_at": info.ends_at.isoformat() if info.ends_at else None,
        "season": season,
        "players": ranked,
        "winners": list(result.winners),
        "missed": [[m.word, m.points] for m in result.missed],
        "words_on_grid": result.words_on_grid,
        "points_on_grid": result.points_on_grid,
    }


def shown_missed(summary: dict[str, Any]) -> list[tuple[str, int]]:
    """The best words nobody found, as shown: never a word on the display blocklist.

    Scoring leaves those out already; this also cleans results stored before it did.
    """
    hidden = display_blocklist()
    return [(word, points) for word, points in summary.get("missed") or () if word not in hidden]


def _name_of(summary: dict[str, Any], player_id: int) -> str:
    return next(
        (escape(p["name"]) for p in summary["players"] if p["id"] == player_id), str(player_id)
    )


def _points(value: float) -> str:
    return f"{value:g} point{'' if value == 1 else 's'}"


def winner_line(summary: dict[str, Any]) -> str:
    winners = summary["winners"]
    if not summary["players"]:
        return "Nobody sent any words this round."
    if not winners:
        return "Nobody scored this round."
    top = summary["players"][0]["total"]
    names = " and ".join(f"**{_name_of(summary, w)}**" for w in winners)
    return f"🏆 {'Tie: ' if len(winners) > 1 else ''}{names} {'win' if len(winners) > 1 else 'wins'} with {_points(top)}."


def standings_text(standings: Sequence[Standing], limit: int = 10) -> str:
    shown = [
        f"{i}. {escape(s.name)} {s.points:g}" for i, s in enumerate(standings[:limit], start=1)
    ]
    return " · ".join(shown) if shown else "no points yet"


def player_lines(player: dict[str, Any]) -> list[str]:
    """One line per word status, e.g. "Scored: QUIT (1), TONE (1)"."""
    by_status: dict[str, list[str]] = {status: [] for status in STATUS_ORDER}
    for word, status, points in player["words"]:
        shown = word.upper() + (f" ({points})" if status == WordStatus.SCORED.value else "")
        by_status.setdefault(status, []).append(shown)
    lines = [f"{STATUS_LABELS[s]}: {', '.join(words)}" for s, words in by_status.items() if words]
    return lines or ["No words."]


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip(", ") + "…"


def results_content(
    summary: dict[str, Any], standings: Sequence[Standing], season: dict[str, Any], target: int
) -> str:
    lines = [
        f"📋 **Word Boggle — round #{summary['number']} results**",
        f"Letters, row by row: {letters_text(Grid.parse(summary['grid']).rows)}",
        winner_line(summary),
    ]
    if summary["players"]:
        ranking = " · ".join(
            f"{p['rank']}. {escape(p['name'])} {p['total']:g}" for p in summary["players"][:15]
        )
        more = len(summary["players"]) - 15
        lines.append("Round: " + ranking + (f" · …and {more} more" if more > 0 else ""))
    missed = shown_missed(summary)
    if missed:
        best = " · ".join(f"{w.upper()} ({p})" for w, p in missed)
        lines.append(f"Best words nobody found: {best}")
    lines.append(
        f"The grid held {summary['words_on_grid']} words worth {summary['points_on_grid']} points."
    )
    lines.append(
        f"Season {int(season.get('number', 1))} (first to {target}): {standings_text(standings)}"
    )
    return _clip("\n".join(lines), 2000)


def results_embed(summary: dict[str, Any]) -> dict[str, Any] | None:
    """Each player's words marked scored / cancelled / not on grid / not a word / too short."""
    if not summary["players"]:
        return None
    fields: list[dict[str, Any]] = []
    used, left_out = 0, 0
    for player in summary["players"]:
        name = _clip(
            f"{player['rank']}. {escape(player['name'])} — {_points(player['total'])}", 256
        )
        value = _clip("\n".join(player_lines(player)), 1024)
        if len(fields) >= RESULTS_FIELDS or used + len(name) + len(value) > RESULTS_EMBED_CHARS:
            left_out += 1
            continue
        fields.append({"name": name, "value": value, "inline": False})
        used += len(name) + len(value)
    embed: dict[str, Any] = {
        "title": f"Round #{summary['number']} — every list",
        "color": 0x1C3460,
        "fields": fields,
    }
    if left_out:
        embed["footer"] = {
            "text": f"{left_out} more player{'s' if left_out > 1 else ''}: every list is in the attached file."
        }
    return embed


def results_text_file(summary: dict[str, Any]) -> str:
    """Everything, untruncated: attached to the results for long lists and screen readers."""
    rows = Grid.parse(summary["grid"]).rows
    out = [f"Word Boggle - round #{summary['number']}", ""]
    out += ["Grid:", *("  " + " ".join(f"{face:<2}" for face in row).rstrip() for row in rows), ""]
    out.append(winner_line(summary).replace("**", "").replace("🏆 ", ""))
    out.append("")
    for player in summary["players"]:
        out.append(f"{player['rank']}. {player['name']} - {_points(player['total'])}")
        out += [f"   {line}" for line in player_lines(player)]
        out.append("")
    missed = shown_missed(summary)
    if missed:
        out.append("Best words nobody found: " + ", ".join(f"{w.upper()} ({p})" for w, p in missed))
    out.append(
        f"The grid held {summary['words_on_grid']} words worth {summary['points_on_grid']} points."
    )
    return "\n".join(out) + "\n"


def results_payloads(
    summary: dict[str, Any], standings: Sequence[Standing], season: dict[str, Any], target: int
) -> list[dict[str, Any]]:
    payload: dict[str, Any] = {"content": results_content(summary, standings, season, target)}
    embed = results_embed(summary)
    if embed is not None:
        payload["embeds"] = [embed]
    rows = [list(r) for r in Grid.parse(summary["grid"]).rows]
    payload["files"] = [
        {
            "render": GRID_RENDERER,
            "args": {
                "rows": rows,
                "title": f"Round {summary['number']}",
                "round": summary["number"],
            },
        },
        {
            "render": TEXT_RENDERER,
            "args": {
                "filename": f"boggle-round-{summary['number']}.txt",
                "text": results_text_file(summary),
            },
        },
    ]
    return [payload]


def season_end_payload(ended: SeasonEnd, target: int) -> dict[str, Any]:
    why = {
        "target": f"first to {target} points",
        "moderator": "ended by a moderator",
        "schedule": "the season's time is up",
    }[ended.reason]
    if ended.winners:
        names = " and ".join(f"**{escape(name)}**" for _, name in ended.winners)
        head = f"🎉 {names} {'win' if len(ended.winners) > 1 else 'wins'} Word Boggle season {ended.number} with {_points(ended.points)} ({why})!"
    else:
        head = f"Word Boggle season {ended.number} is over ({why}); nobody scored in it."
    return {"content": f"{head}\nSeason {ended.next_number} starts now: everyone is back to 0."}
