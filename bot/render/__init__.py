"""Pillow images of boards, grids, racks and leaderboards (no discord).

Every function returns PNG bytes, depends only on its arguments (the same
input gives the same bytes) and is safe to call from a thread or a worker
process: the bot renders off the event loop (``bot.offload``), so the functions
it sends take plain data (``…_png``). Static layers are cached per size at
module level.
"""

from bot.render.boggle import boggle_grid_png, render_boggle_grid
from bot.render.chess import chess_board_png, render_chess_board
from bot.render.leaderboard import render_leaderboard
from bot.render.scrabble import (
    ScrabbleBoardView,
    render_rack,
    render_scrabble_board,
    scrabble_board_png,
)

__all__ = [
    "ScrabbleBoardView",
    "boggle_grid_png",
    "chess_board_png",
    "render_boggle_grid",
    "render_chess_board",
    "render_leaderboard",
    "render_rack",
    "render_scrabble_board",
    "scrabble_board_png",
]
