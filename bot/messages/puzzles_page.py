"""The words of a member's puzzle page (``bot/web/board_puzzle.py``) that change with
their attempt: where it stands, where the puzzle comes from, their answers so far (a
chess puzzle's: whose move, and the rating it left).

Plain text, not markdown: the page shows it as text. The page's fixed words (the
buttons, the headings) are its template's; the judgement of an answer and the
solution are the Answer form's own (``bot.messages.puzzles``), their markdown taken off
(``plain_text``).
"""

from __future__ import annotations

import chess

from bot.messages.chess import colour
from bot.messages.i18n import N_, _, ngettext

TITLE = N_("Puzzle {number}")
FROM_GAME = N_("From Scrabble #{game}, move {move}.")
RATED = N_("Puzzle rating {rating}: {solved} of {tried} members solved it.")
UNRATED = N_("Puzzle rating {rating}: nobody has tried it yet.")
SOLVED = N_("You solved this puzzle: the top plays are below.")
OVER = N_("This puzzle is over for you: the top plays are below.")
CHESS_FROM_GAME = N_("From Chess #{game}, move {move}.")
CHESS_SOLVED = N_("You solved this puzzle: the solution is below.")
CHESS_OVER = N_("This puzzle is over for you: the solution is below.")
CHESS_ON_THE_BOARD = N_("Make your move on the board: one wrong move ends the puzzle.")
REFUSED_ANSWER = N_("{play}: refused")
SCORED_ANSWER = N_("{play}: {score}")


def title(number: int) -> str:
    return _(TITLE).format(number=number)


def status_text(status: str, tries_left: int) -> str:
    """What to do now (an attempt under way), or that it is over."""
    if status == "solved":
        return _(SOLVED)
    if status != "open":
        return _(OVER)
    return ngettext(
        "Find the play that scores the most on this board (any play scoring as much solves "
        "it): put tiles from your rack on the board and press Answer. {count} try left.",
        "Find the play that scores the most on this board (any play scoring as much solves "
        "it): put tiles from your rack on the board and press Answer. {count} tries left.",
        tries_left,
    ).format(count=tries_left)


def source_text(game: int, move: int, rating: float, solved: int, tried: int) -> str:
    """Where the puzzle comes from, and how hard it has been."""
    return f"{_(FROM_GAME).format(game=game, move=move)} {_hardness(rating, solved, tried)}"


def _hardness(rating: float, solved: int, tried: int) -> str:
    if tried:
        return _(RATED).format(rating=round(rating), solved=solved, tried=tried)
    return _(UNRATED).format(rating=round(rating))


def chess_status_text(status: str, side: chess.Color, *, started: bool) -> str:
    """A chess puzzle's: whose move and what to do (its first move, or the next one
    after the bot's reply), or that it is over."""
    if status == "solved":
        return _(CHESS_SOLVED)
    if status != "open":
        return _(CHESS_OVER)
    find = (
        _("{side} to move: find the next move.")
        if started
        else _("{side} to move: find the best move.")
    )
    return f"{find.format(side=colour(side))} {_(CHESS_ON_THE_BOARD)}"


def chess_source_text(game: int, move: int, rating: float, solved: int, tried: int) -> str:
    """Where a chess puzzle comes from, and how hard it has been."""
    return f"{_(CHESS_FROM_GAME).format(game=game, move=move)} {_hardness(rating, solved, tried)}"


def rating_text(rating: float, change: float) -> str:
    """The member's puzzle rating after the attempt, and how it moved (as the form says)."""
    return _("Puzzle rating: {rating} ({change}).").format(
        rating=round(rating), change=f"{change:+.0f}"
    )


def answer_line(play: str, score: int | None) -> str:
    """One of the member's answers: the play and its score, or that it was refused."""
    if score is None:
        return _(REFUSED_ANSWER).format(play=play)
    return _(SCORED_ANSWER).format(play=play, score=score)


def plain_text(text: str) -> str:
    """A Discord answer's text as the page shows it: without its bold marks."""
    return text.replace("**", "")
