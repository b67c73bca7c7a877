"""The sign-up mechanism's refusals (sessions, tournaments and events share them).

``what`` names the thing signed up for, as the caller says it ("the session",
"the tournament"); member names are escaped with ``plain``.
"""

from __future__ import annotations

from bot.messages.text import plain

TOO_BUSY = "Many sign-ups arrived at once: please try again."
PARTNER_IS_YOU = "Your partner must be someone else."


def already_on_list(what: str, place: int) -> str:
    return f"You are already signed up for {what} (place {place})."


def member_already_on_list(name: str, what: str, place: int) -> str:
    return f"**{plain(name)}** is already signed up for {what} (place {place})."


def list_closed(what: str) -> str:
    return f"Sign-ups for {what} are closed."


def list_full(what: str, capacity: int) -> str:
    return f"{what[:1].upper()}{what[1:]} is full ({capacity} places) and has no waiting list."


def needs_partner(what: str) -> str:
    return f"{what[:1].upper()}{what[1:]} is for pairs: name your partner."


def not_on_list(what: str) -> str:
    return f"You are not signed up for {what}."


def member_not_on_list(name: str, what: str) -> str:
    return f"**{plain(name)}** is not signed up for {what}."
