"""Chess puzzles from finished games (RULES.md, "Puzzles and daily play"): the pure part.

A position becomes a puzzle when, at the fixed search depth ``SEARCH_DEPTH`` with two
lines (MultiPV 2), the side to move has one clearly best move: it is at least
``PUZZLE_MARGIN_CP`` centipawns better than the second best. Mates count as
``MATE_SCORE`` less the plies to mate (being mated as its negative), so a mate is
clearly better than any material gain, while two mates of nearly the same length are
not "one clearly best move".

Which of those positions are kept is the finder's choice (``bot.services.puzzles``):
only those where the game's own move was *not* the best one, a missed win or a blunder
left unpunished, as Lichess picks its puzzles. A move the player found at the board
teaches less than the one they missed.

The solution line (``ChessPuzzle.line``, UCI) is the best move, then the engine's reply,
then the solver's next best move while it stays clearly best and the position clearly
winning (``continues``), at most ``MAX_SOLVER_MOVES`` of the solver's moves; it always
ends on a solver's move. A member solving it must find each solver move in turn, the
bot playing the replies; any move that checkmates is right too (mate is mate).

    puzzle = ChessPuzzle(ply=4, fen=..., line=("h5f7",), played="b1c3", ...)
    verdict = judge_move(puzzle, done=0, text="Qxf7#")   # a ChessMoveError for no legal move
    verdict.right, verdict.finished, verdict.reply
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import chess

from engines.chess_game import parse_move

PUZZLE_MARGIN_CP = 200  # the best move beats the second best by at least this much
SEARCH_DEPTH = 12  # Stockfish's depth for every position searched (MultiPV 2)
MAX_SOLVER_MOVES = 3  # the longest solution, counted in the solver's moves
MATE_SCORE = 100_000  # a mate in n plies scores MATE_SCORE - n for the side that mates


@dataclass(frozen=True)
class EngineLine:
    """One of the engine's lines: its first ``move`` (UCI), its ``score`` in centipawns for
    the side to move (mates as ``MATE_SCORE`` less the plies), the line itself (``pv``)."""

    move: str
    score: int
    pv: tuple[str, ...] = ()


def clearly_best(lines: Sequence[EngineLine], margin: int = PUZZLE_MARGIN_CP) -> bool:
    """Whether the best of ``lines`` (best first) beats the second by ``margin``; a
    position with one legal move is not a puzzle (there is nothing to find)."""
    if len(lines) < 2:
        return False
    return lines[0].score - lines[1].score >= margin


def continues(lines: Sequence[EngineLine], margin: int = PUZZLE_MARGIN_CP) -> bool:
    """Whether a solution line goes on with the best of ``lines``: it is clearly best and
    the position stays clearly winning for the solver (at least ``margin``)."""
    return clearly_best(lines, margin) and lines[0].score >= margin


@dataclass(frozen=True)
class ChessPuzzle:
    """A position from a game (``fen``, before the game's move ``ply``, 0-based), the
    solution ``line`` (UCI, solver first, ending on a solver move), what was played there
    (``played``, UCI), the move that led to the position (``last``) and the two scores."""

    ply: int
    fen: str
    line: tuple[str, ...]
    played: str
    best_score: int
    second_score: int
    last: str | None = None

    @property
    def color(self) -> chess.Color:
        """The solver's side."""
        return chess.Board(self.fen).turn

    @property
    def solver_moves(self) -> int:
        """How many moves the solver must find."""
        return (len(self.line) + 1) // 2

    def board_after(self, done: int) -> chess.Board:
        """The position after the solver's first ``done`` moves and the replies to them."""
        board = chess.Board(self.fen)
        for uci in self.line[: 2 * done]:
            board.push_uci(uci)
        return board

    def line_san(self) -> str:
        """The solution in numbered SAN from the puzzle's position (``4. Qxf7#``)."""
        board = chess.Board(self.fen)
        return board.variation_san([chess.Move.from_uci(uci) for uci in self.line])

    def played_san(self) -> str:
        """The game's move in SAN."""
        board = chess.Board(self.fen)
        return board.san(chess.Move.from_uci(self.played))

    def to_json(self) -> dict[str, Any]:
        """The puzzle as JSON-ready data (what the puzzles table keeps)."""
        return {
            "ply": self.ply,
            "fen": self.fen,
            "line": list(self.line),
            "played": self.played,
            "best_score": self.best_score,
            "second_score": self.second_score,
            "last": self.last,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChessPuzzle:
        """The puzzle ``to_json`` gave."""
        return cls(
            ply=int(data["ply"]),
            fen=str(data["fen"]),
            line=tuple(str(m) for m in data["line"]),
            played=str(data["played"]),
            best_score=int(data["best_score"]),
            second_score=int(data["second_score"]),
            last=data.get("last"),
        )


@dataclass(frozen=True)
class MoveVerdict:
    """An answer judged: the move in SAN (``said``), whether it was right, whether the
    puzzle is now solved (``finished``), and the bot's reply (UCI and SAN) when it goes on."""

    said: str
    uci: str
    right: bool
    finished: bool
    reply: str | None = None
    reply_san: str | None = None


def judge_move(puzzle: ChessPuzzle, done: int, text: str) -> MoveVerdict:
    """The member's answer ``text`` (SAN or UCI) after ``done`` solver moves found.

    Raises the chess engine's ``ChessMoveError`` for text that is no legal move there (the
    service refuses it without counting it). A move is right when it is the line's, or
    when it checkmates."""
    board = puzzle.board_after(done)
    move = parse_move(board, text)
    said = board.san(move)
    expected = chess.Move.from_uci(puzzle.line[2 * done])
    board.push(move)
    mates = board.is_checkmate()
    if move != expected and not mates:
        return MoveVerdict(said, move.uci(), right=False, finished=True)
    last = 2 * done + 1 >= len(puzzle.line)
    if mates or last:
        return MoveVerdict(said, move.uci(), right=True, finished=True)
    reply = chess.Move.from_uci(puzzle.line[2 * done + 1])
    return MoveVerdict(
        said, move.uci(), right=True, finished=False, reply=reply.uci(), reply_san=board.san(reply)
    )


__all__ = [
    "MATE_SCORE",
    "MAX_SOLVER_MOVES",
    "PUZZLE_MARGIN_CP",
    "SEARCH_DEPTH",
    "ChessPuzzle",
    "EngineLine",
    "MoveVerdict",
    "clearly_best",
    "continues",
    "judge_move",
]
