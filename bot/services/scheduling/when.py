"""A day and a time as members write them, in the club's time zone: ``Sat 3pm``,
``tomorrow 19:30``, ``bukas 3pm``, ``Dec 12 15:00``, ``12 December 7pm``,
``2026-12-12 15:00``, ``3pm Saturday``, or a time alone (its next occurrence).

The wall-clock part is the one the weekly Boggle round reads
(``bot.services.boggle.options.parse_clock_time``: ``15:00``, ``3pm``, ``3:30 pm``,
``noon``); the day part is a weekday (the next one: today if the time is still to
come), ``today`` / ``tomorrow`` (and Filipino ``ngayon`` / ``bukas``), a month and
a day (this year's, else next year's), or an ISO date. Daylight-saving gaps resolve
as the weekly round's do. Nothing is stored here and no clock is read: ``now`` is given.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.errors import InvalidInputError
from bot.messages import schedule as msg
from bot.services.boggle.options import parse_clock_time

WEEKDAYS = {
    **dict.fromkeys(("mon", "monday", "lunes"), 0),
    **dict.fromkeys(("tue", "tues", "tuesday", "martes"), 1),
    **dict.fromkeys(("wed", "weds", "wednesday", "miyerkules", "miyerkoles"), 2),
    **dict.fromkeys(("thu", "thur", "thurs", "thursday", "huwebes"), 3),
    **dict.fromkeys(("fri", "friday", "biyernes"), 4),
    **dict.fromkeys(("sat", "saturday", "sabado"), 5),
    **dict.fromkeys(("sun", "sunday", "linggo"), 6),
}
RELATIVE_DAYS = {
    "today": 0,
    "tonight": 0,
    "ngayon": 0,
    "tomorrow": 1,
    "tmrw": 1,
    "bukas": 1,
}
_MONTH_NAMES = (
    ("jan", "january", "enero"),
    ("feb", "february", "pebrero"),
    ("mar", "march", "marso"),
    ("apr", "april", "abril"),
    ("may", "mayo"),
    ("jun", "june", "hunyo"),
    ("jul", "july", "hulyo"),
    ("aug", "august", "agosto"),
    ("sep", "sept", "september", "setyembre"),
    ("oct", "october", "oktubre"),
    ("nov", "november", "nobyembre"),
    ("dec", "december", "disyembre"),
)
MONTHS = {name: n for n, names in enumerate(_MONTH_NAMES, start=1) for name in names}
_FILLERS = frozenset({"at", "on", "of", "sa", "ng", "ika", "the", "next"})
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_DAY_NUMBER = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?")


def read_when(typed: str, now: datetime, zone: ZoneInfo) -> datetime:
    """The moment ``typed`` names (UTC), read in ``zone``; unreadable text is refused."""
    words = [
        w
        for w in re.sub(r"[,]", " ", typed).casefold().split()
        if w not in _FILLERS and w.rstrip(".") not in _FILLERS
    ]
    words = [
        w.rstrip(".") if w.rstrip(".") in WEEKDAYS or w.rstrip(".") in MONTHS else w for w in words
    ]
    if not words:
        raise InvalidInputError(msg.unreadable(typed, zone.key))
    local_now = now.astimezone(zone)
    for cut in range(len(words) + 1):
        # the day first ("Sat 3pm"), else the time first ("3pm Sat")
        for day_words, time_words in ((words[:cut], words[cut:]), (words[cut:], words[:cut])):
            if not time_words:
                continue
            wall = _clock(" ".join(time_words))
            if wall is None:
                continue
            found = _day(day_words, wall, local_now, zone)
            if found is not None:
                return found
    raise InvalidInputError(msg.unreadable(typed, zone.key))


def _clock(text: str) -> time | None:
    try:
        return parse_clock_time(text)
    except InvalidInputError:
        return None


def _at(day: date, wall: time, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, wall, tzinfo=zone).astimezone(UTC)


def _day(words: list[str], wall: time, local_now: datetime, zone: ZoneInfo) -> datetime | None:
    today = local_now.date()
    now = local_now.astimezone(UTC)
    if not words:  # a time alone: its next occurrence
        moment = _at(today, wall, zone)
        return moment if moment > now else _at(today + timedelta(days=1), wall, zone)
    if len(words) == 1:
        word = words[0]
        if word in RELATIVE_DAYS:
            return _at(today + timedelta(days=RELATIVE_DAYS[word]), wall, zone)
        if word in WEEKDAYS:
            day = today + timedelta(days=(WEEKDAYS[word] - today.weekday()) % 7)
            moment = _at(day, wall, zone)
            return moment if moment > now else _at(day + timedelta(days=7), wall, zone)
        if iso := _ISO.fullmatch(word):
            return _dated(int(iso[1]), int(iso[2]), int(iso[3]), wall, zone)
        return None
    # a month and a day, either way round, with a year after them or not
    year: int | None = None
    if len(words) == 3 and words[2].isdigit() and len(words[2]) == 4:
        year, words = int(words[2]), words[:2]
    if len(words) != 2:
        return None
    first, second = words
    if first in MONTHS and (number := _DAY_NUMBER.fullmatch(second)):
        month, day_of_month = MONTHS[first], int(number[1])
    elif second in MONTHS and (number := _DAY_NUMBER.fullmatch(first)):
        month, day_of_month = MONTHS[second], int(number[1])
    else:
        return None
    if year is not None:
        return _dated(year, month, day_of_month, wall, zone)
    dated = _dated(today.year, month, day_of_month, wall, zone)
    if dated is not None and dated.date() < today - timedelta(days=1):
        return _dated(today.year + 1, month, day_of_month, wall, zone)  # "Jan 3" in December
    return dated


def _dated(year: int, month: int, day: int, wall: time, zone: ZoneInfo) -> datetime | None:
    try:
        return _at(date(year, month, day), wall, zone)
    except ValueError:
        return None
