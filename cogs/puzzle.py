"""/puzzle: a position from the club's finished games to solve, privately; its Answer
form and Show solution button. Thin: parse, call ``PuzzleService``, answer privately."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.services.board_address import BoardAddresses
from bot.services.puzzles.chess import CHESS
from bot.services.puzzles.service import (
    SCRABBLE,
    AnswerOutcome,
    PuzzleService,
    PuzzleView,
)
from bot.ui import puzzles as ui
from bot.ui.board_link import with_board_link
from bot.ui.buttons import buttons_of
from bot.ui.errors import handle_interaction_error, reply_privately, think
from bot.ui.modals import modal_text
from bot.ui.permissions import require_guild
from bot.ui.puzzle_daily import DAILY_BUTTONS
from bot.ui.views import view_kwargs

GameChoice = Literal["scrabble", "chess"]


class PuzzleCog(commands.Cog):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.service = PuzzleService(bot.ctx)
        self.boards = BoardAddresses(bot.ctx)

    @app_commands.command(name="puzzle", description="A position from the club's games to solve")
    @app_commands.describe(game="Which game's puzzles: Scrabble, or chess (with Stockfish)")
    @app_commands.guild_only()
    async def puzzle(self, interaction: discord.Interaction, game: GameChoice = "scrabble") -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        view = await self.service.next_puzzle(
            guild.id, interaction.user.id, interaction.user.display_name, game
        )
        await self._show(interaction, guild, view)

    async def _show(
        self, interaction: discord.Interaction, guild: discord.Guild, view: PuzzleView
    ) -> None:
        """The puzzle, privately: its board, its words, its buttons (and board link)."""
        # The member's own page of the puzzle (their answer is private: so is the link),
        # the Scrabble board or the chess board as the puzzle's game is.
        url = await self.boards.url(
            guild.id, interaction.user.id, "puzzle", view.puzzle_id, guild_name=guild.name
        )
        await reply_privately(
            interaction,
            view.text,
            files=[await ui.puzzle_file(view)],
            **view_kwargs(with_board_link(ui.puzzle_buttons(view.puzzle_id, view.kind), url)),
        )

    # -- the buttons and the form ------------------------------------------------------

    async def solve(self, interaction: discord.Interaction, puzzle_id: int) -> None:
        """The daily puzzle post's Solve button: that puzzle, privately, as /puzzle gives
        it; one the member finished shows its solution again."""
        await think(interaction, private=True)
        guild = require_guild(interaction)
        opened = await self.service.open_puzzle(
            guild.id, interaction.user.id, interaction.user.display_name, puzzle_id
        )
        if isinstance(opened, PuzzleView):
            await self._show(interaction, guild, opened)
        else:
            await self._reply(interaction, opened)

    async def open_form(
        self, interaction: discord.Interaction, puzzle_id: int, kind: str = SCRABBLE
    ) -> None:
        modal = ui.MoveModal(puzzle_id) if kind == CHESS else ui.AnswerModal(puzzle_id)
        await interaction.response.send_modal(modal)
        modal.stop()  # the listener below answers it, after a restart too

    async def show_solution(self, interaction: discord.Interaction, puzzle_id: int) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        outcome = await self.service.show_solution(
            guild.id, interaction.user.id, interaction.user.display_name, puzzle_id
        )
        await self._reply(interaction, outcome)

    @commands.Cog.listener("on_interaction")
    async def on_form_submit(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data = interaction.data
        custom_id = str(data.get("custom_id", "") if data else "")
        match = ui.FORM_ID.fullmatch(custom_id)
        move = ui.MOVE_FORM_ID.fullmatch(custom_id)
        if match is None and move is None:
            return
        try:
            await think(interaction, private=True)
            guild = require_guild(interaction)
            user = interaction.user
            if move is not None:
                outcome = await self.service.answer_move(
                    guild.id,
                    user.id,
                    user.display_name,
                    int(move.group(1)),
                    modal_text(data, ui.MOVE_INPUT_ID),
                )
            else:
                assert match is not None
                outcome = await self.service.answer(
                    guild.id,
                    user.id,
                    user.display_name,
                    int(match.group(1)),
                    modal_text(data, ui.WORD_INPUT_ID),
                    modal_text(data, ui.POSITION_INPUT_ID),
                )
            await self._reply(interaction, outcome)
        except Exception as error:
            await handle_interaction_error(interaction, error, where="puzzle form")

    async def _reply(self, interaction: discord.Interaction, outcome: AnswerOutcome) -> None:
        """The answer's verdict; a chess puzzle going on shows its position after the
        bot's reply, with its buttons again."""
        kind = outcome.view.kind if outcome.view is not None else SCRABBLE
        buttons = None if outcome.finished else ui.puzzle_buttons(outcome.puzzle_id, kind)
        files = [await ui.puzzle_file(outcome.view)] if outcome.view is not None else []
        await reply_privately(
            interaction, outcome.text, files=files or None, **view_kwargs(buttons)
        )


async def setup(bot: ClubBot) -> None:
    cog = PuzzleCog(bot)
    await bot.add_cog(cog)
    buttons_of(bot).bind(ui.PUZZLE_BUTTONS, cog)
    buttons_of(bot).bind(DAILY_BUTTONS, cog)  # the daily puzzle's Solve (cogs/puzzle_daily.py)
    bot.add_dynamic_items(ui.PuzzleButton)
    bot.scheduler.register_service(cog.service)
