"""Club settings: moderator role, time zone, default channel, language."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, time
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.db.models import GuildRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.messages.club import (
    NO_TIMEZONE_DATA,
    SEEK_ROLE_SET_OR_CLEAR,
    TIMEZONE_PROMPT,
    unknown_language,
    unknown_timezone,
)
from bot.messages.i18n import DEFAULT_LANGUAGE, available_languages, is_language, language_of
from bot.messages.puzzle_daily import NEEDS_A_CHANNEL
from bot.services import ServiceContext
from bot.services.puzzles.daily import (
    PUZZLE_CHANNEL,
    PUZZLE_TIME,
    daily_setting,
    read_puzzle_time,
    schedule_daily,
)


@dataclass(frozen=True)
class ClubSettings:
    """A club's settings as the bot uses them: zone, moderator role, default channel, language."""

    guild_id: int
    timezone: str
    moderator_role_id: int | None
    default_channel_id: int | None
    language: str = DEFAULT_LANGUAGE  # a catalogue's code: "en", "fil"
    seek_role_id: int | None = None  # the role /scrabble seek and /chess seek mention
    puzzle_channel_id: int | None = None  # the daily puzzle's channel (when it is on)
    puzzle_time: str | None = None  # the daily puzzle's "HH:MM", club time; None: off
    next_puzzle_at: datetime | None = None  # after /club setup: the next daily puzzle


def _daily_puzzle(settings: Mapping[str, Any] | None) -> dict[str, Any]:
    """The daily puzzle's fields of ``ClubSettings``: its channel and time, when on."""
    setting = daily_setting(settings)
    if setting is None:
        return {}
    channel_id, at = setting
    return {"puzzle_channel_id": channel_id, "puzzle_time": at.strftime("%H:%M")}


SEEK_ROLE = "seek_role_id"  # guilds.settings: the role open challenges mention


def _seek_role(settings: Mapping[str, Any] | None) -> int | None:
    role = (settings or {}).get(SEEK_ROLE)
    return int(role) if role else None


# Names in the zone list that are not places a club is in.
_NOT_CLUB_ZONES = frozenset({"Factory", "localtime", "posixrules"})

# Abbreviations members type for a zone. Some are also zone names (EST, MST are
# fixed offsets with no daylight saving, unlike New York or Denver), and several
# mean two places (PST: Los Angeles or Manila; IST: India, Ireland or Israel):
# they are refused with the zones they may mean, never guessed.
_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "est": ("America/New_York", "America/Toronto"),
    "edt": ("America/New_York", "America/Toronto"),
    "et": ("America/New_York", "America/Toronto"),
    "cst": ("America/Chicago", "Asia/Shanghai", "America/Mexico_City"),
    "cdt": ("America/Chicago", "America/Winnipeg"),
    "ct": ("America/Chicago",),
    "mst": ("America/Denver", "America/Phoenix", "America/Edmonton"),
    "mdt": ("America/Denver", "America/Edmonton"),
    "mt": ("America/Denver",),
    "pst": ("America/Los_Angeles", "Asia/Manila", "America/Vancouver"),
    "pdt": ("America/Los_Angeles", "America/Vancouver"),
    "pt": ("America/Los_Angeles",),
    "pht": ("Asia/Manila",),
    "sgt": ("Asia/Singapore",),
    "hkt": ("Asia/Hong_Kong",),
    "jst": ("Asia/Tokyo",),
    "kst": ("Asia/Seoul",),
    "ist": ("Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"),
    "bst": ("Europe/London",),
    "cest": ("Europe/Paris", "Europe/Berlin"),
    "aest": ("Australia/Sydney", "Australia/Brisbane"),
    "aedt": ("Australia/Sydney", "Australia/Melbourne"),
    "nzst": ("Pacific/Auckland",),
}
_TYPABLE = re.compile(r"[A-Za-z0-9_+\-/]+")


@dataclass(frozen=True)
class _ZoneIndex:
    zones: tuple[str, ...]  # sorted
    by_folded_name: dict[str, str]  # "asia/manila" → "Asia/Manila"
    by_city: dict[str, tuple[str, ...]]  # "manila" → ("Asia/Manila",): the part people type


@cache
def _zone_index() -> _ZoneIndex:
    # Read once: the autocomplete asks at every keystroke.
    zones = tuple(sorted(available_timezones() - _NOT_CLUB_ZONES))
    cities: dict[str, list[str]] = {}
    for zone in zones:
        cities.setdefault(zone.rsplit("/", 1)[-1].casefold(), []).append(zone)
    return _ZoneIndex(
        zones,
        {zone.casefold(): zone for zone in zones},
        {city: tuple(found) for city, found in cities.items()},
    )


def club_timezones() -> tuple[str, ...]:
    """Every zone a club can pick, sorted. From the system's zone files or, where a
    machine has none (Windows, slim containers), the ``tzdata`` package."""
    return _zone_index().zones


def reload_timezones() -> None:
    """Read the zone list again at the next use (the search path changed, or tzdata)."""
    _zone_index.cache_clear()


def suggest_timezones(name: str, limit: int = 3) -> list[str]:
    """The zones ``name`` most likely meant: close to the whole name or to its city part."""
    folded = name.strip().replace(" ", "_").casefold()
    if not folded:
        return []
    if folded in _ABBREVIATIONS:
        return list(_ABBREVIATIONS[folded][:limit])
    found: list[str] = []
    index = _zone_index()
    by_name = index.by_folded_name
    for match in difflib.get_close_matches(folded, by_name, n=limit, cutoff=0.75):
        found.append(by_name[match])
    by_city = index.by_city
    city = folded.rsplit("/", 1)[-1]
    for match in difflib.get_close_matches(city, by_city, n=limit, cutoff=0.75):
        found.extend(by_city[match])
    if not found:  # a looser pass for short or badly mistyped names
        for match in difflib.get_close_matches(folded, by_name, n=limit, cutoff=0.6):
            found.append(by_name[match])
    # Never suggest a name that would be refused (EST for est).
    unique = [z for z in dict.fromkeys(found) if z.casefold() not in _ABBREVIATIONS]
    return unique[:limit]


def validate_timezone(name: str) -> str:
    """The zone's canonical IANA name: ``asia/manila`` → ``Asia/Manila``.

    Anything else raises ``InvalidInputError`` naming the closest zones
    (``Asia/Manilla``, ``manila`` → ``Asia/Manila``), so the member can retry.
    """
    cleaned = name.strip().replace(" ", "_")
    if not cleaned or len(cleaned) > 64:
        raise InvalidInputError(TIMEZONE_PROMPT)
    folded = cleaned.casefold()
    zone = _zone_index().by_folded_name.get(folded)
    if zone is not None and folded not in _ABBREVIATIONS:
        try:
            ZoneInfo(zone)  # listed, so it loads; a damaged zone file is refused here
        except (ZoneInfoNotFoundError, ValueError, OSError):
            pass
        else:
            return zone
    if not _zone_index().zones:
        raise InvalidInputError(NO_TIMEZONE_DATA)
    # Echo what was typed only when it cannot break the reply's formatting.
    typed = name.strip() if _TYPABLE.fullmatch(cleaned) else None
    raise InvalidInputError(
        unknown_timezone(typed, suggest_timezones(cleaned), abbreviation=folded in _ABBREVIATIONS)
    )


def validate_language(code: str) -> str:
    """A language the bot speaks, by code or name (``fil``, ``Filipino``)."""
    wanted = code.strip().casefold()
    if is_language(code.strip()):  # a code (also a test-only catalogue's)
        return code.strip()
    for known, name in available_languages().items():
        if wanted in (known.casefold(), name.casefold()):
            return known
    raise InvalidInputError(unknown_language(list(available_languages().values())))


def timezone_choices(current: str, limit: int = 25) -> list[str]:
    """Zones for the autocomplete: names starting with what was typed, then names or
    cities containing it (typing ``manila`` offers ``Asia/Manila``)."""
    needle = current.strip().replace(" ", "_").casefold()
    zones = club_timezones()
    if not needle:
        return list(zones[:limit])
    starts = [z for z in zones if z.casefold().startswith(needle)]
    cities = [z for z in zones if z.rsplit("/", 1)[-1].casefold().startswith(needle)]
    contains = [z for z in zones if needle in z.casefold()]
    return list(dict.fromkeys(starts + cities + contains))[:limit]


class ClubService:
    """The club's settings: reading them, setting them up, and the language to speak to it in."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def get(self, guild_id: int, guild_name: str = "") -> ClubSettings:
        """The club's settings; a club never set up has UTC, English, and no role or channel."""
        async with self.ctx.reader() as uow:
            guild = await uow.guilds.get(guild_id)
            if guild is None:
                return ClubSettings(guild_id, "UTC", None, None)
            return ClubSettings(
                guild.id,
                guild.timezone,
                guild.moderator_role_id,
                guild.default_channel_id,
                language_of(guild.settings),
                _seek_role(guild.settings),
                **_daily_puzzle(guild.settings),
            )

    async def language(self, guild_id: int | None) -> str:
        """The language ``guild_id`` chose (English for none, or no guild)."""
        if guild_id is None:
            return DEFAULT_LANGUAGE
        async with self.ctx.reader() as uow:
            guild = await uow.guilds.get(guild_id)
            return language_of(guild.settings if guild is not None else None)

    async def language_for(
        self, guild_ids: Sequence[int], known: Callable[[int], str | None] | None = None
    ) -> tuple[str, int | None]:
        """The language of a DM about one of ``guild_ids`` (the member's clubs):
        theirs when they agree, else English; and the guild, when there is one.
        ``known``: a club's language where the caller knows it without a read (a bot's
        own guilds, whose /club setup reaches it), else None: read."""
        codes: dict[int, str] = {}
        for club in dict.fromkeys(guild_ids):
            code = known(club) if known is not None else None
            codes[club] = code if code is not None else await self.language(club)
        if len(set(codes.values())) == 1:
            guild_id = next(iter(codes)) if len(codes) == 1 else None
            return next(iter(codes.values())), guild_id
        return DEFAULT_LANGUAGE, None

    async def setup(
        self,
        guild_id: int,
        guild_name: str,
        *,
        moderator_role_id: int | None = None,
        timezone: str | None = None,
        channel_id: int | None = None,
        language: str | None = None,
        seek_role_id: int | None = None,
        clear_seek_role: bool = False,
        puzzle_channel_id: int | None = None,
        puzzle_time: str | None = None,
    ) -> ClubSettings:
        """Set the club's moderator role, time zone, default channel, language, the role
        open challenges mention (``clear_seek_role``: none again), or the daily puzzle's
        channel and time (``puzzle_time`` "off" turns it off; a time with no puzzle channel
        yet posts in the games channel); what is left out stays as it was, and a bad zone,
        language or time, or a seek role both set and cleared, is refused before anything
        changes. A new time or zone moves the daily puzzle's job."""
        if clear_seek_role and seek_role_id is not None:
            raise InvalidInputError(SEEK_ROLE_SET_OR_CLEAR)
        tz = validate_timezone(timezone) if timezone is not None else None
        code = validate_language(language) if language is not None else None
        at = read_puzzle_time(puzzle_time) if puzzle_time is not None else None
        async with self.ctx.uow() as uow:
            guild = await uow.guilds.ensure(guild_id, guild_name)
            if moderator_role_id is not None:
                guild.moderator_role_id = moderator_role_id
            if tz is not None:
                guild.timezone = tz
            if channel_id is not None:
                guild.default_channel_id = channel_id
            if code is not None:
                # a new dict: the JSON column is saved when it is reassigned
                guild.settings = {**(guild.settings or {}), "language": code}
            if seek_role_id is not None:
                guild.settings = {**(guild.settings or {}), SEEK_ROLE: seek_role_id}
            if clear_seek_role:
                guild.settings = {k: v for k, v in (guild.settings or {}).items() if k != SEEK_ROLE}
            next_puzzle_at = None
            if puzzle_channel_id is not None or puzzle_time is not None or tz is not None:
                next_puzzle_at = await self._daily_puzzle(
                    uow, guild, puzzle_channel_id, at, puzzle_time
                )
            result = ClubSettings(
                guild.id,
                guild.timezone,
                guild.moderator_role_id,
                guild.default_channel_id,
                language_of(guild.settings),
                _seek_role(guild.settings),
                **_daily_puzzle(guild.settings),
                next_puzzle_at=next_puzzle_at,
            )
            await uow.commit()
        return result

    async def _daily_puzzle(
        self,
        uow: UnitOfWork,
        guild: GuildRecord,
        channel_id: int | None,
        at: time | None,
        written: str | None,
    ) -> datetime | None:
        """Store the daily puzzle's channel and time (``written`` given and ``at`` None:
        off) and move its job; the next post's time, or None when it is off."""
        settings = dict(guild.settings or {})
        if channel_id is not None:
            settings[PUZZLE_CHANNEL] = channel_id
        if written is not None:
            if at is None:
                settings.pop(PUZZLE_TIME, None)
            else:
                settings[PUZZLE_TIME] = at.strftime("%H:%M")
                if not settings.get(PUZZLE_CHANNEL):
                    if not guild.default_channel_id:
                        raise InvalidInputError(NEEDS_A_CHANNEL)
                    settings[PUZZLE_CHANNEL] = guild.default_channel_id
        guild.settings = settings  # a new dict: the JSON column is saved when reassigned
        return await schedule_daily(uow, guild, self.ctx.clock())
