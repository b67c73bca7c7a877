"""Pillow images of boards, grids, racks and leaderboards (no discord).

Every function returns PNG bytes, depends only on its arguments (the same
input gives the same bytes) and is safe to call from a thread pool: the bot
renders off the event loop. Static layers are cached per size at module level.
"""

from bot.render.boggle import render_boggle_grid
from bot.render.chess import render_chess_board
from bot.render.leaderboard import render_leaderboard
from bot.render.scrabble import ScrabbleBoardView, render_rack, render_scrabble_board

__all__ = [
    "ScrabbleBoardView",
    "render_boggle_grid",
    "render_chess_board",
    "render_leaderboard",
    "render_rack",
    "render_scrabble_board",
]
