"""Stockfish, the chess service's engine: the computer opponent's moves and analysis.

``engines/`` must not do I/O, so the engine process lives here. Each request
starts its own Stockfish through python-chess's asyncio UCI driver and quits it
afterwards: start-up costs well under a tenth of a second, and a crashed or
hung engine can never poison the next request. A semaphore keeps at most
``max_processes`` engines thinking at once so games don't starve the bot.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Protocol

import chess
import chess.engine

from bot.config import Settings
from bot.errors import ClubError
from bot.messages.chess.refusals import (
    ENGINE_INSTALL_HINT,
    ENGINE_NO_MOVE,
    ENGINE_STOPPED,
    ENGINE_WONT_START,
)
from engines.chess_game import MATE_CP
from engines.chess_puzzles import MATE_SCORE, EngineLine

log = logging.getLogger(__name__)

INSTALL_HINT = ENGINE_INSTALL_HINT
DEFAULT_LEVEL = 3
MIN_LEVEL, MAX_LEVEL = 1, 8


@dataclass(frozen=True)
class EngineLevel:
    """How strongly the computer plays: Stockfish's Skill Level plus search limits."""

    skill: int  # Stockfish "Skill Level", 0–20
    seconds: float  # thinking time per move
    depth: int | None  # search depth cap (shallow search is what makes low levels weak)


LEVELS: dict[int, EngineLevel] = {
    1: EngineLevel(skill=0, seconds=0.05, depth=1),
    2: EngineLevel(skill=2, seconds=0.1, depth=2),
    3: EngineLevel(skill=4, seconds=0.15, depth=3),
    4: EngineLevel(skill=7, seconds=0.2, depth=5),
    5: EngineLevel(skill=10, seconds=0.3, depth=8),
    6: EngineLevel(skill=13, seconds=0.4, depth=12),
    7: EngineLevel(skill=16, seconds=0.5, depth=16),
    8: EngineLevel(skill=20, seconds=1.0, depth=None),
}


class EngineUnavailableError(ClubError):
    """No engine is configured, or it failed; the message says what to do."""


@dataclass(frozen=True)
class PositionEval:
    """The engine's verdict on one position: how it stands for White, and its best move."""

    white_cp: int  # from White's point of view; a mate counts as ±MATE_CP
    best: str | None  # the engine's move (UCI), None in a finished position


class ChessEngine(Protocol):
    """What the service asks of a chess engine (``StockfishEngine``; a stand-in in tests)."""

    name: str

    async def best_move(self, board: chess.Board, level: int) -> chess.Move:
        """The computer's move in ``board`` at ``level`` (1, weakest, to 8)."""

    async def evaluate_positions(self, moves: Sequence[str]) -> list[PositionEval]:
        """One evaluation per position of the game: the start, then after each move."""


class LineSearch(Protocol):
    """One engine process's search of many positions (the puzzle finder's)."""

    async def top_lines(self, board: chess.Board, count: int) -> list[EngineLine]:
        """The engine's ``count`` best lines in ``board``, best first (fewer when fewer
        moves are legal); scores for the side to move."""


class _UciLines:
    """``LineSearch`` on a running Stockfish at a fixed depth."""

    def __init__(self, engine: chess.engine.UciProtocol, depth: int, timeout: float) -> None:
        self.engine, self.depth, self.timeout = engine, depth, timeout

    async def top_lines(self, board: chess.Board, count: int) -> list[EngineLine]:
        limit = chess.engine.Limit(depth=self.depth)
        infos = await asyncio.wait_for(
            self.engine.analyse(board, limit, multipv=count), self.timeout
        )
        lines = []
        for info in infos:
            pv = info.get("pv") or []
            if not pv:
                continue
            score = info["score"].pov(board.turn).score(mate_score=MATE_SCORE)
            lines.append(EngineLine(pv[0].uci(), int(score or 0), tuple(m.uci() for m in pv)))
        return lines


def stockfish_path(settings: Settings) -> str | None:
    """The configured Stockfish binary, if it exists and can run."""
    path = (settings.stockfish_path or "").strip()
    if path and os.path.isfile(path) and os.access(path, os.X_OK):
        return path
    if path:
        log.warning("STOCKFISH_PATH %s is not an executable file; the chess engine is off", path)
    return None


def engine_from_settings(settings: Settings) -> StockfishEngine | None:
    """Stockfish at the configured path, or None when there is none (the computer
    opponent and analysis then say how to add it)."""
    path = stockfish_path(settings)
    return StockfishEngine(path) if path else None


def _terminal_eval(board: chess.Board) -> PositionEval | None:
    if board.is_checkmate():
        return PositionEval(-MATE_CP if board.turn == chess.WHITE else MATE_CP, None)
    if board.is_stalemate() or board.is_insufficient_material():
        return PositionEval(0, None)
    return None


class StockfishEngine:
    """Stockfish through python-chess's UCI driver: a fresh process for each request,
    at most ``max_processes`` thinking at once."""

    name = "Stockfish"

    def __init__(
        self,
        path: str,
        *,
        analysis_depth: int = 10,
        analysis_seconds: float = 0.05,
        max_processes: int = 2,
        timeout: float = 30.0,
    ) -> None:
        self.path = path
        self.analysis_depth = analysis_depth
        self.analysis_seconds = analysis_seconds
        self.timeout = timeout
        self._slots = asyncio.Semaphore(max_processes)

    @asynccontextmanager
    async def _engine(self) -> AsyncIterator[chess.engine.UciProtocol]:
        async with self._slots:
            try:
                _, engine = await asyncio.wait_for(chess.engine.popen_uci(self.path), self.timeout)
            except (TimeoutError, OSError, chess.engine.EngineError) as error:
                log.error("could not start Stockfish at %s: %s", self.path, error)
                raise EngineUnavailableError(ENGINE_WONT_START) from error
            try:
                yield engine
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
                log.error("Stockfish failed: %s", error)
                raise EngineUnavailableError(ENGINE_STOPPED) from error
            finally:
                try:
                    await asyncio.wait_for(engine.quit(), 5)
                except Exception:  # already dead: nothing left to close
                    pass

    async def best_move(self, board: chess.Board, level: int) -> chess.Move:
        """Stockfish's move at ``level`` (held to 1–8): the Skill Level, thinking time and
        depth of ``LEVELS``."""
        settings = LEVELS[max(MIN_LEVEL, min(MAX_LEVEL, level))]
        limit = chess.engine.Limit(time=settings.seconds, depth=settings.depth)
        async with self._engine() as engine:
            await engine.configure({"Skill Level": settings.skill})
            result = await asyncio.wait_for(engine.play(board, limit), self.timeout)
        if result.move is None:
            raise EngineUnavailableError(ENGINE_NO_MOVE)
        return result.move

    @asynccontextmanager
    async def line_search(self, depth: int) -> AsyncIterator[LineSearch]:
        """One Stockfish process searching position after position at ``depth`` (the
        puzzle finder's: a game's positions without a process for each)."""
        async with self._engine() as engine:
            yield _UciLines(engine, depth, self.timeout)

    async def evaluate_positions(self, moves: Sequence[str]) -> list[PositionEval]:
        """One evaluation per position of the game: the start, then after each move."""
        board = chess.Board()
        limit = chess.engine.Limit(depth=self.analysis_depth, time=self.analysis_seconds)
        evals: list[PositionEval] = []
        async with self._engine() as engine:
            for index in range(len(moves) + 1):
                if index:
                    board.push_uci(moves[index - 1])
                terminal = _terminal_eval(board)
                if terminal is not None:
                    evals.append(terminal)
                    continue
                info = await asyncio.wait_for(engine.analyse(board, limit), self.timeout)
                score = info["score"].white().score(mate_score=100 * MATE_CP)
                pv = info.get("pv") or []
                evals.append(PositionEval(int(score or 0), pv[0].uci() if pv else None))
        return evals


__all__ = [
    "DEFAULT_LEVEL",
    "INSTALL_HINT",
    "LEVELS",
    "ChessEngine",
    "EngineLevel",
    "EngineUnavailableError",
    "LineSearch",
    "PositionEval",
    "StockfishEngine",
    "engine_from_settings",
    "stockfish_path",
]
