"""The words of puzzles (``/puzzle``): the position, the answers, the solution, the
puzzles' field of ``/stats``.

Built from plain data; a rack is public here (the position is from a finished game).
"""

from __future__ import annotations

from collections.abc import Sequence

import chess

from bot.messages.chess import colour
from bot.messages.i18n import N_, _, ngettext
from bot.messages.text import plain

ANSWER_LABEL = N_("Answer")
SOLUTION_LABEL = N_("Show solution")
FORM_TITLE = N_("Your answer")
WORD_LABEL = N_("Word")
WORD_PLACEHOLDER = N_("The whole word: QUIZ, or Q?UIZ with a blank as the U")
POSITION_LABEL = N_("Position: 8H across, H8 down")
POSITION_PLACEHOLDER = "8H"  # a square, in every language
NO_PUZZLES = N_(
    "No puzzles yet: they come from the club's finished Scrabble games, "
    "where the best play beat the move made by a good margin."
)
ALL_DONE = N_("You have done every puzzle the club has. New ones come with each finished game.")
UNKNOWN_KIND = N_("Puzzles come from Scrabble and chess games: pick `scrabble` or `chess`.")
NO_CHESS_ENGINE = N_(
    "Chess puzzles need the Stockfish chess engine, and this bot has none installed, so "
    "there are none to offer. Ask an admin to install it (Debian/Ubuntu: `apt-get install "
    "stockfish`) and set `STOCKFISH_PATH` in the bot's `.env`."
)
NO_CHESS_PUZZLES = N_(
    "No chess puzzles yet: they come from the club's finished chess games, where one move "
    "won clearly and the game's move was another."
)
GIVE_A_MOVE = N_("Give your move, in SAN like `Nf3` or UCI like `g1f3`.")
MOVE_LABEL = N_("Your move")
MOVE_PLACEHOLDER = N_("SAN like Nf3, or UCI like g1f3")
NO_SUCH_PUZZLE = N_("That puzzle is gone.")
STATS_TITLE = N_("Puzzles")  # the /stats field


def puzzle_text(
    number: int,
    game_number: int,
    move: int,
    rack: str,
    tries_left: int,
    *,
    rating: float = 1500.0,
    solved: int = 0,
    tried: int = 0,
    resumed: bool = False,
) -> str:
    """The position's words under its board image, with how hard it has been: its rating
    (members who solve it lower it, those who miss it raise it) and how many solved it."""
    lines = [
        _("**Puzzle {number}** from Scrabble #{game} (move {move})").format(
            number=number, game=game_number, move=move
        ),
        _("Puzzle rating {rating}: {solved} of {tried} members solved it.").format(
            rating=round(rating), solved=solved, tried=tried
        )
        if tried
        else _("Puzzle rating {rating}: nobody has tried it yet.").format(rating=round(rating)),
        _("Rack: `{rack}`").format(rack=" ".join(rack)),
        _(
            "Find the play that scores the most on this board (any play scoring as much "
            "solves it). Press **Answer** and give the word and its position."
        ),
        ngettext("{count} try left.", "{count} tries left.", tries_left).format(count=tries_left),
    ]
    if resumed:
        lines.insert(0, _("Your puzzle under way:"))
    return "\n".join(lines)


def chess_puzzle_text(
    number: int,
    game_number: int,
    move: int,
    side: chess.Color,
    *,
    rating: float = 1500.0,
    solved: int = 0,
    tried: int = 0,
    resumed: bool = False,
    so_far: str = "",
) -> str:
    """A chess puzzle's words under its board: whose move, how hard it has been, and the
    moves found so far (SAN, with the bot's replies)."""
    lines = [
        _("**Puzzle {number}** from Chess #{game} (move {move})").format(
            number=number, game=game_number, move=move
        ),
        _rating_of_puzzle(rating, solved, tried),
    ]
    if so_far:
        lines.append(_("So far: {moves}").format(moves=so_far))
        lines.append(_("{side} to move: find the next move.").format(side=colour(side)))
    else:
        lines.append(_("{side} to move: find the best move.").format(side=colour(side)))
    lines.append(
        _(
            "Press **Answer** and give it (SAN like `Nf3` or UCI like `g1f3`). "
            "One wrong move ends the puzzle."
        )
    )
    if resumed:
        lines.insert(0, _("Your puzzle under way:"))
    return "\n".join(lines)


def _rating_of_puzzle(rating: float, solved: int, tried: int) -> str:
    if tried:
        return _("Puzzle rating {rating}: {solved} of {tried} members solved it.").format(
            rating=round(rating), solved=solved, tried=tried
        )
    return _("Puzzle rating {rating}: nobody has tried it yet.").format(rating=round(rating))


def chess_board_alt_text(fen: str, side: chess.Color) -> str:
    """The chess puzzle's board in words: whose move, the side it is drawn from, the FEN."""
    return _("Chess puzzle board, {turn} to move, seen from {side}'s side. FEN {fen}").format(
        turn=colour(side), side=colour(side), fen=fen
    )[:1024]


def chess_right_move(said: str, reply: str) -> str:
    """A right move that is not the last: the bot's reply comes with it. (Moves are
    SAN as python-chess writes it: nothing in it to escape.)"""
    return _("✅ {move} is right. The reply: {reply}.").format(
        move=f"**{said}**", reply=f"**{reply}**"
    )


def chess_wrong_move(said: str) -> str:
    return _("❌ {move} is not the move.").format(move=f"**{said}**")


def chess_solved(said: str, rating: float, change: float, streak: int) -> str:
    lines = [
        _("✅ Solved! {move} was the last move to find.").format(move=f"**{said}**"),
        _rating_line(rating, change),
    ]
    if streak > 1:
        lines.append(_streak(streak))
    return "\n".join(lines)


def chess_solution(line: str, played: str, game_number: int, who: str) -> str:
    """The solution line (numbered SAN) and what was played in the game."""
    return "\n".join(
        [
            _("**Solution:** {line}").format(line=line),
            _("In Chess #{game}, {who} played {move}.").format(
                game=game_number, who=plain(who), move=played
            ),
        ]
    )


def board_alt_text(rows: Sequence[str], rack: str) -> str:
    """The board in words (each row's tiles), for screen readers, then the rack."""
    described = []
    for number, row in enumerate(rows, 1):
        if row.strip("."):
            described.append(f"{number}: {row}")
    return _("Puzzle board, row by row (. an empty square): {rows}. Rack: {rack}.").format(
        rows="; ".join(described) or _("empty"), rack=" ".join(rack)
    )[:1024]


def solved(played: str, score: int, rating: float, change: float, streak: int) -> str:
    lines = [
        _("✅ Solved! {play} scores {score}, the best there is.").format(
            play=f"**{plain(played)}**", score=score
        ),
        _rating_line(rating, change),
    ]
    if streak > 1:
        lines.append(_streak(streak))
    return "\n".join(lines)


def _streak(days: int) -> str:
    return ngettext(
        "🔥 {days} day in a row with a puzzle solved.",
        "🔥 {days} days in a row with a puzzle solved.",
        days,
    ).format(days=days)


def short_of_best(played: str, score: int, tries_left: int | None) -> str:
    """A play short of the best; ``tries_left`` None: it was the last try."""
    text = _("{play} scores {score}: there is a better play.").format(
        play=f"**{plain(played)}**", score=score
    )
    return text if tries_left is None else f"{text} {_tries(tries_left)}"


def refused(reason: str, tries_left: int | None) -> str:
    """A play the board, the rack or the word list refuses (the engine's ``reason``)."""
    text = _("That play can't be made: {reason}").format(reason=reason)
    return text if tries_left is None else f"{text} {_tries(tries_left)}"


def _tries(tries_left: int) -> str:
    return ngettext(
        "{count} try left: press Answer again.",
        "{count} tries left: press Answer again.",
        tries_left,
    ).format(count=tries_left)


def failed(rating: float, change: float, *, gave_up: bool, one_try: bool = False) -> str:
    """The end of a puzzle not solved: given up, out of tries, or (``one_try``, a chess
    puzzle) ended by its one wrong move."""
    if gave_up:
        first = _("You asked for the solution.")
    elif one_try:
        first = _("A chess puzzle ends at its first wrong move.")
    else:
        first = _("❌ No tries left.")
    return f"{first}\n{_rating_line(rating, change)}"


def finished_before(solved_it: bool) -> str:
    return (
        _("You solved this puzzle already.")
        if solved_it
        else _("You have seen this one's solution.")
    )


def _rating_line(rating: float, change: float) -> str:
    return _("Puzzle rating: {rating} ({change}).").format(
        rating=round(rating), change=f"{change:+.0f}"
    )


def solution(
    top: Sequence[tuple[str, int]],
    played: str,
    played_score: int,
    game_number: int,
    who: str,
    *,
    withdrawn: bool = False,
) -> str:
    """The top plays (``(notation, score)``, best first) and what was played in the game
    (``withdrawn``: a phony that was challenged off, said so rather than "for 0")."""
    lines = [_("**Top plays:**")]
    lines += [
        f"{rank}. {plain(notation)} — {score}" for rank, (notation, score) in enumerate(top, 1)
    ]
    if withdrawn:
        said = _("In Scrabble #{game}, {who} played {play}, challenged off.")
    else:
        said = _("In Scrabble #{game}, {who} played {play} for {score}.")
    lines.append(
        said.format(game=game_number, who=plain(who), play=_played(played), score=played_score)
    )
    return "\n".join(lines)


def _played(played: str) -> str:
    if played == "pass":
        return _("a pass")
    if played.startswith("exchange "):
        return _("an exchange")
    return plain(played)


def stats_line(rating: float, solved: int, missed: int) -> str:
    """``/stats``: the member's puzzle rating and puzzles solved and missed (the streak
    is with the other streaks)."""
    return _("Rating {rating} · {solved} solved / {missed} missed").format(
        rating=f"**{round(rating)}**", solved=solved, missed=missed
    )


__all__ = [
    "ALL_DONE",
    "ANSWER_LABEL",
    "FORM_TITLE",
    "GIVE_A_MOVE",
    "MOVE_LABEL",
    "MOVE_PLACEHOLDER",
    "NO_CHESS_ENGINE",
    "NO_CHESS_PUZZLES",
    "NO_PUZZLES",
    "NO_SUCH_PUZZLE",
    "POSITION_LABEL",
    "POSITION_PLACEHOLDER",
    "SOLUTION_LABEL",
    "STATS_TITLE",
    "UNKNOWN_KIND",
    "WORD_LABEL",
    "WORD_PLACEHOLDER",
    "board_alt_text",
    "chess_board_alt_text",
    "chess_puzzle_text",
    "chess_right_move",
    "chess_solution",
    "chess_solved",
    "chess_wrong_move",
    "failed",
    "finished_before",
    "puzzle_text",
    "refused",
    "short_of_best",
    "solution",
    "solved",
    "stats_line",
]
