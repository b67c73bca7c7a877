"""The Stockfish glue. Tests that need the engine skip (with a message) without it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import chess
import pytest

from bot.config import load_settings
from bot.services.chess.engine import (
    LEVELS,
    EngineUnavailableError,
    StockfishEngine,
    engine_from_settings,
    stockfish_path,
)
from engines.chess_game import MATE_CP

STOCKFISH = os.environ.get("STOCKFISH_PATH") or "/usr/games/stockfish"
needs_stockfish = pytest.mark.skipif(
    not (os.path.isfile(STOCKFISH) and os.access(STOCKFISH, os.X_OK)),
    reason=f"Stockfish not found at {STOCKFISH} (apt-get install stockfish, or set STOCKFISH_PATH)",
)


def test_no_engine_is_used_unless_an_executable_is_configured(tmp_path: Path) -> None:
    assert engine_from_settings(load_settings(None, stockfish_path="")) is None
    assert stockfish_path(load_settings(None, stockfish_path=str(tmp_path / "missing"))) is None
    plain = tmp_path / "not-executable"
    plain.write_text("")
    assert stockfish_path(load_settings(None, stockfish_path=str(plain))) is None
    plain.chmod(plain.stat().st_mode | stat.S_IXUSR)
    assert stockfish_path(load_settings(None, stockfish_path=str(plain))) == str(plain)


def test_levels_grow_stronger_from_one_to_eight() -> None:
    assert sorted(LEVELS) == list(range(1, 9))
    skills = [LEVELS[n].skill for n in range(1, 9)]
    times = [LEVELS[n].seconds for n in range(1, 9)]
    assert skills == sorted(skills) and times == sorted(times)
    assert LEVELS[8].skill == 20 and LEVELS[8].depth is None


async def test_an_engine_that_will_not_start_is_reported_to_the_member(tmp_path: Path) -> None:
    broken = tmp_path / "stockfish"
    broken.write_text("#!/bin/sh\nexit 1\n")
    broken.chmod(0o755)
    with pytest.raises(EngineUnavailableError):
        await StockfishEngine(str(broken), timeout=5).best_move(chess.Board(), 1)


@needs_stockfish
@pytest.mark.parametrize("level", [1, 4, 8])
async def test_stockfish_plays_a_legal_move_at_each_level(level: int) -> None:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3")
    move = await StockfishEngine(STOCKFISH).best_move(board, level)
    assert move in board.legal_moves
    if level == 8:
        assert move.uci() == "f3f7"  # full strength finds the mate


@needs_stockfish
async def test_stockfish_evaluates_every_position_of_a_game() -> None:
    moves = ["f2f3", "e7e5", "g2g4", "d8h4"]
    evals = await StockfishEngine(STOCKFISH).evaluate_positions(moves)
    assert len(evals) == len(moves) + 1
    assert evals[-1].white_cp == -MATE_CP and evals[-1].best is None  # White is mated
    assert evals[3].white_cp < -MATE_CP and evals[3].best == "d8h4"  # mate in one, for Black
    assert all(e.best for e in evals[:-1])
