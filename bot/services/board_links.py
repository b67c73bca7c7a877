"""A member's private link to their own board (issue #28): signed, per member and game.

The bot hands a member a link that names one club, one member and one game or
Boggle round. Whoever holds it acts as that member on that board, so the link is
a secret and carries its own proof:

``/p/v1.<guild>.<user>.<s|c|b|r|h|t|p|d><id>.<expires>.<generation>.<mac>``

``mac`` is an HMAC-SHA256 of everything before it, under the club's link secret,
cut to 128 bits. The secret is kept in the database (``guilds.settings["links"]``,
made on first use), never in ``.env``: a bot moved to another machine keeps its
clubs' links working, and ``/club web rotate`` makes a new secret with the next
*generation*, so every link given before is refused at once ("revoked", told apart
from a forged one by the generation it names).

The room's screen (issue #29, ``/club screen``) has a link of this kind too:
``r<guild>``, the club's own screen, given to a moderator. It shows only what the
club may see on a projector, so it is not tied to a game: it lasts ``LINK_DAYS``
days or until ``/club web rotate``.

A Henyo host's console (``h<round>``) is a link of this kind too: the phone page of
the console of one round played aloud, for its host only.

A puzzle's page (``p<puzzle>``, issue #31) is a member's own answer to one puzzle of
their club's: it opens while the puzzle is kept (once the member's attempt is over
it shows the solution). The daily Boggle grid's (``d<grid>``) is a member's own play
of that day's grid: it opens for the member who opened the grid (``/boggle daily``),
showing their list, taking words while their own countdown runs.

A link acts until its game ends, and lasts at most ``LINK_DAYS`` days. Once the
game is over, its link (and a page open on it) still shows the final position,
the result and the scores, read-only, for ``ENDED_VIEW`` after the end: a member
who had the page open sees how it ended instead of a refusal, and one who opens
the turn DM's link a little late sees what happened (all public by then, in the
thread's final post); every change is refused by the game itself. After that the
link is refused as ended. A Boggle round's link still opens its page once the
round is over, to show its results (public by then; the page's changes are
refused by the round itself), until the round is cancelled or the link's days
are up.

Why not itsdangerous: the format is ten lines of :mod:`hmac`, the standard tool
for this, and a dependency would add nothing; the fields are plain numbers, so
there is no payload to serialise.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from bot.db.models import GuildRecord
from bot.db.uow import UnitOfWork
from bot.errors import ClubError
from bot.messages.i18n import language_of
from bot.messages.web import (
    LINK_ENDED as ENDED,
)
from bot.messages.web import (
    LINK_EXPIRED as EXPIRED,
)
from bot.messages.web import (
    LINK_FORGED as FORGED,
)
from bot.messages.web import (
    LINK_NOT_YOURS as NOT_YOURS,
)
from bot.messages.web import (
    LINK_REVOKED as REVOKED,
)
from bot.services import ServiceContext
from bot.services.boggle.options import club_zone

Kind = Literal[
    "scrabble", "chess", "boggle", "screen", "henyo_host", "tally", "puzzle", "boggle_daily"
]
LINK_DAYS = 30
# How long after its end a game's link still shows the final position, read-only.
ENDED_VIEW = timedelta(hours=24)
LINK_PATH = "/p/"
VERSION = "v1"
SECRET_BYTES = 32
MAC_BYTES = 16
_LETTER: dict[str, Kind] = {
    "s": "scrabble",
    "c": "chess",
    "b": "boggle",
    "r": "screen",
    "h": "henyo_host",
    "t": "tally",  # a Scrabble board's tally in the room (issue #29): the game's id
    "p": "puzzle",  # a puzzle of the club's (issue #31): the puzzle's id
    "d": "boggle_daily",  # the member's play of a day's Boggle grid: the grid's id
}
_KIND_LETTER = {kind: letter for letter, kind in _LETTER.items()}
_PLAYING = frozenset({"invited", "active"})
_ENDED = frozenset({"finished", "abandoned"})
_ROUND_SHOWN = frozenset({"scheduled", "open", "closed", "scored"})


class LinkRefused(ClubError):
    """A link or session that does not open a board: forged, expired, revoked, ended,
    or someone else's. ``code`` says which; the page answers 403 with the message."""

    code = "link_refused"


@dataclass(frozen=True)
class Grant:
    """What one link lets its holder do: act as ``user_id`` in one game or round."""

    guild_id: int
    user_id: int
    kind: Kind
    subject_id: int  # a game's id, or a Boggle round's
    expires_at: int  # Unix seconds
    generation: int

    def body(self) -> str:
        """The signed part of the link: every field, in order."""
        return ".".join(
            (
                VERSION,
                str(self.guild_id),
                str(self.user_id),
                f"{_KIND_LETTER[self.kind]}{self.subject_id}",
                str(self.expires_at),
                str(self.generation),
            )
        )

    def allows(self, kind: Kind, subject_id: int) -> bool:
        """Whether this grant is for that game or round (a link never opens another)."""
        return self.kind == kind and self.subject_id == subject_id


def _mac(secret: bytes, body: str) -> str:
    digest = hmac.new(secret, body.encode("ascii"), hashlib.sha256).digest()[:MAC_BYTES]
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def sign(secret: bytes, grant: Grant) -> str:
    """The link's token for ``grant`` under ``secret``."""
    body = grant.body()
    return f"{body}.{_mac(secret, body)}"


def parse(token: str) -> tuple[Grant, str, str] | None:
    """The grant a token claims, its signed body and its mac; None when it is not a
    token at all. Nothing is checked here: see :func:`check`."""
    if len(token) > 200:
        return None
    parts = token.split(".")
    if len(parts) != 7 or parts[0] != VERSION:
        return None
    _, guild, user, subject, expires, generation, mac = parts
    kind = _LETTER.get(subject[:1])
    numbers = (guild, user, subject[1:], expires, generation)
    if kind is None or not all(n.isascii() and n.isdigit() and len(n) <= 20 for n in numbers):
        return None
    grant = Grant(int(guild), int(user), kind, int(subject[1:]), int(expires), int(generation))
    return grant, ".".join(parts[:6]), mac


def check(token: str, secret: bytes, generation: int, now: datetime) -> Grant:
    """The grant of a genuine, current token; else ``LinkRefused`` with why.

    A token made under an earlier generation is *revoked* (its club rotated the
    secret); one whose mac does not match is *forged*; one past its time is
    *expired*. The mac is compared in constant time."""
    parsed = parse(token)
    if parsed is None:
        raise LinkRefused(FORGED, code="link_forged")
    grant, body, mac = parsed
    if grant.generation < generation:
        raise LinkRefused(REVOKED, code="link_revoked")
    if grant.generation != generation or not hmac.compare_digest(_mac(secret, body), mac):
        raise LinkRefused(FORGED, code="link_forged")
    if grant.expires_at <= int(now.timestamp()):
        raise LinkRefused(EXPIRED, code="link_expired")
    return grant


def link_secret(settings: dict[str, Any] | None) -> tuple[bytes, int] | None:
    """The club's link secret and its generation, from ``guilds.settings["links"]``."""
    links = (settings or {}).get("links")
    if not isinstance(links, dict):
        return None
    secret, generation = links.get("secret"), links.get("generation")
    if not isinstance(secret, str) or not isinstance(generation, int):
        return None
    return bytes.fromhex(secret), generation


def with_new_secret(settings: dict[str, Any] | None) -> dict[str, Any]:
    """The club's settings with a new link secret of the next generation (a new dict:
    JSON columns are saved on reassignment)."""
    current = link_secret(settings)
    generation = current[1] + 1 if current is not None else 1
    return {
        **(settings or {}),
        "links": {"secret": secrets.token_hex(SECRET_BYTES), "generation": generation},
    }


def csrf_token(secret: bytes, grant: Grant) -> str:
    """The token a board page sends back with every change it asks for: an HMAC of the
    grant under the club's secret with a purpose of its own, so it is not the link (a
    page's script reads it; the link stays in an HTTP-only cookie) and a page of one
    member's board cannot make another's."""
    return _mac(secret, f"csrf.{grant.body()}")


@dataclass(frozen=True)
class BoardSession:
    """An open board: the grant its cookie carries, checked as :meth:`BoardLinks.open`
    checks a link, with what the page needs of its club."""

    grant: Grant
    token: str  # the link's token, kept in the cookie
    csrf: str
    language: str
    zone: ZoneInfo
    guild_name: str

    def csrf_ok(self, sent: str | None) -> bool:
        """Whether ``sent`` is this session's CSRF token (compared in constant time)."""
        return sent is not None and hmac.compare_digest(sent.encode(), self.csrf.encode())


@dataclass(frozen=True)
class _Club:
    """What a session needs of its club's row, read while the row is loaded (the read's
    unit of work ends with a rollback, which expires the row)."""

    settings: dict[str, Any]
    timezone: str
    name: str

    @classmethod
    def of(cls, guild: GuildRecord) -> _Club:
        return cls(dict(guild.settings or {}), guild.timezone, guild.name)


class BoardLinks:
    """Private board links: made for a member in a game, read back on the web page."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    @property
    def enabled(self) -> bool:
        """Whether boards can be opened at all: only while the bot serves web pages."""
        return self.ctx.settings.web_port is not None

    async def link(
        self, guild_id: int, user_id: int, kind: Kind, subject_id: int, *, guild_name: str = ""
    ) -> str | None:
        """The path of ``user_id``'s link to the board of one game or round (under the
        bot's web address), lasting ``LINK_DAYS`` days at most; None while the bot
        serves no web pages. The club's secret is made the first time."""
        if not self.enabled:
            return None
        expires = int((self.ctx.clock() + timedelta(days=LINK_DAYS)).timestamp())
        async with self.ctx.reader() as uow:
            guild = await uow.guilds.get(guild_id)
            current = link_secret(guild.settings if guild is not None else None)
        if current is None:
            async with self.ctx.uow() as uow:
                guild = await uow.guilds.ensure(guild_id, guild_name)
                current = link_secret(guild.settings)
                if current is None:  # nobody made it meanwhile
                    guild.settings = with_new_secret(guild.settings)
                    current = link_secret(guild.settings)
                await uow.commit()
        assert current is not None
        secret, generation = current
        grant = Grant(guild_id, user_id, kind, subject_id, expires, generation)
        return f"{LINK_PATH}{sign(secret, grant)}"

    async def rotate(self, guild_id: int, guild_name: str = "") -> None:
        """A new secret: every link given before is refused from now on."""
        async with self.ctx.uow() as uow:
            guild = await uow.guilds.ensure(guild_id, guild_name)
            guild.settings = with_new_secret(guild.settings)
            await uow.commit()

    async def open(self, token: str) -> Grant:
        """The grant of a link or session token, if it still opens its board: genuine,
        current, its game or round still on, and its member still playing in it.
        Otherwise ``LinkRefused``."""
        return (await self.session(token)).grant

    async def session(self, token: str) -> BoardSession:
        """:meth:`open`, with the session's CSRF token and the club's language, time
        zone and name: what a board page and each request of it need."""
        grant, club = await self._check(token)
        secret = link_secret(club.settings)
        assert secret is not None  # _check read it
        return BoardSession(
            grant,
            token,
            csrf_token(secret[0], grant),
            language_of(club.settings),
            club_zone(club.timezone),
            club.name,
        )

    async def _check(self, token: str) -> tuple[Grant, _Club]:
        parsed = parse(token)
        if parsed is None:
            raise LinkRefused(FORGED, code="link_forged")
        claimed = parsed[0]
        async with self.ctx.reader() as uow:
            guild = await uow.guilds.get(claimed.guild_id)
            current = link_secret(guild.settings if guild is not None else None)
            if guild is None or current is None:
                raise LinkRefused(FORGED, code="link_forged")
            grant = check(token, current[0], current[1], self.ctx.clock())
            if grant.kind == "screen":  # the club's own screen, and no other club's
                if grant.subject_id != grant.guild_id:
                    raise LinkRefused(NOT_YOURS, code="link_not_yours")
                return grant, _Club.of(guild)
            if grant.kind == "henyo_host":
                await _check_henyo_host(uow, grant)
                return grant, _Club.of(guild)
            if grant.kind == "puzzle":
                puzzle = await uow.puzzles.get(grant.subject_id)
                if puzzle is None or puzzle.guild_id != grant.guild_id:
                    raise LinkRefused(NOT_YOURS, code="link_not_yours")
                return grant, _Club.of(guild)
            if grant.kind == "boggle_daily":
                play = await uow.daily.play_of(grant.subject_id, grant.user_id)
                if play is None or play.guild_id != grant.guild_id:
                    raise LinkRefused(NOT_YOURS, code="link_not_yours")
                return grant, _Club.of(guild)
            if grant.kind == "boggle":
                round_ = await uow.boggle.get_round(grant.subject_id)
                if round_ is None or round_.guild_id != grant.guild_id:
                    raise LinkRefused(NOT_YOURS, code="link_not_yours")
                if round_.status not in _ROUND_SHOWN:
                    raise LinkRefused(ENDED, code="link_ended")
                return grant, _Club.of(guild)
            try:
                game = await uow.games.get(grant.subject_id, guild_id=grant.guild_id)
            except ClubError:
                raise LinkRefused(NOT_YOURS, code="link_not_yours") from None
            if game.kind != ("scrabble" if grant.kind == "tally" else grant.kind):
                raise LinkRefused(NOT_YOURS, code="link_not_yours")
            if game.status not in _PLAYING and not _shown_ended(
                game.status, game.finished_at, self.ctx.clock()
            ):
                raise LinkRefused(ENDED, code="link_ended")
            if all(seat.user_id != grant.user_id for seat in game.seats):
                raise LinkRefused(NOT_YOURS, code="link_not_yours")
            return grant, _Club.of(guild)


async def _check_henyo_host(uow: UnitOfWork, grant: Grant) -> None:
    """A Henyo host console's link (``h<round>``): a round played aloud in this club,
    not cancelled, whose host (or whose event's host) the link names. A finished
    round's console still opens (its last press may be undone)."""
    rnd = await uow.henyo.round(grant.subject_id)
    if rnd is None or rnd.guild_id != grant.guild_id or rnd.referee != "host":
        raise LinkRefused(NOT_YOURS, code="link_not_yours")
    if rnd.status == "cancelled":
        raise LinkRefused(ENDED, code="link_ended")
    hosts = {rnd.host_id}
    if rnd.event_id is not None:
        event = await uow.henyo.event(rnd.event_id)
        if event is not None:
            hosts.add(event.host_id)
    if grant.user_id not in hosts:
        raise LinkRefused(NOT_YOURS, code="link_not_yours")


def _shown_ended(status: str, finished_at: datetime | None, now: datetime) -> bool:
    """Whether a game over still shows its end to its players' links (``ENDED_VIEW``)."""
    if status not in _ENDED or finished_at is None:
        return False
    return now - finished_at <= ENDED_VIEW
