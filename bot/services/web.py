"""The club's web page switch: on, off, a new secret address (``/club web``).

A club's page is private, so it lives at an unguessable path: a random token
(``secrets.token_urlsafe``) kept in ``guilds.settings["web"]`` with the page's
on/off flag. Rotating replaces the token, so the old address is dead at once, and
revokes every member's private board link (``board_links``); turning the page
off drops it.

The page shows its times in the club's time zone (``/club setup timezone:``),
so ``club_for`` hands the page that zone with the club's language.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Literal
from zoneinfo import ZoneInfo

from bot.db.repositories.web import web_token
from bot.messages.i18n import language_of
from bot.services import ServiceContext
from bot.services.board_links import with_new_secret
from bot.services.boggle.options import club_zone

Action = Literal["on", "off", "rotate"]
TOKEN_BYTES = 24  # 32 URL-safe characters
PAGE_PREFIX = "/c/"


@dataclass(frozen=True)
class WebPage:
    """A club's web page as ``/club web`` left it: on or off, its token, and whether the
    command changed anything."""

    guild_id: int
    enabled: bool
    token: str | None
    changed: bool  # False when the command asked for what already was

    @property
    def path(self) -> str | None:
        """The page's path on the bot's web server (``/c/<token>/``); None while the page is off."""
        return f"{PAGE_PREFIX}{self.token}/" if self.token else None


@dataclass(frozen=True)
class PageClub:
    """The club a page address belongs to, as its page needs it."""

    guild_id: int
    name: str
    language: str
    zone: ZoneInfo  # the club's time zone; UTC when it has set none


def new_token() -> str:
    """A new unguessable token for a page's address."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def page_url(base_url: str | None, path: str) -> str:
    """The page's full address under ``base_url``; the bare path when the bot has no address."""
    return f"{base_url.rstrip('/')}{path}" if base_url else path


class WebService:
    """The club's web page: whether it is on, switching it, and which club an address is for."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def page(self, guild_id: int) -> WebPage:
        """The club's page as it stands (nothing changed)."""
        async with self.ctx.reader() as uow:
            guild = await uow.guilds.get(guild_id)
            token = web_token(guild.settings if guild is not None else None)
        return WebPage(guild_id, token is not None, token, False)

    async def set(self, guild_id: int, guild_name: str, action: Action) -> WebPage:
        """Turn the page on (keeping its address if it is on), off, or give it a new address."""
        async with self.ctx.uow() as uow:
            guild = await uow.guilds.ensure(guild_id, guild_name)
            settings = dict(guild.settings or {})
            current = web_token(settings)
            if action == "off":
                token = None
                changed = current is not None
            elif action == "on" and current is not None:
                token, changed = current, False
            else:
                token, changed = new_token(), True
            if changed:
                # A new dict: JSON columns are saved on reassignment.
                settings["web"] = {"enabled": True, "token": token} if token else {"enabled": False}
                guild.settings = settings
            if action == "rotate":
                # A new address for the page, and every member's board link revoked too.
                guild.settings = with_new_secret(guild.settings)
            await uow.commit()  # a new club, or its name, is kept either way
        return WebPage(guild_id, token is not None, token, changed)

    async def club_for(self, token: str) -> PageClub | None:
        """The club whose page is on at ``token``, with its language and time zone."""
        async with self.ctx.reader() as uow:
            guild = await uow.web.guild_by_token(token)
            if guild is None:
                return None
            return PageClub(
                guild.id, guild.name, language_of(guild.settings), club_zone(guild.timezone)
            )
