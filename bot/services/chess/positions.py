"""A chess game's position after its moves, replayed once and kept (issue #32).

A game is stored as its moves (UCI); its board (with the move stack the draw rules
need: repetitions, the fifty-move count) and its moves' SAN are a pure function of
them. Replaying an 80-ply game costs about a millisecond of the event loop's CPU, and
every command on a game needs the position: the move's legality, its SAN, the ending,
the board post's text and image, the member's next keystroke's suggestions. So a
``Position`` is made once per list of moves and kept here, keyed by the moves
themselves (never by game or version: equal moves are the same position, in any
process, in any database): the next command on the game, or the move after this one
(the kept position plus one move, ``Position.after``), does not replay at all.

A kept ``Position`` is shared by every command that asks for it: its ``board`` is
never changed (read it; ``after`` copies it before pushing the move). Used on the
event loop only, as ``bot.caches.BoundedCache`` is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import chess

from bot.caches import MIB, BoundedCache
from engines.chess_game import play_stored, replay

# About what a kept position weighs per ply when nothing is shared: the board's
# stack of states and moves, the SAN and the key (a 80-ply game ≈ 50 KB).
BYTES_PER_PLY = 600


@dataclass(frozen=True, eq=False)
class Position:
    """The position after ``moves`` (UCI, from the standard start) and their SAN.

    ``board`` is shared: never push, pop or set anything on it for good (python-chess's
    own checks that push and pop back, as ``san`` and the repetition rules do, are fine)."""

    moves: tuple[str, ...]
    board: chess.Board
    sans: tuple[str, ...]

    def after(self, move: chess.Move) -> Position:
        """The position once the legal ``move`` is played, kept in place of this one
        (a game goes on from its newest position)."""
        board = self.board.copy()
        san = board.san_and_push(move)
        played = Position((*self.moves, move.uci()), board, (*self.sans, san))
        _keep(played, instead_of=self)
        return played

    @property
    def last_san(self) -> str | None:
        """The last move's SAN; None before the first move."""
        return self.sans[-1] if self.sans else None


def _weight(position: Position) -> int:
    return BYTES_PER_PLY * (len(position.moves) + 1)


# The positions of the games under way: 4 MiB holds about a hundred 80-ply games.
POSITIONS: BoundedCache[tuple[str, ...], Position] = BoundedCache(
    "chess positions", 4 * MIB, _weight
)


def _keep(position: Position, *, instead_of: Position | None = None) -> None:
    if instead_of is not None:
        POSITIONS.discard(instead_of.moves)
    POSITIONS.put(position.moves, position)


def position_of(moves: Sequence[str]) -> Position:
    """The position after ``moves``: kept, else the kept one before the last move plus
    that move, else replayed (``ChessStateError`` for moves that do not replay)."""
    key = tuple(moves)
    found = POSITIONS.get(key)
    if found is not None:
        return found
    before = POSITIONS.get(key[:-1]) if key else None
    if before is not None:
        board = before.board.copy()
        san = play_stored(board, len(key), key[-1])
        position = Position(key, board, (*before.sans, san))
        _keep(position, instead_of=before)
        return position
    board, sans = replay(key)
    position = Position(key, board, tuple(sans))
    _keep(position)
    return position


__all__ = ["POSITIONS", "Position", "position_of"]
