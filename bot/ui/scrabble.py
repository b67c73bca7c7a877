"""Scrabble's Discord pieces: buttons, views, image files, the outbox renderers.

Buttons are ``DynamicItem``s: their custom ids carry the game (and the move the
button belongs to), so they keep working after a restart without any state in
memory. What a click does lives in the cog: its ``ScrabbleButtons`` is bound as
the ``ScrabbleActions`` of ``SCRABBLE_BUTTONS`` (``bot.ui.buttons``) and the buttons
call it. Images are drawn in a worker process (``bot.offload``), never on the event loop, and
every file carries its alt text.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Protocol, Self

import discord

from bot.messages import scrabble as msg
from bot.messages.i18n import N_, _
from bot.offload import draw
from bot.render.scrabble import render_rack, scrabble_board_png
from bot.services.scrabble import BoardPicture
from bot.ui.buttons import ButtonRoute, dispatch

log = logging.getLogger(__name__)

BOARD_PX = 900


class ScrabbleActions(Protocol):
    async def join(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def decline(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def show_rack(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def challenge_button(
        self, interaction: discord.Interaction, game_id: int, ply: int
    ) -> None: ...
    async def accept_button(
        self, interaction: discord.Interaction, game_id: int, ply: int
    ) -> None: ...


SCRABBLE_BUTTONS: ButtonRoute[ScrabbleActions] = ButtonRoute("Scrabble")


# -- images ------------------------------------------------------------------------------


async def board_png(picture: BoardPicture, size: int = BOARD_PX) -> bytes:
    """The board's PNG, drawn in a worker process (or found drawn already)."""
    return await draw(scrabble_board_png, picture.rows, picture.last, picture.header, size)


async def board_file(picture: BoardPicture, filename: str = "scrabble-board.png") -> discord.File:
    data = await board_png(picture)
    description = picture.description or "Scrabble board (described in the message)"
    return discord.File(io.BytesIO(data), filename=filename, description=description)


async def rack_file(tiles: str) -> discord.File:
    # The image shows the tiles and nothing else (no name, no game), so the cache's key
    # (the tiles) holds all it depends on.
    data = await draw(render_rack, tuple(tiles))
    return discord.File(
        io.BytesIO(data), filename="scrabble-rack.png", description=msg.rack_text(tiles)
    )


def text_file(text: str, filename: str, description: str) -> discord.File:
    return discord.File(
        io.BytesIO(text.encode("utf-8")), filename=filename, description=description
    )


async def render_board_for_outbox(args: dict[str, Any]) -> tuple[str, bytes]:
    data = await board_png(BoardPicture.from_args(args))
    return str(args.get("filename") or "scrabble-board.png"), data


async def render_text_for_outbox(args: dict[str, Any]) -> tuple[str, bytes]:
    return str(args.get("filename") or "scrabble.txt"), str(args.get("text", "")).encode("utf-8")


# -- buttons -----------------------------------------------------------------------------


class _GameButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"(?!)",  # each button below has its own
):
    """A button of one game (``scrabble:<action>:<game>``), or of one move of it
    (``…:<ply>``), whose press goes to the cog's ``ScrabbleActions``."""

    action: ClassVar[str]
    label: ClassVar[str]
    style: ClassVar[discord.ButtonStyle]

    def __init__(self, game_id: int, ply: int | None = None) -> None:
        custom_id = f"scrabble:{self.action}:{game_id}" + ("" if ply is None else f":{ply}")
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=_(self.label), style=self.style, custom_id=custom_id
        )
        super().__init__(button)
        self.game_id = game_id
        self.ply = ply or 0

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        ply = match.groupdict().get("ply")
        return cls(int(match["game"]), None if ply is None else int(ply))

    async def callback(self, interaction: discord.Interaction) -> None:
        press = _PRESSES[self.action]
        await dispatch(
            interaction,
            SCRABBLE_BUTTONS,
            lambda actions: press(actions, interaction, self.game_id, self.ply),
            where=f"button {self.action}",
        )


# What each button does, as (the cog's actions, the click, the game, the move) -> the answer.
_PRESSES: dict[str, Callable[[ScrabbleActions, discord.Interaction, int, int], Awaitable[None]]] = {
    "join": lambda actions, interaction, game_id, ply: actions.join(interaction, game_id),
    "decline": lambda actions, interaction, game_id, ply: actions.decline(interaction, game_id),
    "rack": lambda actions, interaction, game_id, ply: actions.show_rack(interaction, game_id),
    "challenge": lambda actions, interaction, game_id, ply: actions.challenge_button(
        interaction, game_id, ply
    ),
    "accept": lambda actions, interaction, game_id, ply: actions.accept_button(
        interaction, game_id, ply
    ),
}


class JoinButton(_GameButton, template=r"scrabble:join:(?P<game>\d+)"):
    action, label, style = "join", N_("Accept"), discord.ButtonStyle.success


class DeclineButton(_GameButton, template=r"scrabble:decline:(?P<game>\d+)"):
    action, label, style = "decline", N_("Decline"), discord.ButtonStyle.secondary


class RackButton(_GameButton, template=r"scrabble:rack:(?P<game>\d+)"):
    action, label, style = "rack", N_("Show my rack"), discord.ButtonStyle.primary


class ChallengeButton(_GameButton, template=r"scrabble:challenge:(?P<game>\d+):(?P<ply>\d+)"):
    action, label, style = "challenge", N_("Challenge"), discord.ButtonStyle.danger


class AcceptPlayButton(_GameButton, template=r"scrabble:accept:(?P<game>\d+):(?P<ply>\d+)"):
    action, label, style = "accept", N_("Accept final play"), discord.ButtonStyle.success


DYNAMIC_ITEMS = (JoinButton, DeclineButton, RackButton, ChallengeButton, AcceptPlayButton)


def invite_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(game_id))
    view.add_item(DeclineButton(game_id))
    return view


def board_view(args: dict[str, Any]) -> discord.ui.View:
    """Buttons under a board post: rack, and Challenge/Accept while they apply."""
    game_id, ply = int(args["game_id"]), int(args.get("ply", 0))
    view = discord.ui.View(timeout=None)
    view.add_item(RackButton(game_id))
    if args.get("challenge"):
        view.add_item(ChallengeButton(game_id, ply))
    if args.get("accept"):
        view.add_item(AcceptPlayButton(game_id, ply))
    return view


__all__ = [
    "DYNAMIC_ITEMS",
    "SCRABBLE_BUTTONS",
    "AcceptPlayButton",
    "ChallengeButton",
    "DeclineButton",
    "JoinButton",
    "RackButton",
    "ScrabbleActions",
    "board_file",
    "board_png",
    "board_view",
    "invite_view",
    "rack_file",
    "render_board_for_outbox",
    "render_text_for_outbox",
    "text_file",
]
