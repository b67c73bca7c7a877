"""The words of a member's puzzle page (``bot/web/board_puzzle.py``) that change with
their attempt: where it stands, where the puzzle comes from, their answers so far.

Plain text, not markdown: the page shows it as text. The page's fixed words (the
buttons, the headings) are its template's; the judgement of an answer and the
solution are the Answer form's own (``bot.messages.puzzles``), their markdown taken off
(``plain_text``).
"""

from __future__ import annotations

from bot.messages.i18n import N_, _, ngettext

TITLE = N_("Puzzle {number}")
FROM_GAME = N_("From Scrabble #{game}, move {move}.")
RATED = N_("Puzzle rating {rating}: {solved} of {tried} members solved it.")
UNRATED = N_("Puzzle rating {rating}: nobody has tried it yet.")
SOLVED = N_("You solved this puzzle: the top plays are below.")
OVER = N_("This puzzle is over for you: the top plays are below.")
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
    hard = (
        _(RATED).format(rating=round(rating), solved=solved, tried=tried)
        if tried
        else _(UNRATED).format(rating=round(rating))
    )
    return f"{_(FROM_GAME).format(game=game, move=move)} {hard}"


def answer_line(play: str, score: int | None) -> str:
    """One of the member's answers: the play and its score, or that it was refused."""
    if score is None:
        return _(REFUSED_ANSWER).format(play=play)
    return _(SCORED_ANSWER).format(play=play, score=score)


def plain_text(text: str) -> str:
    """A Discord answer's text as the page shows it: without its bold marks."""
    return text.replace("**", "")
