"""Puzzles on Discord: the position's buttons (Answer, Show solution), the answer form
and the board image.

The buttons are dynamic items (their custom id carries the puzzle), so they work on
replies sent before a restart; the form is answered by the cog's ``on_interaction``
listener from its custom id, as Word Boggle's is.
"""

from __future__ import annotations

import io
import re
from collections.abc import Awaitable
from typing import Any, Protocol

import discord

from bot.messages import puzzles as msg
from bot.messages.i18n import _
from bot.services.chess.snapshots import BoardImageArgs, color_key
from bot.services.puzzles.chess import CHESS
from bot.services.puzzles.service import SCRABBLE, PuzzleStreak, PuzzleView
from bot.services.scrabble import BoardPicture
from bot.ui.buttons import ButtonRoute, dispatch
from bot.ui.chess import render_board_png
from bot.ui.errors import ClubModal, ClubView
from bot.ui.scrabble import board_file

WORD_INPUT_ID = "puzzle:word"
POSITION_INPUT_ID = "puzzle:position"
MOVE_INPUT_ID = "puzzle:move"
FORM_ID = re.compile(r"puzzle:form:(\d+)")
MOVE_FORM_ID = re.compile(r"puzzle:moveform:(\d+)")  # a chess puzzle's form


class PuzzleButtonHandler(Protocol):
    async def open_form(
        self, interaction: discord.Interaction, puzzle_id: int, kind: str = SCRABBLE
    ) -> None: ...

    async def show_solution(self, interaction: discord.Interaction, puzzle_id: int) -> None: ...


PUZZLE_BUTTONS: ButtonRoute[PuzzleButtonHandler] = ButtonRoute("Puzzles")


class PuzzleButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"puzzle:(?P<action>answer|solution):(?P<puzzle_id>\d+)(?::(?P<kind>chess))?",
):
    """A puzzle's two buttons: "Answer" (opens the form) and "Show solution"; a chess
    puzzle's ids end in ``:chess`` (its form asks for a move)."""

    def __init__(self, action: str, puzzle_id: int, kind: str = SCRABBLE) -> None:
        label, style = (
            (_(msg.ANSWER_LABEL), discord.ButtonStyle.primary)
            if action == "answer"
            else (_(msg.SOLUTION_LABEL), discord.ButtonStyle.secondary)
        )
        suffix = ":chess" if kind == CHESS else ""
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"puzzle:{action}:{puzzle_id}{suffix}"
            )
        )
        self.action, self.puzzle_id, self.kind = action, puzzle_id, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PuzzleButton:
        return cls(match["action"], int(match["puzzle_id"]), match["kind"] or SCRABBLE)

    async def callback(self, interaction: discord.Interaction) -> None:
        def call(handler: PuzzleButtonHandler) -> Awaitable[None]:
            if self.action == "answer":
                return handler.open_form(interaction, self.puzzle_id, self.kind)
            return handler.show_solution(interaction, self.puzzle_id)

        await dispatch(interaction, PUZZLE_BUTTONS, call, where=f"puzzle button {self.action}")


def puzzle_buttons(puzzle_id: int, kind: str = SCRABBLE) -> discord.ui.View:
    view = ClubView(timeout=None)
    view.add_item(PuzzleButton("answer", puzzle_id, kind))
    view.add_item(PuzzleButton("solution", puzzle_id, kind))
    return view


class AnswerModal(ClubModal):
    """The form: the word and its position. Submissions are handled by the cog."""

    def __init__(self, puzzle_id: int) -> None:
        super().__init__(
            title=_(msg.FORM_TITLE), custom_id=f"puzzle:form:{puzzle_id}", timeout=None
        )
        self.word: discord.ui.TextInput[AnswerModal] = discord.ui.TextInput(
            label=_(msg.WORD_LABEL),
            custom_id=WORD_INPUT_ID,
            placeholder=_(msg.WORD_PLACEHOLDER),
            max_length=40,
            required=True,
        )
        self.position: discord.ui.TextInput[AnswerModal] = discord.ui.TextInput(
            label=_(msg.POSITION_LABEL),
            custom_id=POSITION_INPUT_ID,
            placeholder=msg.POSITION_PLACEHOLDER,
            max_length=4,
            required=True,
        )
        self.add_item(self.word)
        self.add_item(self.position)


class MoveModal(ClubModal):
    """A chess puzzle's form: the move (SAN or UCI). Submissions are handled by the cog."""

    def __init__(self, puzzle_id: int) -> None:
        super().__init__(
            title=_(msg.FORM_TITLE), custom_id=f"puzzle:moveform:{puzzle_id}", timeout=None
        )
        self.move: discord.ui.TextInput[MoveModal] = discord.ui.TextInput(
            label=_(msg.MOVE_LABEL),
            custom_id=MOVE_INPUT_ID,
            placeholder=_(msg.MOVE_PLACEHOLDER),
            max_length=20,
            required=True,
        )
        self.add_item(self.move)


async def puzzle_file(view: PuzzleView) -> discord.File:
    """The position as the board image the games use, described in its alt text (a chess
    puzzle's drawn from the solver's side, the move that led to it marked)."""
    if view.kind == CHESS:
        args: BoardImageArgs = {
            "fen": view.fen,
            "last_move": view.last_move,
            "orientation": color_key(view.color),
            "game_id": 0,
            "number": view.game_number,
            "ply": 0,
        }
        data = await render_board_png(args)
        return discord.File(
            io.BytesIO(data), filename=f"puzzle-{view.puzzle_id}.png", description=view.description
        )
    picture = BoardPicture(view.rows, (), (), description=view.description)
    return await board_file(picture, filename=f"puzzle-{view.puzzle_id}.png")


def add_stats_field(embed: discord.Embed, puzzles: PuzzleStreak | None) -> discord.Embed:
    """``/stats``: the member's puzzle rating, solved and missed, once they have finished
    one (their streak is among the streaks)."""
    if puzzles is not None and puzzles.rating is not None:
        value = msg.stats_line(puzzles.rating, puzzles.solved, puzzles.missed)
        embed.add_field(name=_(msg.STATS_TITLE), value=value, inline=False)
    return embed
