"""The club's own words: ``/club setup``'s summary and its time-zone answers, and
``/club export``'s note."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.messages.i18n import N_, _, available_languages, current_language

TIMEZONE_PROMPT = N_("Give a time zone like `Asia/Manila` or `Europe/London`.")
NO_TIMEZONE_DATA = N_(
    "The bot has no time zone data on this machine: ask its operator to "
    "install the `tzdata` package."
)
ZONE_FORMAT_HINT = N_(
    "Zones are written Region/City, like `Asia/Manila`, `Europe/London` or `UTC`."
)
NO_MODERATOR_ROLE = N_("not set (Manage Server only)")
NOT_SET = N_("not set")
SEEK_ROLE_SET_OR_CLEAR = N_(
    "Give `seek_role` to choose the role open challenges mention, or `clear:seek_role` "
    "to mention nobody, not both."
)
EXPORT_WHAT = N_("export the club's data")
EXPORT_FILE_ALT = N_(
    "A zip file of the club's data: results and ratings as CSV tables, "
    "finished Scrabble games as GCG and chess games as PGN."
)


def _either(quoted: Sequence[str]) -> str:
    if len(quoted) == 1:
        return quoted[0]
    return _("{first} or {last}").format(first=", ".join(quoted[:-1]), last=quoted[-1])


def unknown_timezone(typed: str | None, suggestions: Sequence[str], *, abbreviation: bool) -> str:
    """A zone the bot does not know. ``typed`` is what the member wrote, when it is
    safe to echo in code (None: it is not); ``abbreviation``: it is one (EST, PST)."""
    shown = f"`{typed}`" if typed is not None else None
    if abbreviation:
        opening = _("{zone} is an abbreviation; the bot needs the zone of a place.").format(
            zone=shown
        )
    elif shown:
        opening = _("I don't know the time zone {zone}.").format(zone=shown)
    else:
        opening = _("I don't know that time zone.")
    if suggestions:
        hint = _("Did you mean {zones}?").format(zones=_either([f"`{z}`" for z in suggestions]))
    else:
        hint = _(ZONE_FORMAT_HINT)
    return f"{opening} {hint} " + _("(Pick one from the list as you type.)")


def unknown_language(names: Sequence[str]) -> str:
    """A language the bot has no catalogue for."""
    return _("The bot speaks {languages}: pick one from the list.").format(
        languages=_either(list(names))
    )


def language_name(code: str) -> str:
    """A language as members of the club read it, in that language ("Filipino")."""
    return available_languages().get(code, code)


def settings_summary(
    moderator_role_id: int | None,
    timezone: str,
    default_channel_id: int | None,
    language: str | None = None,
    seek_role_id: int | None = None,
) -> str:
    """The club's settings after ``/club setup`` (mentions shown, never pinged)."""
    role = f"<@&{moderator_role_id}>" if moderator_role_id else _(NO_MODERATOR_ROLE)
    channel = f"<#{default_channel_id}>" if default_channel_id else _(NOT_SET)
    return "\n".join(
        (
            "**" + _("Club settings") + "**",
            _("Moderator role: {role}").format(role=role),
            _("Time zone: {zone}").format(zone=f"`{timezone}`"),
            _("Games channel: {channel}").format(channel=channel),
            _("Language: {language}").format(
                language=language_name(language or current_language())
            ),
            _("Open challenges mention: {role}").format(
                role=f"<@&{seek_role_id}>" if seek_role_id else _("nobody")
            ),
        )
    )


def export_note(counts: Mapping[str, int]) -> str:
    return _(
        "The club's data: {results} results, {ratings} standings, "
        "{games} finished games (GCG and PGN)."
    ).format(results=counts["results"], ratings=counts["ratings"], games=counts["games"])


def export_filename(guild_id: int) -> str:
    return f"clubbot-export-{guild_id}.zip"
