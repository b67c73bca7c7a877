"""A chess tournament played over the board (``where: room``): the players report
each game's result with ``/tournament result``; both reports agreeing record it,
two that differ go to the director. Texts only: no Discord here."""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages.i18n import N_, _, ngettext
from bot.messages.text import plain

BOARD_SOURCE = "board"  # a pairing's source once both players' reports agreed
UNKNOWN_WHERE = N_(
    "Where is `discord` (the games are played here) or `room` (over the board, the players "
    "report each result)."
)
ROOM_CHESS_ONLY = N_(
    "Only a chess tournament is played over the board: a Scrabble tournament's games are "
    "played here."
)
REPORT_CHOICES = N_("Your result is `win`, `draw` or `loss` (yours, not your opponent's).")
CREATED_LINE = N_(
    "Played over the board in the room: the bot pairs each round, and both players of a "
    "game report its result with `/tournament result`."
)
PAIRED_TAIL = N_(
    "Over the board: the first named on a board has White. When your game ends, you and "
    "your opponent each report its result with `/tournament result`."
)

# The round's post's buttons, each a player's own result.
WON_BUTTON = N_("I won")
DRAW_BUTTON = N_("Draw")
LOST_BUTTON = N_("I lost")

# A member's own result, as the messages say it (the director's log too).
RESULTS = {"win": N_("a win"), "draw": N_("a draw"), "loss": N_("a loss")}


def result_word(result: str) -> str:
    """``win``, ``draw`` or ``loss`` as the club reads it (a win, a draw, a loss)."""
    return _(RESULTS[result]) if result in RESULTS else result


def score_text(first_score: float) -> str:
    """The board's score, White's first: 1–0, 0–1 or ½–½."""
    return {1.0: "1–0", 0.0: "0–1"}.get(first_score, "½–½")


def played_in_discord(name: str) -> str:
    return _(
        "{name}'s games are played here in Discord: each result comes from the game itself."
    ).format(name=plain(name, 60))


def not_playing(name: str) -> str:
    return _("You are not playing in {name}: only a game's two players report its result.").format(
        name=plain(name, 60)
    )


def no_game(name: str, number: int) -> str:
    return _("You have no game in round {round} of {name}.").format(
        round=number, name=plain(name, 60)
    )


def bye(number: int) -> str:
    return _("You have a bye in round {round}: there is no result to report.").format(round=number)


def round_not_started(number: int) -> str:
    return _(
        "Round {round} is paired but has not started: report your result once it is under way."
    ).format(round=number)


def already_recorded(number: int, board: int, first_score: float) -> str:
    return _(
        "Round {round}, board {board} has its result already ({score}): the director can "
        "change it with `/tournament adjudicate`."
    ).format(round=number, board=board, score=score_text(first_score))


def awaiting_director(board: int) -> str:
    return _(
        "Your opponent has reported already, so your report can no longer change: the "
        "director decides board {board} with `/tournament adjudicate`."
    ).format(board=board)


def noted(result: str, number: int, board: int, opponent: str) -> str:
    return _(
        "Noted: {result} for you in round {round}, board {board}. It counts once {opponent} "
        "reports the same; you can change yours until then."
    ).format(result=result_word(result), round=number, board=board, opponent=plain(opponent, 40))


def agreed(number: int, board: int, first_score: float) -> str:
    return _("Both reports agree: round {round}, board {board} ends {score}. Recorded.").format(
        round=number, board=board, score=score_text(first_score)
    )


def agreed_post(
    name: str,
    number: int,
    board: int,
    white: str,
    black: str,
    score: float,
    ratings: Sequence[tuple[str, float, float]] = (),
) -> str:
    """The board's result in the tournament's channel, with the ratings it moved (each
    member's name, rating before and after), as a finished online game shows them."""
    text = _(
        "♟️ **{name}**, round {round}, board {board}: {white} {score} {black} (over the board)."
    ).format(
        name=plain(name, 80),
        round=number,
        board=board,
        white=plain(white, 40),
        black=plain(black, 40),
        score=score_text(score),
    )
    if ratings:
        text += "\n" + _("Ratings: {changes}").format(
            changes=", ".join(
                f"{plain(who, 40)} {before:.0f} → {after:.0f}" for who, before, after in ratings
            )
        )
    return text


def conflict(opponent: str, board: int) -> str:
    return _(
        "{opponent} reported a different result, so board {board} goes to the director, who "
        "decides it with `/tournament adjudicate`."
    ).format(opponent=plain(opponent, 40), board=board)


def conflict_post(
    name: str,
    number: int,
    board: int,
    white: tuple[str, str],
    black: tuple[str, str],
    director_id: int,
) -> str:
    """In the tournament's channel, pinging only the two players and the director: each
    player's (name, result word) as they reported it."""
    return _(
        "⚠️ **{name}**, round {round}, board {board}: the reports differ ({white}: {white_result}; "
        "{black}: {black_result}). <@{director}>, please decide it with `/tournament adjudicate`."
    ).format(
        name=plain(name, 80),
        round=number,
        board=board,
        white=white[0],
        white_result=white[1],
        black=black[0],
        black_result=black[1],
        director=director_id,
    )


def deadline_open(name: str, number: int, boards: list[int]) -> str:
    return ngettext(
        "⏰ **{name}**, round {round}: the deadline passed with board {boards} still without "
        "an agreed result. The director decides it with `/tournament adjudicate`.",
        "⏰ **{name}**, round {round}: the deadline passed with boards {boards} still without "
        "agreed results. The director decides them with `/tournament adjudicate`.",
        len(boards),
    ).format(name=plain(name, 80), round=number, boards=", ".join(str(b) for b in boards))


def voided(number: int, board: int) -> str:
    return _(
        "The director voided round {round}, board {board}: there is no result to report."
    ).format(round=number, board=board)


def round_over(number: int, current: int) -> str:
    return _(
        "Round {round} is over: report your round {current} result with that round's "
        "buttons or `/tournament result`."
    ).format(round=number, current=current)
