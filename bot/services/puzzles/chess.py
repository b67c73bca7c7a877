"""Finding a finished chess game's puzzles with Stockfish (``engines.chess_puzzles`` says
what a chess puzzle is).

Every position where a member was to move is searched at ``SEARCH_DEPTH`` with two lines;
one whose best move is clearly best (``clearly_best``) becomes a puzzle when the game's
own move was another: the puzzles are the wins (and the only saving moves) the club
missed, not the ones it found. The line then goes on, the engine's reply and the
solver's next clearly best move, while the solver stays clearly winning, up to
``MAX_SOLVER_MOVES``. One Stockfish process searches the whole game; it is a process of
its own, so the event loop only waits on it.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from typing import Any

import chess

from bot.context import ServiceContext
from bot.db.models import GameRecord
from bot.db.models_puzzles import PuzzleRecord
from bot.db.uow import UnitOfWork
from bot.services.chess.engine import LineSearch, StockfishEngine
from bot.services.chess.options import BLACK_SEAT, WHITE_SEAT, options_of
from engines.chess_puzzles import (
    MAX_SOLVER_MOVES,
    PUZZLE_MARGIN_CP,
    SEARCH_DEPTH,
    ChessPuzzle,
    EngineLine,
    clearly_best,
    continues,
)

log = logging.getLogger(__name__)

CHESS = "chess"  # the games' kind, and the puzzles'


async def find_chess_puzzles(
    search: LineSearch,
    moves: Sequence[str],
    movers: Collection[chess.Color] | None = None,
    *,
    margin: int = PUZZLE_MARGIN_CP,
    max_moves: int = MAX_SOLVER_MOVES,
) -> list[ChessPuzzle]:
    """The puzzles of a game (its moves in UCI from the start), in the order of its moves;
    ``movers``: the sides whose positions count (None: both; the computer's are not)."""
    board = chess.Board()
    found: list[ChessPuzzle] = []
    for ply, played in enumerate(moves):
        if (movers is None or board.turn in movers) and not board.is_game_over():
            lines = await search.top_lines(board, 2)
            if clearly_best(lines, margin) and lines[0].move != played:
                line = await _solution(search, board, lines[0], margin, max_moves)
                found.append(
                    ChessPuzzle(
                        ply=ply,
                        fen=board.fen(),
                        line=tuple(line),
                        played=played,
                        best_score=lines[0].score,
                        second_score=lines[1].score,
                        last=moves[ply - 1] if ply else None,
                    )
                )
        board.push_uci(played)
    return found


async def _solution(
    search: LineSearch, start: chess.Board, best: EngineLine, margin: int, max_moves: int
) -> list[str]:
    """The best move, then reply and next move in pairs while the solver stays clearly
    winning; always ending on a solver's move."""
    board = start.copy(stack=False)
    line = [best.move]
    board.push_uci(best.move)
    while (len(line) + 1) // 2 < max_moves and not board.is_game_over():
        if len(best.pv) > 1:
            reply = best.pv[1]
        else:
            answers = await search.top_lines(board, 1)
            if not answers:
                break
            reply = answers[0].move
        after = board.copy(stack=False)
        after.push_uci(reply)
        if after.is_game_over():
            break
        lines = await search.top_lines(after, 2)
        if not continues(lines, margin):
            break
        best = lines[0]
        line += [reply, best.move]
        after.push_uci(best.move)
        board = after
    return line


class ChessPuzzleFinder:
    """The puzzle job's chess part (``PuzzleService`` runs it): which finished games are
    searched, the search, and storing what it found (once per game and ply)."""

    def __init__(self, ctx: ServiceContext, engine: StockfishEngine | None) -> None:
        self.ctx = ctx
        self.engine = engine  # None: no Stockfish, nothing is searched

    async def searchable(
        self, uow: UnitOfWork, game_id: int
    ) -> tuple[list[str], list[chess.Color]] | None:
        """A finished chess game's moves and the sides members played (the computer's
        moves are its own choices, not lessons); None without Stockfish or moves."""
        if self.engine is None:
            return None
        record = await uow.games.get(game_id, kind=CHESS)
        moves = list((record.state or {}).get("moves") or [])
        if record.status != "finished" or not moves:
            return None
        computer = options_of(record.options).get("computer_seat")
        movers = [
            color
            for color, seat in ((chess.WHITE, WHITE_SEAT), (chess.BLACK, BLACK_SEAT))
            if seat != computer
        ]
        return moves, movers

    async def search(self, moves: list[str], movers: list[chess.Color]) -> list[dict[str, Any]]:
        """The game's chess puzzles, one Stockfish process searching them all."""
        assert self.engine is not None  # searchable said so
        async with self.engine.line_search(SEARCH_DEPTH) as search:
            found = await find_chess_puzzles(search, moves, movers)
        return [puzzle.to_json() for puzzle in found]

    async def store(
        self, uow: UnitOfWork, record: GameRecord, prepared: list[dict[str, Any]] | None
    ) -> None:
        """A chess game's puzzles, searched in the prepare step (or here, when the job
        runs without it), each named by who missed it."""
        if prepared is None:
            found = await self.searchable(uow, record.id)
            if found is None:
                return
            prepared = await self.search(*found)
        have = await uow.puzzles.plies_of_game(record.id)
        seats: dict[int, list[int]] = {}
        for row in record.seats:
            seats.setdefault(row.seat, []).append(row.user_id)
        names = await uow.players.names([uid for ids in seats.values() for uid in ids])
        rows = []
        for data in prepared:
            ply = int(data["ply"])
            if ply in have:
                continue
            seat = WHITE_SEAT if ply % 2 == 0 else BLACK_SEAT
            who = " & ".join(names.get(uid, str(uid)) for uid in seats.get(seat, []))
            rows.append(
                PuzzleRecord(
                    guild_id=record.guild_id,
                    kind=CHESS,
                    game_id=record.id,
                    ply=ply,
                    data={**data, "game_number": record.number, "who": who or "?"},
                    rating=1500.0,
                    rd=350.0,
                    volatility=0.06,
                    attempts=0,
                    solved=0,
                    created_at=self.ctx.clock(),
                )
            )
        if rows:
            await uow.puzzles.add(rows)
        log.info("Chess #%s: %d new puzzles", record.number, len(rows))
