"""Chess on Discord: buttons, board files and embeds.

Buttons are ``DynamicItem``s whose custom ids carry the game (and, for
promotions, the position's ply), so they keep working after a restart without
any in-memory view. A click is handed to the ``ChessButtonHandler`` registered
for the client (the chess cog), and any error goes through the central handler.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, Literal, Protocol, cast

import chess
import discord

from bot.messages import chess as msg
from bot.messages.i18n import _
from bot.offload import draw
from bot.render.chess import chess_board_png, render_chess_board
from bot.services.chess import BoardImageArgs, ChessSnapshot, OpeningPlan, PromotionNeeded
from bot.ui import threads
from bot.ui.buttons import ButtonRoute, dispatch
from bot.ui.errors import NO_MENTIONS, discords_trouble

log = logging.getLogger(__name__)

BOARD_SIZE = 400


async def open_game_thread(client: discord.Client, plan: OpeningPlan) -> int | None:
    """The accepted game's thread, started from its invitation (``bot.ui.threads``):
    made once, however often this runs. None plays in the channel; Discord's own
    trouble (5xx, 429) is raised, so the opening job tries again later."""
    return await threads.open_game_thread(
        client,
        plan.channel_id,
        message_id=plan.message_id,
        name=plan.thread_name,
        member_ids=plan.user_ids,
        archive_minutes=threads.ARCHIVE_LIVE if plan.is_live else threads.ARCHIVE_CORRESPONDENCE,
        what=f"chess #{plan.game_id}",
    )


async def post_game_announcement(
    client: discord.Client, channel_id: int, content: str, nonce: str
) -> int | None:
    """A computer game's announcement, posted by its opening job when the command's
    reply never was: ``enforce_nonce`` makes a repeat after a crash return the same
    message. None when the channel cannot take it; Discord's own trouble (5xx, 429)
    is raised, so the job tries again later."""
    channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        return None
    try:
        message = await channel.send(content, nonce=nonce, allowed_mentions=NO_MENTIONS)
    except discord.HTTPException as error:
        if discords_trouble(error):
            raise
        log.warning("could not announce chess game in %s: %s", channel_id, error)
        return None
    return message.id


OFFER_SCAN = 50  # how far back a channel is searched for an answered offer's buttons


def draw_button_ids(game_id: int) -> frozenset[str]:
    """The custom ids of a game's draw offer buttons (``draw_offer_view``)."""
    return frozenset(f"chess:draw:{action}:{game_id}" for action in ("accept", "decline"))


def carries_any(message: discord.Message, custom_ids: frozenset[str]) -> bool:
    """Whether one of the message's buttons has one of ``custom_ids``."""
    return any(
        getattr(child, "custom_id", None) in custom_ids
        for row in message.components
        for child in getattr(row, "children", ())
    )


async def remove_offer_buttons(client: discord.Client, channel_id: int, game_id: int) -> None:
    """An answered draw offer's buttons off every post of the bot's that carries them
    among the channel's latest ``OFFER_SCAN`` (the offer's post, and any board posted
    while it waited). A channel gone or closed to the bot is left as it is (a stale
    button still says the offer was answered); Discord's own trouble (5xx, 429) is
    raised, so the job tries again later."""
    ids = draw_button_ids(game_id)
    me = client.user.id if client.user is not None else None
    try:
        channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return
        async for message in channel.history(limit=OFFER_SCAN):
            if message.author.id == me and carries_any(message, ids):
                await message.edit(view=None)
    except discord.HTTPException as error:
        if discords_trouble(error):
            raise
        log.info(
            "could not take the draw buttons of chess #%s off in %s: %s", game_id, channel_id, error
        )


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


Answer = Literal["invite", "draw"]  # a challenge's answer, or a draw offer's
_LABELS: dict[tuple[Answer, str], str] = {
    ("invite", "accept"): msg.ACCEPT,
    ("invite", "decline"): msg.DECLINE,
    ("draw", "accept"): msg.ACCEPT_DRAW,
    ("draw", "decline"): msg.DECLINE_DRAW,
}


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"chess:(?P<what>invite|draw):(?P<action>accept|decline):(?P<game_id>\d+)",
):
    """Accept or Decline: a challenge (``chess:invite:…``) or a draw offer (``chess:draw:…``)."""

    def __init__(self, what: Answer, game_id: int, action: str) -> None:
        accept = action == "accept"
        super().__init__(
            discord.ui.Button(
                label=_(_LABELS[what, action]),
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
                custom_id=f"chess:{what}:{action}:{game_id}",
            )
        )
        self.game_id = game_id
        self.action = action
        self.what: Answer = what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AnswerButton:
        what: Answer = "invite" if match["what"] == "invite" else "draw"
        return cls(what, int(match["game_id"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        def answer(handler: ChessButtonHandler) -> Awaitable[None]:
            clicked = handler.invite_clicked if self.what == "invite" else handler.draw_clicked
            return clicked(interaction, self.game_id, self.action)

        await dispatch(interaction, CHESS_BUTTONS, answer, where=f"chess button {self.what}")


class PromotionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"chess:promote:(?P<game_id>\d+):(?P<ply>\d+):(?P<uci>[a-h][1-8][a-h][1-8][qrbn])",
):
    def __init__(self, game_id: int, ply: int, uci: str, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or _(msg.PIECE_NAMES[uci[-1]]),
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


DYNAMIC_ITEMS = (AnswerButton, PromotionButton)


def _answers(what: Answer, game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AnswerButton(what, game_id, "accept"))
    view.add_item(AnswerButton(what, game_id, "decline"))
    return view


def invite_view(game_id: int) -> discord.ui.View:
    return _answers("invite", game_id)


def draw_offer_view(game_id: int) -> discord.ui.View:
    return _answers("draw", game_id)


def promotion_view(choice: PromotionNeeded) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for san, uci in choice.options:
        view.add_item(
            PromotionButton(
                choice.game_id, choice.ply, uci, label=msg.promotion_label(uci[-1], san)
            )
        )
    return view


# ------------------------------------------------------------------ images


async def render_board_png(args: BoardImageArgs, size: int = BOARD_SIZE) -> bytes:
    """The board PNG, drawn in a worker process (or found drawn already)."""
    return await draw(
        chess_board_png,
        args["fen"],
        args.get("last_move"),
        str(args.get("orientation", "white")),
        size,
    )


def _filename(args: BoardImageArgs) -> str:
    # Boards written before games had numbers carry only the id, which was their number.
    number = args.get("number", args.get("game_id", "board"))
    return f"chess-{number}-{args.get('ply', 0)}.png"


async def outbox_board_renderer(stored: Mapping[str, object]) -> tuple[str, bytes]:
    """The outbox's file renderer for board posts written by the service."""
    args = cast(BoardImageArgs, stored)  # written by ChessSnapshot.board_image
    return _filename(args), await render_board_png(args)


async def board_file(snap: ChessSnapshot, *, viewer: chess.Color | None = None) -> discord.File:
    """The board as an attachment with alt text; from the side to move unless ``viewer`` is given."""
    spec = snap.board_image(viewer)
    args = cast(BoardImageArgs, spec.args)
    data = await render_board_png(args)
    return discord.File(io.BytesIO(data), filename=_filename(args), description=spec.description)


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


def games_embed(snaps: Sequence[ChessSnapshot], user_id: int) -> discord.Embed:
    embed = discord.Embed(title=_(msg.GAMES_TITLE), colour=discord.Colour.dark_green())
    current = [s for s in snaps if s.status in ("invited", "active")]
    finished = [s for s in snaps if s.status not in ("invited", "active")]
    embed.add_field(
        name=_(msg.GAMES_IN_PROGRESS),
        value=msg.games_list(current, user_id) or _(msg.NO_GAMES),
        inline=False,
    )
    if finished:
        embed.add_field(
            name=_(msg.GAMES_FINISHED), value=msg.games_list(finished, user_id), inline=False
        )
    return embed


__all__ = [
    "CHESS_BUTTONS",
    "DYNAMIC_ITEMS",
    "AnswerButton",
    "ChessButtonHandler",
    "PromotionButton",
    "board_file",
    "draw_offer_view",
    "games_embed",
    "mentions",
    "outbox_board_renderer",
    "promotion_view",
    "remove_offer_buttons",
    "render_board_png",
    "warm_up_renderer",
]
