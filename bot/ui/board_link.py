"""The **Open the board** button: a member's private link to their own board (issue #28).

It is a link button (Discord opens the address; the bot gets no click), put only
on what one member sees: an ephemeral answer or a DM. The address comes from
``bot.services.board_address``; where it gives none (no ``WEB_BASE_URL``, no
``WEB_PORT``, a game not in play or not theirs), no button is added and the
message is as it was.

A DM goes through the outbox: ``BoardLinkDms`` is the outbox's builder for the
DMs written with ``BoardAddresses.dm_button``, and makes the link for the member
the DM is being sent to. The outbox never puts such a view on a channel post
(a DM that falls back to the game's thread goes without it).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot.messages.board_link import OPEN_BOARD
from bot.messages.i18n import _
from bot.services.board_address import BoardAddresses

log = logging.getLogger(__name__)


def board_link_button(url: str, label: str = OPEN_BOARD) -> discord.ui.Button[discord.ui.View]:
    """The button itself, in the active language (``label``: a message id)."""
    return discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=_(label))


def with_board_link(view: discord.ui.View | None, url: str | None) -> discord.ui.View | None:
    """``view`` with the button added after its own (a new view when there is none);
    ``view`` unchanged when there is no address."""
    if url is None:
        return view
    if view is None:
        view = discord.ui.View(timeout=None)
    view.add_item(board_link_button(url))
    return view


def board_link_view(url: str | None, label: str = OPEN_BOARD) -> discord.ui.View | None:
    """A view holding only the button (labelled ``label``, a message id); None when
    there is no address."""
    if url is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(board_link_button(url, label))
    return view


class BoardLinkDms:
    """The outbox's builder of a DM's button (``VIEW_BOARD_LINK``), for its recipient."""

    def __init__(self, addresses: BoardAddresses) -> None:
        self.addresses = addresses

    async def __call__(self, args: Mapping[str, Any], user_id: int) -> discord.ui.View | None:
        # The DM's text is what matters (a turn, a reminder): a link that cannot be
        # made now is left off rather than holding the DM back.
        try:
            url = await self.addresses.url_for_dm(args, user_id)
        except Exception:
            log.warning("no board link for %s in a DM (%s)", user_id, dict(args), exc_info=True)
            return None
        return board_link_view(url)
