"""Scrabble puzzles from finished games (RULES.md, "Puzzles and daily play").

A turn becomes a puzzle when the best play its rack had, by score on that
board and the game's word list, beat the move actually made by at least
``margin`` points (``DEFAULT_MARGIN``, 15). Score, not equity: a puzzle is
solved by any play scoring the best score, so the margin is measured in the
same points the answer is judged by (an equity-best play may score less than
the top play, and "find the best play" would then have two answers).

The games are replayed once, by :meth:`MoveGenerator.analyse_moves` (the same
replay ``/scrabble analyse`` makes); each turn's board and plays are kept as it
passes, and the turns it reports decide which become puzzles. Only turns whose
rack the log recorded (the mover's own rack at that turn) count; passes and
exchanges count too (scoring 0), turns lost to a failed challenge and moves
the clock made do not.

    puzzles = find_puzzles(MoveGenerator(lexicon), game.moves, margin=15)
    puzzle = puzzles[0]
    puzzle.board, puzzle.rack, puzzle.best_score, puzzle.top, puzzle.played
    judge(puzzle, "QUIZ", "8H", lexicon)        # the play and its score, or a ScrabbleError
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engines.scrabble.board import Board, Evaluation
from engines.scrabble.errors import InvalidWordError
from engines.scrabble.lexicon import Lexicon, unknown_words
from engines.scrabble.movegen import MoveGenerator, Play
from engines.text import N_, Text

DEFAULT_MARGIN = 15  # points of score between the best play and the move made
TOP_PLAYS = 5  # the plays shown after an answer


@dataclass(frozen=True)
class PuzzlePlay:
    """One of the top plays: ``position`` and ``word`` as ``ScrabbleGame.play`` takes
    them, the main word ``spelled`` with the board's letters (a blank in lower case)."""

    position: str
    word: str
    spelled: str
    score: int

    @property
    def notation(self) -> str:
        """``8H QUIZ``: the position and the whole main word."""
        return f"{self.position} {self.spelled}"


@dataclass(frozen=True)
class ScrabblePuzzle:
    """A position from a game: the board before the move (15 rows, ``.`` empty, a blank in
    lower case), the mover's rack, the best score and the top plays (best first), and what
    was played (``8H QUIZ``, ``exchange QV``, ``pass``) with its score."""

    ply: int  # the move's index in the game's log
    seat: int
    board: tuple[str, ...]
    rack: str
    best_score: int
    top: tuple[PuzzlePlay, ...]
    played: str
    played_score: int
    withdrawn: bool = False  # the play was challenged off (it scored 0)

    @property
    def margin(self) -> int:
        """How many points the best play beat the move made by."""
        return self.best_score - self.played_score

    def to_json(self) -> dict[str, Any]:
        """The puzzle as JSON-ready data (what the puzzles table keeps)."""
        return {
            "ply": self.ply,
            "seat": self.seat,
            "board": list(self.board),
            "rack": self.rack,
            "best_score": self.best_score,
            "top": [[p.position, p.word, p.spelled, p.score] for p in self.top],
            "played": self.played,
            "played_score": self.played_score,
            "withdrawn": self.withdrawn,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScrabblePuzzle:
        """The puzzle ``to_json`` gave."""
        return cls(
            ply=int(data["ply"]),
            seat=int(data["seat"]),
            board=tuple(data["board"]),
            rack=str(data["rack"]),
            best_score=int(data["best_score"]),
            top=tuple(PuzzlePlay(str(a), str(b), str(c), int(d)) for a, b, c, d in data["top"]),
            played=str(data["played"]),
            played_score=int(data["played_score"]),
            withdrawn=bool(data.get("withdrawn", False)),
        )


def _score(play: Play) -> int:
    return play.score


def find_puzzles(
    generator: MoveGenerator,
    moves: Iterable[dict[str, Any]],
    *,
    margin: int = DEFAULT_MARGIN,
    seats: Collection[int] | None = None,
    top: int = TOP_PLAYS,
) -> list[ScrabblePuzzle]:
    """The turns of a move log (``ScrabbleGame.moves``) that make puzzles, in order.

    ``seats`` limits them to those seats' turns (None: every seat); ``margin`` is the
    least the best play must have beaten the move made by, in points."""
    kept: dict[int, tuple[tuple[str, ...], list[PuzzlePlay]]] = {}

    def keep(index: int, board: Board, plays: list[Play]) -> None:
        if not plays:
            return
        best = heapq.nlargest(top, plays, key=_score)
        kept[index] = (
            tuple(board.rows()),
            [PuzzlePlay(p.position, p.word, p.spelled(board), p.score) for p in best],
        )

    turns = generator.analyse_moves(moves, on_turn=keep)
    puzzles = []
    for index, turn in enumerate(turns):
        if index not in kept or not turn.rack or turn.best is None:
            continue
        if seats is not None and turn.seat not in seats:
            continue
        if turn.best_score - turn.score < max(1, margin):
            continue
        board, best = kept[index]
        puzzles.append(
            ScrabblePuzzle(
                ply=turn.ply,
                seat=turn.seat,
                board=board,
                rack=turn.rack,
                best_score=turn.best_score,
                top=tuple(best),
                played=turn.played,
                played_score=turn.score,
                withdrawn=turn.withdrawn,
            )
        )
    return puzzles


def judge(
    puzzle: ScrabblePuzzle,
    word: str,
    position: str,
    lexicon: Lexicon,
    direction: str | None = None,
) -> PuzzlePlay:
    """An answer as a play on the puzzle's board from its rack: the play and its score.

    Raises the engine's own ``ScrabbleError`` for a play the board or rack does not
    allow, ``InvalidWordError`` (as a game checking words as they are played does) for
    one forming words the word list lacks."""
    board = Board.from_rows(list(puzzle.board))
    return _judged(board.evaluate(word, position, direction, rack=puzzle.rack), lexicon)


def judge_tiles(
    puzzle: ScrabblePuzzle, placements: Sequence[tuple[str, str]], lexicon: Lexicon
) -> PuzzlePlay:
    """:func:`judge` for loose tiles put on the board one by one (a board page's play,
    as ``ScrabbleGame.play_tiles`` takes them: ``[("H8", "Q"), ("H9", "?u")]``)."""
    board = Board.from_rows(list(puzzle.board))
    return _judged(board.evaluate_tiles(placements, rack=puzzle.rack), lexicon)


def _judged(evaluation: Evaluation, lexicon: Lexicon) -> PuzzlePlay:
    words = tuple(w.word for w in evaluation.words)
    invalid = unknown_words(lexicon, words)
    if invalid:
        if len(invalid) == 1:
            template = N_("{words} is not in the word list")
        else:
            template = N_("{words} are not in the word list")
        raise InvalidWordError(Text(template, words=", ".join(invalid)), invalid)
    return PuzzlePlay(
        evaluation.position, evaluation.word, evaluation.words[0].spelled, evaluation.score
    )


__all__ = [
    "DEFAULT_MARGIN",
    "TOP_PLAYS",
    "PuzzlePlay",
    "ScrabblePuzzle",
    "find_puzzles",
    "judge",
    "judge_tiles",
]
