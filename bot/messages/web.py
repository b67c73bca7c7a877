"""What ``/club web`` answers, and the words the club's web page shares with it."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from babel.dates import format_date, format_time, get_timezone_gmt

from bot.messages.i18n import N_, _, babel_locale

WEB_WHAT = N_("turn the club's web page on or off")
# Why a member's private board link (bot/services/board_links.py) did not open.
LINK_FORGED = N_("This board link is not one the bot gave.")
LINK_EXPIRED = N_("This board link has expired: ask the bot for the board again.")
LINK_REVOKED = N_("This board link was revoked: ask the bot for the board again.")
LINK_ENDED = N_("This game is over, so its board link no longer opens it.")
LINK_NOT_YOURS = N_("This board link is for another member or another game.")
# A change made on a board page on a version of the game that is no longer current
# (``bot.errors.StaleBoardError``): every kind of board says it the same way.
STALE_BOARD = N_("The board changed: look again.")
WEB_OFF_SERVER = N_(
    "The web page is not running on this bot (its host sets `WEB_PORT` to turn it on): "
    "the setting is saved and the page opens when it is."
)


def page_on(url: str, *, rotated: bool = False, running: bool = True) -> str:
    first = (
        _("The club's web page has a new address; the old one no longer works.")
        if rotated
        else _("The club's web page is on.")
    )
    lines = [
        first,
        _(
            "Its address (share it with members only: anyone with it can read the page): {url}"
        ).format(url=url),
        _("`/club web action:rotate` gives it a new address, `/club web action:off` closes it."),
    ]
    if not running:
        lines.append(_(WEB_OFF_SERVER))
    return "\n".join(lines)


def print_round(url: str) -> str:
    """Added to the director's answer to a tournament's start: its printable pages."""
    return _(
        "For the room: print the round's pairings, result slips and standings from the "
        "club's web page (its address is for members only): {url}"
    ).format(url=url)


PAGE_OFF = N_("The club's web page is off: its address no longer works.")
PAGE_ALREADY_OFF = N_("The club's web page is already off.")
NO_BASE_URL = N_(
    "(the bot's host has not set `WEB_BASE_URL`: this is the path on the bot's web server)"
)


# ---------------------------------------------------------------------- the page's words

# The states the page names, for any of its lists (games, rounds, events,
# tournaments, sessions, pairs): a state not named here shows as stored.
STATUS_NAMES = {
    "invited": N_("invited"),
    "active": N_("in play"),
    "finished": N_("finished"),
    "abandoned": N_("abandoned"),
    "scheduled": N_("scheduled"),
    "open": N_("open"),
    "running": N_("running"),
    "scoring": N_("being scored"),
    "scored": N_("scored"),
    "cancelled": N_("cancelled"),
    "closed": N_("closed"),
    "signup": N_("taking sign-ups"),
    "playing": N_("playing"),
    "paused": N_("paused"),
    "formed": N_("boards formed"),
    "started": N_("started"),
    "ended": N_("ended"),
    "registered": N_("registered"),
    "ready": N_("ready"),
    "guessed": N_("guessed"),
    "timed_out": N_("timed out"),
    "disqualified": N_("disqualified"),
    "withdrawn": N_("withdrawn"),
    "waiting": N_("waiting"),
    "ranked": N_("ranked"),
    "eliminated": N_("eliminated"),
    "not_played": N_("not played yet"),
    "done": N_("done"),
    "not_started": N_("not started"),
}
FORMAT_NAMES = {
    "round_robin": N_("round robin"),
    "swiss": N_("Swiss"),
    "knockout": N_("knockout"),
}


PAGE_NOTE = N_("A read-only page of the club's games, kept by clubbot.")
_UTC_KEYS = ("UTC", "Etc/UTC")


def _is_utc(zone: ZoneInfo) -> bool:
    return zone.key in _UTC_KEYS


def local_time(moment: datetime, zone: ZoneInfo) -> str:
    """A stored (UTC) moment as the club reads it: date and time in the club's
    zone, written for the active language, with the zone's offset so nobody
    takes it for their own ("Dec 6, 2026, 7:05 PM GMT+08:00"; "… 11:05 AM UTC")."""
    local = moment.astimezone(zone)
    locale = babel_locale()
    date = format_date(local, "medium", locale=locale)
    clock = format_time(local, "short", locale=locale)
    label = "UTC" if _is_utc(zone) else get_timezone_gmt(local, "long", locale=locale)
    when = str(locale.datetime_formats["medium"]).format(clock, date)
    return f"{when} {label}"


def times_note(zone: ZoneInfo) -> str:
    """The page's word on its times: the club's zone, named."""
    if _is_utc(zone):
        return _("Times are in UTC.")
    return _("Times are in the club's time zone, {zone}.").format(zone=zone.key)


def status_name(status: str) -> str:
    """A stored state as the page names it, in the active language."""
    return _(STATUS_NAMES[status]) if status in STATUS_NAMES else status.replace("_", " ")


def format_name(fmt: str) -> str:
    return _(FORMAT_NAMES[fmt]) if fmt in FORMAT_NAMES else fmt.replace("_", " ")
