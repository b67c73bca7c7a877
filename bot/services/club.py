"""Club settings: moderator role, time zone, default channel."""

from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.errors import InvalidInputError
from bot.services import ServiceContext


@dataclass(frozen=True)
class ClubSettings:
    guild_id: int
    timezone: str
    moderator_role_id: int | None
    default_channel_id: int | None


def validate_timezone(name: str) -> str:
    """An IANA zone name, matched case-insensitively ("europe/london" works)."""
    cleaned = name.strip().replace(" ", "_")
    if not cleaned or len(cleaned) > 64:
        raise InvalidInputError("Give a time zone like `Asia/Manila` or `Europe/London`.")
    try:
        ZoneInfo(cleaned)
        return cleaned
    except (ZoneInfoNotFoundError, ValueError):
        pass
    lowered = cleaned.lower()
    for zone in available_timezones():
        if zone.lower() == lowered:
            return zone
    raise InvalidInputError(
        "I don't know that time zone. Use a name like `Asia/Manila`, `Europe/London` or `UTC`."
    )


class ClubService:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def get(self, guild_id: int, guild_name: str = "") -> ClubSettings:
        async with self.ctx.uow() as uow:
            guild = await uow.guilds.get(guild_id)
            if guild is None:
                return ClubSettings(guild_id, "UTC", None, None)
            return ClubSettings(
                guild.id, guild.timezone, guild.moderator_role_id, guild.default_channel_id
            )

    async def setup(
        self,
        guild_id: int,
        guild_name: str,
        *,
        moderator_role_id: int | None = None,
        timezone: str | None = None,
        channel_id: int | None = None,
    ) -> ClubSettings:
        tz = validate_timezone(timezone) if timezone is not None else None
        async with self.ctx.uow() as uow:
            guild = await uow.guilds.ensure(guild_id, guild_name)
            if moderator_role_id is not None:
                guild.moderator_role_id = moderator_role_id
            if tz is not None:
                guild.timezone = tz
            if channel_id is not None:
                guild.default_channel_id = channel_id
            result = ClubSettings(
                guild.id, guild.timezone, guild.moderator_role_id, guild.default_channel_id
            )
            await uow.commit()
        return result
