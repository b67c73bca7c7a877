"""Scrabble's Discord pieces: buttons, views, image files, the outbox renderers.

Buttons are ``DynamicItem``s: their custom ids carry the game (and the move the
button belongs to), so they keep working after a restart without any state in
memory. What a click does lives in the cog; it registers itself as the
``ScrabbleActions`` to ``SCRABBLE_BUTTONS`` (``bot.ui.buttons``) and the buttons call it.
Images are rendered in a worker thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from bot.render.scrabble import ScrabbleBoardView, render_rack, render_scrabble_board
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


def board_png(picture: BoardPicture, size: int = BOARD_PX) -> bytes:
    view = ScrabbleBoardView(
        tiles=picture.tiles(), last_play=picture.last_cells(), header=list(picture.header)
    )
    return render_scrabble_board(view, size)


async def board_file(picture: BoardPicture, filename: str = "scrabble-board.png") -> discord.File:
    data = await asyncio.to_thread(board_png, picture)
    return discord.File(
        io.BytesIO(data), filename=filename, description="Scrabble board (described in the message)"
    )


async def rack_file(tiles: str) -> discord.File:
    data = await asyncio.to_thread(render_rack, list(tiles))
    return discord.File(
        io.BytesIO(data),
        filename="scrabble-rack.png",
        description="Your rack (listed in the message)",
    )


async def render_board_for_outbox(args: dict[str, Any]) -> tuple[str, bytes]:
    picture = BoardPicture.from_args(args)
    data = await asyncio.to_thread(board_png, picture)
    return str(args.get("filename") or "scrabble-board.png"), data


async def render_text_for_outbox(args: dict[str, Any]) -> tuple[str, bytes]:
    return str(args.get("filename") or "scrabble.txt"), str(args.get("text", "")).encode("utf-8")


# -- buttons -----------------------------------------------------------------------------


async def _run(
    interaction: discord.Interaction,
    name: str,
    call: Callable[[ScrabbleActions], Awaitable[None]],
) -> None:
    await dispatch(interaction, SCRABBLE_BUTTONS, call, where=f"button {name}")


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"scrabble:join:(?P<game>\d+)",
):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Accept",
                style=discord.ButtonStyle.success,
                custom_id=f"scrabble:join:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(interaction, "join", lambda actions: actions.join(interaction, self.game_id))


class DeclineButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"scrabble:decline:(?P<game>\d+)",
):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Decline",
                style=discord.ButtonStyle.secondary,
                custom_id=f"scrabble:decline:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DeclineButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(
            interaction, "decline", lambda actions: actions.decline(interaction, self.game_id)
        )


class RackButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"scrabble:rack:(?P<game>\d+)",
):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Show my rack",
                style=discord.ButtonStyle.primary,
                custom_id=f"scrabble:rack:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RackButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(
            interaction, "rack", lambda actions: actions.show_rack(interaction, self.game_id)
        )


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"scrabble:challenge:(?P<game>\d+):(?P<ply>\d+)",
):
    def __init__(self, game_id: int, ply: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Challenge",
                style=discord.ButtonStyle.danger,
                custom_id=f"scrabble:challenge:{game_id}:{ply}",
            )
        )
        self.game_id = game_id
        self.ply = ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChallengeButton:
        return cls(int(match["game"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(
            interaction,
            "challenge",
            lambda actions: actions.challenge_button(interaction, self.game_id, self.ply),
        )


class AcceptPlayButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"scrabble:accept:(?P<game>\d+):(?P<ply>\d+)",
):
    def __init__(self, game_id: int, ply: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Accept final play",
                style=discord.ButtonStyle.success,
                custom_id=f"scrabble:accept:{game_id}:{ply}",
            )
        )
        self.game_id = game_id
        self.ply = ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AcceptPlayButton:
        return cls(int(match["game"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(
            interaction,
            "accept",
            lambda actions: actions.accept_button(interaction, self.game_id, self.ply),
        )


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


def rack_message(text: str, game_summary: str) -> str:
    return f"{text}\n\n{game_summary}"[:1990]


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
    "rack_message",
    "render_board_for_outbox",
    "render_text_for_outbox",
]
