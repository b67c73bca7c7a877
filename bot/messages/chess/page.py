"""The words of a member's own chess board page (``bot/web/board_chess.py``) that
change with the game: whose move it is, the draw offer, how the game ended.

Plain text, not markdown: the page shows it as text. The page's fixed words
(the buttons, the pieces' names) are its template's.
"""

from __future__ import annotations

import chess

from bot.messages.chess import colour, finish_text
from bot.messages.chess.facts import GameFacts
from bot.messages.i18n import N_, _
from engines.chess_game import numbered_moves

YOUR_MOVE = N_("Your move.")
YOUR_MOVE_IN_CHECK = N_("Your move: you are in check.")
THEIR_MOVE = N_("{name} to move ({side}).")
THEIR_MOVE_IN_CHECK = N_("{name} to move ({side}), in check.")
WAITING = N_("Waiting for the challenge to be accepted.")
CALLED_OFF = N_("This game was called off before it started.")
OFFER_MINE = N_("You offered a draw: waiting for {name} to answer.")
OFFER_THEIRS = N_("{name} offers a draw.")
LAST_MOVE = N_("Last move: {move}.")


def status_text(game: GameFacts, viewer: chess.Color | None) -> str:
    """One line: whose move it is (the viewer's own, said so), or how the game ended."""
    if game.status == "invited":
        return _(WAITING)
    if game.status == "abandoned":
        return _(CALLED_OFF)
    finish = game.finish
    if finish is not None:
        return f"{finish.result} — {finish_text(finish, game.white.name, game.black.name)}"
    board = game.board
    check = board.is_check()
    if board.turn == viewer:
        return _(YOUR_MOVE_IN_CHECK if check else YOUR_MOVE)
    mover = game.white if board.turn == chess.WHITE else game.black
    template = THEIR_MOVE_IN_CHECK if check else THEIR_MOVE
    return _(template).format(name=mover.name, side=colour(board.turn))


def draw_text(game: GameFacts, viewer: chess.Color | None) -> str:
    """The draw offer waiting for its answer, as the viewer reads it; empty when none."""
    offer = game.draw_offer
    if offer is None or game.status != "active":
        return ""
    if offer == viewer:
        other = game.black if viewer == chess.WHITE else game.white
        return _(OFFER_MINE).format(name=other.name)
    offering = game.white if offer == chess.WHITE else game.black
    return _(OFFER_THEIRS).format(name=offering.name)


def last_move_text(game: GameFacts) -> str:
    """The last move, numbered ("Last move: 12... Qxe4."); empty before the first."""
    if not game.moves:
        return ""
    return _(LAST_MOVE).format(move=numbered_moves(game.sans, last=1))
