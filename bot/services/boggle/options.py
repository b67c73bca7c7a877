"""A round's options and their limits, wall-clock times for the weekly
schedule, and season boundaries in the club's time zone.

A bad option is a clear error (``InvalidInputError``) and changes nothing.
The round's length goes through the one duration grammar (engines.durations):
a plain number is minutes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.errors import InvalidInputError
from bot.messages.boggle import room
from bot.messages.boggle import rounds as say
from bot.messages.i18n import N_
from bot.services.durations import read_required_duration
from engines.boggle import DEFAULT_MIN_LENGTH, BoggleError, dice_for_side, dice_set
from engines.durations import Duration

SIZES = (4, 5, 6)
DEFAULT_SIZE = 4
DEFAULT_DURATION_S = 180
MIN_DURATION_S, MAX_DURATION_S = 10, 60 * 60
ROUND_DURATION = Duration(
    N_("a round's length"),
    "m",
    minimum=timedelta(seconds=MIN_DURATION_S),
    maximum=timedelta(seconds=MAX_DURATION_S),
)
# A round played in the room (issue #29): the grid on the screen, the words on paper,
# then this long after the countdown to type the lists (the host's option).
WHERES = ("discord", "room")
DEFAULT_ENTRY_S = 120
ENTRY_TIME = Duration(
    N_("the time to type the lists"),
    "m",
    minimum=timedelta(seconds=30),
    maximum=timedelta(minutes=30),
)
MIN_LENGTHS = (3, 4, 5, 6)
DEFAULT_SEASON_TARGET = 100
MIN_SEASON_TARGET, MAX_SEASON_TARGET = 5, 100_000
SEASON_RESETS = ("none", "month", "quarter", "year")

_CLOCK_TIME = re.compile(
    r"^(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.\s?m\.?|p\.\s?m\.?)?$", re.IGNORECASE
)
NAMED_TIMES = {"noon": time(12, 0), "midday": time(12, 0), "midnight": time(0, 0)}


@dataclass(frozen=True)
class RoundOptions:
    """A round's settings, checked: the grid's size, the dice, the length in seconds and the
    shortest word."""

    size: int = DEFAULT_SIZE
    dice: str = "classic16"
    duration_s: int = DEFAULT_DURATION_S
    min_length: int = DEFAULT_MIN_LENGTH


def round_seconds(duration: str) -> int:
    """A round's length in whole seconds ("3m", "90s", "1:30"; a plain number is minutes)."""
    return round(read_required_duration(ROUND_DURATION, duration).total_seconds())


def entry_seconds(where: str | None, entry_time: str | None) -> int:
    """How long a round's players have after its countdown to type their paper lists:
    0 for a round played in Discord, ``entry_time`` (default 2 minutes) for one played
    in the room. A time to type the lists of a round played in Discord is refused."""
    if where is not None and where not in WHERES:
        raise InvalidInputError(room.BAD_WHERE)
    if where != "room":
        if entry_time is not None:
            raise InvalidInputError(room.ENTRY_TIME_IN_ROOM_ONLY)
        return 0
    if entry_time is None:
        return DEFAULT_ENTRY_S
    return round(read_required_duration(ENTRY_TIME, entry_time).total_seconds())


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
                raise InvalidInputError(say.dice_size_mismatch(chosen.name, chosen.side, size))
        else:
            if size is not None and size not in SIZES:
                raise InvalidInputError(say.BAD_SIZE)
            chosen = dice_for_side(size or DEFAULT_SIZE)
    except BoggleError as exc:
        raise InvalidInputError.passing_on(exc) from exc
    seconds = DEFAULT_DURATION_S if duration is None else round_seconds(duration)
    length = DEFAULT_MIN_LENGTH if min_length is None else min_length
    if length not in MIN_LENGTHS:
        raise InvalidInputError(say.BAD_MIN_LENGTH)
    return RoundOptions(size=chosen.side, dice=chosen.name, duration_s=seconds, min_length=length)


def parse_clock_time(written: str) -> time:
    """A wall-clock time as people write it: "15:00", "3pm", "3:30 pm", "3 p.m.",
    "07.30", "15h30", "noon", "midnight"."""
    text = " ".join(written.split()).casefold()
    if text in NAMED_TIMES:
        return NAMED_TIMES[text]
    match = _CLOCK_TIME.match(text)
    if match is None:
        raise InvalidInputError(say.unreadable_time(written))
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    meridiem = re.sub(r"[.\s]", "", match.group(3) or "")
    if meridiem:
        if not 1 <= hour <= 12:
            raise InvalidInputError(say.AM_PM_HOUR)
        hour = hour % 12 + (12 if meridiem == "pm" else 0)
    if hour > 23 or minute > 59:
        raise InvalidInputError(say.BAD_CLOCK_TIME)
    return time(hour, minute)


def check_weekday(weekday: int) -> None:
    """Refuse a weekday outside 0 (Monday) to 6 (Sunday)."""
    if weekday not in range(7):
        raise InvalidInputError(say.PICK_A_WEEKDAY)


def check_season_settings(target: int | None, every: str | None) -> None:
    """Refuse a season target out of range or an unknown reset rhythm (None: left as it is)."""
    if target is not None and not MIN_SEASON_TARGET <= target <= MAX_SEASON_TARGET:
        raise InvalidInputError(say.season_target_range(MIN_SEASON_TARGET, MAX_SEASON_TARGET))
    if every is not None and every not in SEASON_RESETS:
        raise InvalidInputError(say.BAD_SEASON_RESET)


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
        raise InvalidInputError(say.BAD_SEASON_RESET)
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return datetime(year, month, 1, tzinfo=tz).astimezone(UTC)


def club_zone(name: str | None) -> ZoneInfo:
    """The club's time zone by name; UTC when it has none, or one this machine does not know."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")
