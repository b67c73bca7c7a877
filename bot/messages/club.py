"""The club's own words: ``/club setup``'s summary and its time-zone answers, and
``/club export``'s note."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

TIMEZONE_PROMPT = "Give a time zone like `Asia/Manila` or `Europe/London`."
NO_TIMEZONE_DATA = (
    "The bot has no time zone data on this machine: ask its operator to "
    "install the `tzdata` package."
)
ZONE_FORMAT_HINT = "Zones are written Region/City, like `Asia/Manila`, `Europe/London` or `UTC`."
NO_MODERATOR_ROLE = "not set (Manage Server only)"
NOT_SET = "not set"
EXPORT_WHAT = "export the club's data"
EXPORT_FILE_ALT = (
    "A zip file of the club's data: results and ratings as CSV tables, "
    "finished Scrabble games as GCG and chess games as PGN."
)


def _either(quoted: Sequence[str]) -> str:
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def unknown_timezone(typed: str | None, suggestions: Sequence[str], *, abbreviation: bool) -> str:
    """A zone the bot does not know. ``typed`` is what the member wrote, when it is
    safe to echo in code (None: it is not); ``abbreviation``: it is one (EST, PST)."""
    shown = f"`{typed}`" if typed is not None else None
    if abbreviation:
        opening = f"{shown} is an abbreviation; the bot needs the zone of a place."
    elif shown:
        opening = f"I don't know the time zone {shown}."
    else:
        opening = "I don't know that time zone."
    if suggestions:
        hint = f" Did you mean {_either([f'`{z}`' for z in suggestions])}?"
    else:
        hint = f" {ZONE_FORMAT_HINT}"
    return f"{opening}{hint} (Pick one from the list as you type.)"


def settings_summary(
    moderator_role_id: int | None, timezone: str, default_channel_id: int | None
) -> str:
    """The club's settings after ``/club setup`` (mentions shown, never pinged)."""
    role = f"<@&{moderator_role_id}>" if moderator_role_id else NO_MODERATOR_ROLE
    channel = f"<#{default_channel_id}>" if default_channel_id else NOT_SET
    return (
        f"**Club settings**\nModerator role: {role}\nTime zone: `{timezone}`\n"
        f"Games channel: {channel}"
    )


def export_note(counts: Mapping[str, int]) -> str:
    return (
        f"The club's data: {counts['results']} results, {counts['ratings']} standings, "
        f"{counts['games']} finished games (GCG and PGN)."
    )


def export_filename(guild_id: int) -> str:
    return f"clubbot-export-{guild_id}.zip"
