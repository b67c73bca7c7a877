"""Chess on Discord: buttons, board files and embeds.

Buttons are ``DynamicItem``s whose custom ids carry the game (and, for
promotions, the position's ply), so they keep working after a restart without
any in-memory view. A click is handed to the ``ChessButtonHandler`` registered
for the client (the chess cog), and any error goes through the central handler.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Sequence
from typing import Any, Protocol

import chess
import discord

from bot.render.chess import render_chess_board
from bot.services.chess import (
    ChessSnapshot,
    PromotionNeeded,
    board_alt_text,
    board_image_args,
    game_line,
)
from bot.ui.buttons import ButtonRoute, dispatch
from bot.ui.errors import NO_MENTIONS

log = logging.getLogger(__name__)

BOARD_SIZE = 400
_PIECE_NAMES = {"q": "Queen", "r": "Rook", "b": "Bishop", "n": "Knight"}


class ChessButtonHandler(Protocol):
    async def invite_clicked(
        self, interaction: discord.Interaction, game_id: int, action: str
    ) -> None: ...

    async def draw_clicked(
        self, interaction: discord.Interaction, game_id: int, action: str
    ) -> None: ...

    async def promotion_clicked(
        self, interaction: discord.Interaction, game_id: int, ply: int, uci: str
    ) -> None: ...


CHESS_BUTTONS: ButtonRoute[ChessButtonHandler] = ButtonRoute("Chess")


class InviteButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"chess:invite:(?P<action>accept|decline):(?P<game_id>\d+)",
):
    def __init__(self, game_id: int, action: str) -> None:
        accept = action == "accept"
        super().__init__(
            discord.ui.Button(
                label="Accept" if accept else "Decline",
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
                custom_id=f"chess:invite:{action}:{game_id}",
            )
        )
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> InviteButton:
        return cls(int(match["game_id"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            CHESS_BUTTONS,
            lambda chess: chess.invite_clicked(interaction, self.game_id, self.action),
            where="chess button invite_clicked",
        )


class DrawButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"chess:draw:(?P<action>accept|decline):(?P<game_id>\d+)",
):
    def __init__(self, game_id: int, action: str) -> None:
        accept = action == "accept"
        super().__init__(
            discord.ui.Button(
                label="Accept draw" if accept else "Decline draw",
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
                custom_id=f"chess:draw:{action}:{game_id}",
            )
        )
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DrawButton:
        return cls(int(match["game_id"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            CHESS_BUTTONS,
            lambda chess: chess.draw_clicked(interaction, self.game_id, self.action),
            where="chess button draw_clicked",
        )


class PromotionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"chess:promote:(?P<game_id>\d+):(?P<ply>\d+):(?P<uci>[a-h][1-8][a-h][1-8][qrbn])",
):
    def __init__(self, game_id: int, ply: int, uci: str, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or _PIECE_NAMES[uci[-1]],
                style=discord.ButtonStyle.primary
                if uci.endswith("q")
                else discord.ButtonStyle.secondary,
                custom_id=f"chess:promote:{game_id}:{ply}:{uci}",
            )
        )
        self.game_id = game_id
        self.ply = ply
        self.uci = uci

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PromotionButton:
        return cls(int(match["game_id"]), int(match["ply"]), match["uci"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            CHESS_BUTTONS,
            lambda chess: chess.promotion_clicked(interaction, self.game_id, self.ply, self.uci),
            where="chess button promotion_clicked",
        )


DYNAMIC_ITEMS = (InviteButton, DrawButton, PromotionButton)


def invite_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(InviteButton(game_id, "accept"))
    view.add_item(InviteButton(game_id, "decline"))
    return view


def draw_offer_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DrawButton(game_id, "accept"))
    view.add_item(DrawButton(game_id, "decline"))
    return view


def promotion_view(choice: PromotionNeeded) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for san, uci in choice.options:
        view.add_item(
            PromotionButton(
                choice.game_id, choice.ply, uci, label=f"{_PIECE_NAMES[uci[-1]]} ({san})"
            )
        )
    return view


# ------------------------------------------------------------------ images


def _render(args: dict[str, Any], orientation: str | None = None) -> bytes:
    board = chess.Board(args["fen"])
    last = chess.Move.from_uci(args["last_move"]) if args.get("last_move") else None
    side = (
        chess.WHITE if (orientation or args.get("orientation", "white")) == "white" else chess.BLACK
    )
    return render_chess_board(
        board, orientation=side, size=int(args.get("size", BOARD_SIZE)), last_move=last
    )


async def render_board_png(args: dict[str, Any], orientation: str | None = None) -> bytes:
    """The board PNG, drawn in a worker thread so the event loop stays free."""
    return await asyncio.to_thread(_render, args, orientation)


def _filename(args: dict[str, Any]) -> str:
    return f"chess-{args.get('game_id', 'board')}-{args.get('ply', 0)}.png"


async def outbox_board_renderer(args: dict[str, Any]) -> tuple[str, bytes]:
    """The outbox's file renderer for board posts written by the service."""
    return _filename(args), await render_board_png(args)


async def board_file(snap: ChessSnapshot, *, viewer: chess.Color | None = None) -> discord.File:
    """The board as an attachment with alt text; from the side to move unless ``viewer`` is given."""
    args = board_image_args(snap)
    orientation = None if viewer is None else ("white" if viewer == chess.WHITE else "black")
    data = await render_board_png(args, orientation)
    return discord.File(
        io.BytesIO(data), filename=_filename(args), description=board_alt_text(snap)[:1000]
    )


def warm_up_renderer() -> None:
    """Draw one board so the piece images are cached before the first move."""
    try:
        render_chess_board(chess.Board(), size=BOARD_SIZE)
    except Exception:  # only a speed-up: the first real render will say what is wrong
        log.exception("warming up the chess renderer failed")


# ------------------------------------------------------------------ text helpers


def mentions(user_ids: Sequence[int]) -> discord.AllowedMentions:
    if not user_ids:
        return NO_MENTIONS
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in user_ids]
    )


def invite_text(snap: ChessSnapshot, challenger_id: int, opponent_id: int) -> str:
    challenger_white = snap.white.user_id == challenger_id
    colour = "White" if challenger_white else "Black"
    return (
        f"<@{opponent_id}>, <@{challenger_id}> challenges you to chess #{snap.game_id} "
        f"({snap.control.label()}; they play {colour}). Accept to start: the game gets its own thread."
    )


def games_embed(snaps: Sequence[ChessSnapshot], user_id: int) -> discord.Embed:
    embed = discord.Embed(title="Your chess games", colour=discord.Colour.dark_green())
    current = [s for s in snaps if s.status in ("invited", "active")]
    finished = [s for s in snaps if s.status not in ("invited", "active")]

    def describe(snap: ChessSnapshot) -> str:
        line = game_line(snap, user_id)
        flag = snap.flag_time()
        if flag is not None:
            line += f" · time runs out <t:{int(flag.timestamp())}:R>"
        if snap.place_id:
            line += f" · <#{snap.place_id}>"
        return line

    embed.add_field(
        name="In progress",
        value="\n".join(describe(s) for s in current)[:1024]
        or "None. Start one with `/chess new opponent:@member`.",
        inline=False,
    )
    if finished:
        embed.add_field(
            name="Recently finished",
            value="\n".join(describe(s) for s in finished)[:1024],
            inline=False,
        )
    return embed


__all__ = [
    "CHESS_BUTTONS",
    "DYNAMIC_ITEMS",
    "ChessButtonHandler",
    "DrawButton",
    "InviteButton",
    "PromotionButton",
    "board_file",
    "draw_offer_view",
    "games_embed",
    "invite_text",
    "mentions",
    "outbox_board_renderer",
    "promotion_view",
    "render_board_png",
    "warm_up_renderer",
]
