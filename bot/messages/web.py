"""What ``/club web`` answers, and the words the club's web page shares with it."""

from __future__ import annotations

WEB_WHAT = "turn the club's web page on or off"
WEB_OFF_SERVER = (
    "The web page is not running on this bot (its host sets `WEB_PORT` to turn it on): "
    "the setting is saved and the page opens when it is."
)


def page_on(url: str, *, rotated: bool = False, running: bool = True) -> str:
    first = (
        "The club's web page has a new address; the old one no longer works."
        if rotated
        else "The club's web page is on."
    )
    lines = [
        first,
        f"Its address (share it with members only: anyone with it can read the page): {url}",
        "`/club web action:rotate` gives it a new address, `/club web action:off` closes it.",
    ]
    if not running:
        lines.append(WEB_OFF_SERVER)
    return "\n".join(lines)


PAGE_OFF = "The club's web page is off: its address no longer works."
PAGE_ALREADY_OFF = "The club's web page is already off."
NO_BASE_URL = (
    "(the bot's host has not set `WEB_BASE_URL`: this is the path on the bot's web server)"
)
