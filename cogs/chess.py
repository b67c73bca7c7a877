"""/chess: challenge (a member or the computer), move, resign, draw, board, PGN,
games, vacation, analyse, and the invitation's, draw offer's and promotion's buttons.

Thin: parse the options, call the use case on ``ChessService``
(``service.starting``, ``service.moves``, …), answer. A move made where the game
is played is answered privately; its board reaches the thread through the outbox.

Over 400 lines for a reason: one module holds one command group (DESIGN.md), and
its nine commands declare their options, descriptions and autocompletes here,
where Discord reads them.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.messages import chess as msg
from bot.messages.chess import refusals
from bot.messages.errors import refusal
from bot.messages.i18n import _
from bot.messages.matchmaking import seek_posted_reply
from bot.messages.text import clip
from bot.services.board_address import BoardAddresses
from bot.services.chess import (
    BOARD_RENDERER,
    DRAW_OFFER_VIEW,
    ChessService,
    ChessUpdate,
    PlayerRef,
    PromotionNeeded,
)
from bot.services.chess.endings import OfferAnsweredError
from bot.services.chess.engine import INSTALL_HINT, MAX_LEVEL, MIN_LEVEL
from bot.services.matchmaking import MAX_OPEN_SEEKS, MatchmakingService
from bot.services.rematch_offer import REMATCH_VIEW
from bot.ui.board_link import board_link_view
from bot.ui.buttons import buttons_of
from bot.ui.chess import (
    CHESS_BUTTONS,
    DYNAMIC_ITEMS,
    board_file,
    draw_offer_view,
    games_embed,
    invite_view,
    mentions,
    open_game_thread,
    outbox_board_renderer,
    post_game_announcement,
    promotion_view,
    remove_offer_buttons,
    warm_up_renderer,
)
from bot.ui.errors import NO_MENTIONS, reply_privately, reply_publicly, think, update_later
from bot.ui.game_lookup import GameLookup
from bot.ui.matchmaking import DYNAMIC_ITEMS as MATCH_ITEMS
from bot.ui.matchmaking import bind as bind_matchmaking
from bot.ui.matchmaking import rematch_view, seek_mentions, seek_view
from bot.ui.permissions import require_guild
from bot.ui.views import view_kwargs

log = logging.getLogger(__name__)

GAME_HELP = "Which game (defaults to this thread's game, or your only game)"


class ChessCog(
    GameLookup,
    commands.GroupCog,
    group_name="chess",
    group_description="Play chess: live or by correspondence",
):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.service = ChessService(bot.ctx)
        self.finder = self.service.finder
        self.boards = BoardAddresses(bot.ctx)
        self.matchmaking = MatchmakingService(bot.ctx, chess=self.service)
        self.service.starting.thread_opener = lambda plan: open_game_thread(bot, plan)
        self.service.endings.offer_buttons_remover = lambda channel_id, game_id: (
            remove_offer_buttons(bot, channel_id, game_id)
        )
        self.service.starting.announcer = lambda channel_id, content, nonce: post_game_announcement(
            bot, channel_id, content, nonce
        )
        self._renderer_warm = False
        super().__init__()

    # ------------------------------------------------------------------ helpers

    def _warm_renderer(self) -> None:
        """Cache the piece images in a worker thread once a game is in the offing,
        so the first board reply doesn't pay for them (and bot start-up doesn't either)."""
        if not self._renderer_warm:
            self._renderer_warm = True
            asyncio.get_running_loop().run_in_executor(None, warm_up_renderer)

    def _player(self, user: discord.abc.User) -> PlayerRef:
        return PlayerRef(user.id, getattr(user, "display_name", None) or user.name)

    async def _send_update(self, interaction: discord.Interaction, update: ChessUpdate) -> None:
        """Reply with the board: publicly in the game's thread, privately elsewhere (the thread got it).
        A move's board always goes through the outbox: in the thread the reply only acknowledges it."""
        snap = update.snapshot
        if update.posted_here:
            await reply_privately(interaction, clip(msg.posted_here(update.headline)))
            return
        file = await board_file(snap)
        if update.announced_elsewhere:
            await reply_privately(
                interaction, clip(msg.posted_in(snap.place_id) + update.text), files=[file]
            )
            return
        view = draw_offer_view(snap.game_id) if snap.offers_draw else None
        await reply_publicly(
            interaction,
            update.text,
            notify=True,
            file=file,
            allowed_mentions=mentions(update.mention_user_ids),
            **view_kwargs(view),
        )

    # ------------------------------------------------------------------ starting

    @app_commands.command(
        name="new", description="Challenge a member (or me, for the computer) to a game of chess"
    )
    @app_commands.describe(
        opponent="A member to challenge, or me to play the Stockfish engine (if the bot has STOCKFISH_PATH set)",
        time="Per move: 3d, 12h (a plain number is days); or a live clock: 10+5 (min+s per move), 3m, 90s",
        color="Your colour (random by default)",
        level=f"The computer's strength, {MIN_LEVEL} (gentle) to {MAX_LEVEL} (full strength); only against me",
        partner="Your partner: either of you moves for your side",
        opponent_partner="opponent's partner (both of them must accept)",
    )
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        time: app_commands.Range[str, 1, 20] | None = None,
        color: Literal["white", "black", "random"] | None = None,
        level: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL] | None = None,
        partner: discord.User | None = None,
        opponent_partner: discord.User | None = None,
    ) -> None:
        await think(interaction, private=False)
        guild = require_guild(interaction)
        self._warm_renderer()
        me = self.bot.user
        partners = [m for m in (partner, opponent_partner) if m is not None]
        if me is not None and opponent.id == me.id:
            if partners:
                await reply_privately(interaction, _(refusals.COMPUTER_ONE_PLAYER))
                return
            await self._new_vs_computer(interaction, guild, time, color, level)
            return
        if any(m.bot for m in (opponent, *partners)):
            await reply_privately(interaction, _(refusals.OTHER_BOTS))
            return
        snap = await self.service.starting.challenge(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id or 0,
            challenger=self._player(interaction.user),
            opponent=self._player(opponent),
            time_control=time,
            color=color,
            partner=self._player(partner) if partner else None,
            opponent_partner=self._player(opponent_partner) if opponent_partner else None,
        )
        invited = [opponent.id, *(m.id for m in partners)]
        text = (
            msg.team_invitation(snap, interaction.user.id, invited)
            if partners
            else msg.invitation(snap, interaction.user.id, opponent.id)
        )
        await reply_publicly(
            interaction,
            text,
            notify=True,
            view=invite_view(snap.game_id),
            allowed_mentions=mentions(invited),
        )

    @app_commands.command(name="seek", description="Post an open challenge any member may accept")
    @app_commands.describe(
        time="Per move: 3d, 12h; or a live clock: 10+5, 3m (default as /chess new)",
        color="Your colour (random by default)",
    )
    @app_commands.guild_only()
    async def seek(
        self,
        interaction: discord.Interaction,
        time: app_commands.Range[str, 1, 20] | None = None,
        color: Literal["white", "black", "random"] | None = None,
    ) -> None:
        guild = require_guild(interaction)
        await think(interaction, private=False)  # the post follows, pinging the role
        snap = await self.matchmaking.seeks.post(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id or 0,
            user=(interaction.user.id, self._player(interaction.user).name),
            options={"time": time, "color": color},
        )
        sent = await reply_publicly(
            interaction,
            snap.post_text(),
            notify=True,
            view=seek_view("chess", snap.seek_id),
            allowed_mentions=seek_mentions(snap.role_id),
        )
        post = sent if sent is not None else await interaction.original_response()
        await self.matchmaking.seeks.record_message(snap.seek_id, post.id)
        await reply_privately(interaction, seek_posted_reply(snap.open_count, MAX_OPEN_SEEKS))

    async def _new_vs_computer(
        self,
        interaction: discord.Interaction,
        guild: discord.Guild,
        time: str | None,
        color: str | None,
        level: int | None,
    ) -> None:
        me = self.bot.user
        assert me is not None
        snap = await self.service.starting.play_computer(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id or 0,
            player=self._player(interaction.user),
            computer=PlayerRef(me.id, msg.COMPUTER_NAME),
            level=level,
            time_control=time,
            color=color,
        )
        await reply_publicly(
            interaction,
            msg.computer_game_started(snap, interaction.user.id, snap.level),
            allowed_mentions=NO_MENTIONS,
        )
        # Half-open like an accepted game: the reply is the message its thread is made
        # from. If the bot dies before this, the opening job posts it and opens the game.
        reply = await interaction.original_response()
        await self.service.starting.record_opening(snap.game_id, reply.id)
        await self.service.starting.open(snap.game_id)

    # ButtonHandler: the invitation's Accept / Decline
    async def invite_clicked(
        self, interaction: discord.Interaction, game_id: int, action: str
    ) -> None:
        await update_later(interaction)
        if action == "accept":
            message = interaction.message
            waiting = await self.service.starting.accept(
                game_id,
                self._player(interaction.user),
                message_id=message.id if message is not None else None,
            )
            if waiting.status == "invited":  # a pair's game: others still to accept
                await reply_privately(interaction, msg.waiting_for(waiting, waiting.waiting_for))
                return
            # The buttons stay until the game is open in its thread: after a crash
            # half-way, another click (or the opening job) finishes it, once.
            if message is None:
                snap = await self.service.starting.open_in(game_id, None)
            else:
                snap = await self.service.starting.open(game_id)
            in_thread = isinstance(interaction.channel, discord.Thread)
            try:
                await interaction.edit_original_response(
                    content=msg.accepted(snap, in_thread=in_thread),
                    view=None,
                    allowed_mentions=NO_MENTIONS,
                )
            except discord.HTTPException:
                pass  # cosmetic only: the game is open either way
            return
        snap = await self.service.starting.decline(game_id, interaction.user.id)
        withdrawn = interaction.user.id == snap.created_by
        await interaction.edit_original_response(
            content=msg.challenge_answered(
                snap, withdrawn=withdrawn, by=interaction.user.display_name
            ),
            view=None,
            allowed_mentions=NO_MENTIONS,
        )

    # ------------------------------------------------------------------ playing

    @app_commands.command(
        name="move", description="Play a move: SAN like Nf3, O-O, e8=Q or UCI like g1f3"
    )
    @app_commands.describe(move="Your move (suggestions show the legal moves)", game=GAME_HELP)
    @app_commands.guild_only()
    async def move(
        self,
        interaction: discord.Interaction,
        move: app_commands.Range[str, 1, 20],
        game: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        try:
            update = await self.service.moves.play(
                self._asked(interaction, game),
                interaction.user.id,
                move,
                reply_channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
            )
        except PromotionNeeded as choice:
            await reply_privately(interaction, refusal(choice), view=promotion_view(choice))
            return
        await self._send_update(interaction, update)

    @move.autocomplete("move")
    async def _move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild is None:
            return []
        game = getattr(interaction.namespace, "game", None)
        try:
            choices = await self.service.reading.move_choices(
                guild_id=interaction.guild.id,
                user_id=interaction.user.id,
                channel_id=interaction.channel_id,
                game_id=game if isinstance(game, str) and game else None,
                typed=current or "",
            )
        except Exception:  # a suggestion list must never fail the member's typing
            log.exception("chess move suggestions failed")
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in choices]

    # ButtonHandler: a promotion piece
    async def promotion_clicked(
        self, interaction: discord.Interaction, game_id: int, ply: int, uci: str
    ) -> None:
        await think(interaction, private=True)
        update = await self.service.moves.play(
            game_id,
            interaction.user.id,
            uci,
            reply_channel_id=interaction.channel_id,
            expected_ply=ply,
        )
        await self._send_update(interaction, update)

    @app_commands.command(name="resign", description="Resign a chess game")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        update = await self.service.endings.resign(
            self._asked(interaction, game),
            interaction.user.id,
            reply_channel_id=interaction.channel_id,
            guild_id=interaction.guild_id,
        )
        await self._send_update(interaction, update)

    @app_commands.command(
        name="draw", description="Offer, accept or decline a draw, or claim one the rules allow"
    )
    @app_commands.describe(
        action="offer / accept / decline an offer, or claim (threefold repetition, fifty moves)",
        game=GAME_HELP,
    )
    @app_commands.guild_only()
    async def draw(
        self,
        interaction: discord.Interaction,
        action: Literal["offer", "accept", "decline", "claim"],
        game: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        update = await self.service.endings.draw(
            self._asked(interaction, game),
            interaction.user.id,
            action,
            reply_channel_id=interaction.channel_id,
            guild_id=interaction.guild_id,
        )
        await self._send_update(interaction, update)

    # ButtonHandler: Accept draw / Decline draw
    async def draw_clicked(
        self, interaction: discord.Interaction, game_id: int, action: str
    ) -> None:
        await think(interaction, private=True)
        try:
            update = await self.service.endings.draw(
                game_id,
                interaction.user.id,
                action,
                reply_channel_id=interaction.channel_id,
                answering=True,
            )
        except OfferAnsweredError:
            await self._offer_answered(interaction)
            raise  # said privately by the error handler; nothing changed
        await self._send_update(interaction, update)
        await self._offer_answered(interaction)

    @staticmethod
    async def _offer_answered(interaction: discord.Interaction) -> None:
        """The offer is answered: the pressed post's buttons go (the others' go by the
        job the answer scheduled)."""
        if interaction.message is not None:
            try:
                await interaction.message.edit(view=None)
            except discord.HTTPException:
                pass

    @app_commands.command(
        name="vacation", description="Pause your clock in correspondence games (0 days: back now)"
    )
    @app_commands.describe(
        days="How many days you are away (at most 14 per game in total; 0 ends it)",
        game="One game only (default: all your correspondence games)",
    )
    @app_commands.guild_only()
    async def vacation(
        self,
        interaction: discord.Interaction,
        days: app_commands.Range[int, 0, 14],
        game: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        game_id = None if game is None else await self._game_id(interaction, game)
        if game_id is None and interaction.channel_id is not None:
            # Inside a game's thread the command means that game; elsewhere, all of them.
            game_id = await self.service.reading.game_in_thread(
                guild_id=guild.id, channel_id=interaction.channel_id
            )
        result = await self.service.vacations.take(
            guild_id=guild.id, user_id=interaction.user.id, days=days, game_id=game_id
        )
        await reply_privately(interaction, result.text)

    # ------------------------------------------------------------------ reading

    @app_commands.command(name="board", description="Show a chess game's board (only you see it)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        snap = await self.service.reading.snapshot(
            self._asked(interaction, game, want="any"), guild_id=interaction.guild_id
        )
        file = await board_file(snap, viewer=snap.color_of(interaction.user.id))
        # The answer is private, so it may carry the member's own board link (a player's
        # in a game in play only).
        url = await self.boards.url(snap.guild_id, interaction.user.id, "chess", snap.game_id)
        await reply_privately(
            interaction, msg.board_text(snap), files=[file], **view_kwargs(board_link_view(url))
        )

    @app_commands.command(name="pgn", description="Export a chess game as a PGN file")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def pgn(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        found = await self._game(interaction, game, want="any")
        filename, text = await self.service.reading.pgn(
            found.game_id, guild_id=interaction.guild_id
        )
        pgn = discord.File(
            io.BytesIO(text.encode("utf-8")),
            filename=filename,
            description=msg.pgn_description(found.number),
        )
        await reply_privately(interaction, msg.pgn_reply(found.number), files=[pgn])

    @app_commands.command(name="games", description="Your chess games and invitations")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        snaps = await self.service.reading.games_of(guild_id=guild.id, user_id=interaction.user.id)
        await reply_privately(interaction, embed=games_embed(snaps, interaction.user.id))

    @app_commands.command(
        name="analyse",
        description="The biggest mistakes of each side in a finished game (Stockfish)",
    )
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def analyse(self, interaction: discord.Interaction, game: str | None = None) -> None:
        if self.service.engine is None:  # a fixed answer, no work: straight away
            await reply_privately(interaction, _(INSTALL_HINT))
            return
        # Private "thinking…": a report for the game's own channel replaces it publicly
        await think(interaction, private=True)
        game_id = await self._game_id(interaction, game, want="any")
        snap = await self.service.analysis.analysable(game_id, guild_id=interaction.guild_id)
        report = await self.service.analysis.analyse(game_id, guild_id=interaction.guild_id)
        if interaction.channel_id == snap.place_id:
            await reply_publicly(interaction, report.text, allowed_mentions=NO_MENTIONS)
        else:
            await reply_privately(interaction, report.text)

    # ------------------------------------------------------------------ autocomplete of `game`

    async def _games_in_play(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._game_choices(interaction, current, want="playing")

    async def _any_games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Games in progress, then the latest finished (for commands that read a game)."""
        return await self._game_choices(interaction, current, want="any")

    for _command in (move, resign, draw, vacation):
        _command.autocomplete("game")(_games_in_play)
    for _command in (board, pgn, analyse):
        _command.autocomplete("game")(_any_games)
    del _command


async def setup(bot: ClubBot) -> None:
    cog = ChessCog(bot)
    bot.scheduler.register_service(cog.service)
    bot.outbox.renderers[BOARD_RENDERER] = outbox_board_renderer
    bot.outbox.views[DRAW_OFFER_VIEW] = lambda args: draw_offer_view(int(args["game_id"]))
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    buttons_of(bot).bind(CHESS_BUTTONS, cog)
    bot.scheduler.register_service(cog.matchmaking)
    bot.outbox.views[REMATCH_VIEW] = rematch_view
    bot.add_dynamic_items(*MATCH_ITEMS)
    bind_matchmaking(bot, cog.matchmaking)
    await bot.add_cog(cog)
