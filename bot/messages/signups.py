"""The sign-up mechanism's refusals (sessions, tournaments and events share them).

``what`` names the thing signed up for, as the caller says it ("the session",
"the tournament"); member names are escaped with ``plain``.
"""

from __future__ import annotations

from bot.messages.i18n import N_, _
from bot.messages.text import plain

TOO_BUSY = N_("Many sign-ups arrived at once: please try again.")
PARTNER_IS_YOU = N_("Your partner must be someone else.")


# What the callers name a list by when they pass a plain word (sessions, the
# default): marked here so the catalogue has them; ``what`` goes through _().
WHATS = (N_("this list"), N_("the session"))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def already_on_list(what: str, place: int) -> str:
    return _("You are already signed up for {what} (place {place}).").format(
        what=_(what), place=place
    )


def member_already_on_list(name: str, what: str, place: int) -> str:
    return _("{name} is already signed up for {what} (place {place}).").format(
        name=f"**{plain(name)}**", what=_(what), place=place
    )


def list_closed(what: str) -> str:
    return _("Sign-ups for {what} are closed.").format(what=_(what))


def list_full(what: str, capacity: int) -> str:
    return _capital(
        _("{what} is full ({capacity} places) and has no waiting list.").format(
            what=_(what), capacity=capacity
        )
    )


def needs_partner(what: str) -> str:
    return _capital(_("{what} is for pairs: name your partner.").format(what=_(what)))


def not_on_list(what: str) -> str:
    return _("You are not signed up for {what}.").format(what=_(what))


def member_not_on_list(name: str, what: str) -> str:
    return _("{name} is not signed up for {what}.").format(name=f"**{plain(name)}**", what=_(what))
