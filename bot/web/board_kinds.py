"""The kinds of board a member can open from their link (``bot.web.boards``): one
entry each, made with the service context."""

from __future__ import annotations

from bot.services import ServiceContext
from bot.services.board_links import Kind
from bot.web.board_boggle import BoggleBoard, DailyBoggleBoard
from bot.web.board_chess import ChessBoard
from bot.web.board_henyo_host import HenyoHostBoard
from bot.web.board_puzzle import PuzzleBoard
from bot.web.board_scrabble import ScrabbleBoard
from bot.web.board_tally import TallyBoard
from bot.web.boards import BoardKind
from bot.web.screen import ScreenBoard


def board_kinds(ctx: ServiceContext) -> dict[Kind, BoardKind]:
    """Every board kind the web server serves, by its name in the path."""
    kinds: list[BoardKind] = [
        ChessBoard(ctx),
        BoggleBoard(ctx),
        DailyBoggleBoard(ctx),
        ScrabbleBoard(ctx),
        TallyBoard(ctx),
        HenyoHostBoard(ctx),
        ScreenBoard(ctx),
        PuzzleBoard(ctx),
    ]
    return {board.kind: board for board in kinds}
