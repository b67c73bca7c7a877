"""Where the bot offers a member their own board (issue #28): the full address of
their private link, for an answer only they see or a DM only they get.

A link is a secret (whoever holds it acts as that member), so it is offered only
privately, never in a channel. Its address is the bot's public web address
(``WEB_BASE_URL``) and the link's path (``BoardLinks.link``). Discord's link
button needs an absolute http(s) address, so without ``WEB_BASE_URL`` (or
without ``WEB_PORT``: no page is served) nothing is offered and every answer
and DM reads as before.

A link is offered to a member seated in a game in play (``active``), or to anyone
of the club while a Boggle round is ``open``, with a puzzle of the club's, or while
the member's own countdown of the day's Boggle grid runs: the board a link opens,
and only that (``BoardLinks`` refuses the rest anyway: here nobody is shown a
button that would only be refused).

DMs are written to the outbox in the transaction of the change they announce; a
DM's link is made only as it is sent (``dm_button``, read back by
``url_for_dm``), for the member the DM goes to. So the link is never stored in
an outbox row, is current after a ``/club web rotate`` made in between, and the
partners of a pair, whose DMs are one text, each get a link naming themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args
from urllib.parse import urlsplit

from bot.errors import ClubError
from bot.messages.limits import BUTTON_URL_CHARS
from bot.messages.post import ViewSpec
from bot.services import ServiceContext
from bot.services.board_links import BoardLinks, Kind
from bot.services.web import page_url

# The outbox's name for "this DM carries its member's board link" (a DM-only view).
VIEW_BOARD_LINK = "board_link"
# The state a game or round is in while its board can be played on.
_IN_PLAY = {"scrabble": "active", "chess": "active", "boggle": "open", "tally": "active"}
# Boards of a member's own that are not a game's: a puzzle of the club's (offered with
# the puzzle), their play of the day's Boggle grid (offered while its countdown runs).
_OWN = frozenset({"puzzle", "boggle_daily"})
_KINDS: dict[str, Kind] = {kind: kind for kind in get_args(Kind)}


def absolute_base(base_url: str | None) -> str | None:
    """``base_url`` when it is an absolute http(s) address; else None."""
    if not base_url:
        return None
    parts = urlsplit(base_url)
    return base_url if parts.scheme in ("http", "https") and parts.netloc else None


class BoardAddresses:
    """The address of a member's board link, where the bot may offer one."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.links = BoardLinks(ctx)

    @property
    def offered(self) -> bool:
        """Whether the bot offers links at all: it serves pages (``WEB_PORT``) at an
        absolute address members can reach (``WEB_BASE_URL``)."""
        return self.links.enabled and absolute_base(self.ctx.settings.web_base_url) is not None

    async def url(
        self, guild_id: int, user_id: int, kind: Kind, subject_id: int, *, guild_name: str = ""
    ) -> str | None:
        """The absolute address of ``user_id``'s link to one game (its id, not its
        number) or Boggle round; None where none is offered: no address, a game not
        in play or not theirs, a round not open."""
        base = absolute_base(self.ctx.settings.web_base_url)
        if base is None or not self.links.enabled:
            return None
        if not await self._playable(guild_id, user_id, kind, subject_id):
            return None
        path = await self.links.link(guild_id, user_id, kind, subject_id, guild_name=guild_name)
        if path is None:
            return None
        address = page_url(base, path)
        return address if len(address) <= BUTTON_URL_CHARS else None

    async def screen_url(self, guild_id: int, user_id: int, *, guild_name: str = "") -> str | None:
        """The absolute address of the club's room screen (issue #29), made for the
        moderator ``user_id`` who asked; None while the bot offers no links."""
        base = absolute_base(self.ctx.settings.web_base_url)
        if base is None or not self.links.enabled:
            return None
        path = await self.links.link(guild_id, user_id, "screen", guild_id, guild_name=guild_name)
        if path is None:
            return None
        address = page_url(base, path)
        return address if len(address) <= BUTTON_URL_CHARS else None

    async def _playable(self, guild_id: int, user_id: int, kind: Kind, subject_id: int) -> bool:
        if kind not in _IN_PLAY and kind not in _OWN:  # the room's screen is no member's board
            return False
        async with self.ctx.reader() as uow:
            if kind == "puzzle":
                puzzle = await uow.puzzles.get(subject_id)
                return puzzle is not None and puzzle.guild_id == guild_id
            if kind == "boggle_daily":
                play = await uow.daily.play_of(subject_id, user_id)
                return (
                    play is not None
                    and play.guild_id == guild_id
                    and self.ctx.clock() < play.ends_at
                )
            if kind == "boggle":
                round_ = await uow.boggle.get_round(subject_id)
                return (
                    round_ is not None
                    and round_.guild_id == guild_id
                    and round_.status == _IN_PLAY[kind]
                )
            try:
                # A board's tally in the room is a Scrabble game's other page.
                game_kind = "scrabble" if kind == "tally" else kind
                game = await uow.games.get(subject_id, guild_id=guild_id, kind=game_kind)
            except ClubError:
                return False
            return game.status == _IN_PLAY[kind] and any(
                seat.user_id == user_id for seat in game.seats
            )

    def dm_button(self, guild_id: int, kind: Kind, subject_id: int) -> ViewSpec | None:
        """What a DM about this game or round carries so that its member gets their
        link when it is sent (see the module's note); None while none is offered, so
        the DM is written as it always was."""
        if not self.offered:
            return None
        return ViewSpec(
            VIEW_BOARD_LINK, {"guild_id": guild_id, "kind": kind, "subject_id": subject_id}
        )

    async def url_for_dm(self, args: Mapping[str, Any], user_id: int) -> str | None:
        """The address a DM written with ``dm_button`` carries for ``user_id``, the member
        it is sent to, as things stand now (None when the game ended meanwhile)."""
        kind = _KINDS.get(str(args.get("kind")))
        guild_id, subject_id = args.get("guild_id"), args.get("subject_id")
        if kind is None or not isinstance(guild_id, int) or not isinstance(subject_id, int):
            return None
        return await self.url(guild_id, user_id, kind, subject_id)
