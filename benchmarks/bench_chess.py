"""Chess rules speed: reading moves, rebuilding a game from its moves, suggestions.

Positions come from seeded random games (the same every run). Each command
rebuilds the board from the stored UCI moves and reads the member's move, so
those two set the floor under every chess command; the move suggestions run
on each keystroke of ``/chess move``.
"""

from __future__ import annotations

import json
import random
import time
from datetime import UTC, datetime, timedelta

import chess

from benchmarks._core import Row, ms_row, rate_row, time_calls
from engines.chess_clock import ChessClock, parse_time_control
from engines.chess_game import board_from_moves, move_choices, parse_move

# Every chess command rebuilds its game and most read one move: at these rates
# that is under 5 ms of rules work per command, and each keystroke's
# suggestions stay well inside Discord's 3-second autocomplete window.
MOVES_READ_PER_SECOND_BUDGET = 2_000
REBUILDS_PER_SECOND_BUDGET = 200  # of an 80-ply game
SUGGESTIONS_BUDGET_MS = 10.0


def _random_games(count: int, plies: int, seed: int = 2026) -> list[list[str]]:
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        board = chess.Board()
        for _ in range(plies):
            legal = list(board.legal_moves)
            if not legal:
                break
            board.push(rng.choice(legal))
        if len(board.move_stack) == plies:  # keep full-length games only
            games.append([m.uci() for m in board.move_stack])
    return games


def _positions_with_moves(games: list[list[str]]) -> list[tuple[chess.Board, str]]:
    """(position, the next move as a player would type it) from move 11 on, SAN and UCI alternating."""
    out = []
    for moves in games:
        board = chess.Board()
        for ply, uci in enumerate(moves):
            move = chess.Move.from_uci(uci)
            if ply >= 20:
                out.append((board.copy(stack=False), board.san(move) if ply % 2 else uci))
            board.push(move)
    return out


def run(quick: bool) -> list[Row]:
    games = _random_games(10 if quick else 30, 80)
    return [
        _read_rate_row(games, quick),
        _rebuild_rate_row(games, quick),
        _suggestions_row(games, quick),
        _clock_round_trip_row(quick),
    ]


def _read_rate_row(games: list[list[str]], quick: bool) -> Row:
    positions = _positions_with_moves(games)
    rates = []
    for _ in range(3 if quick else 7):
        start = time.perf_counter()
        for board, typed in positions:
            parse_move(board, typed)
        rates.append(len(positions) / (time.perf_counter() - start))
    return rate_row(
        f"chess: read+validate a typed move ({len(positions)} positions)",
        rates,
        MOVES_READ_PER_SECOND_BUDGET,
    )


def _rebuild_rate_row(games: list[list[str]], quick: bool) -> Row:
    rates = []
    for _ in range(3 if quick else 7):
        start = time.perf_counter()
        for moves in games:
            board_from_moves(moves)
        rates.append(len(games) / (time.perf_counter() - start))
    return rate_row(
        "chess: rebuild an 80-ply game from its UCI moves", rates, REBUILDS_PER_SECOND_BUDGET
    )


def _suggestions_row(games: list[list[str]], quick: bool) -> Row:
    """One keystroke of /chess move: rebuild the game, then list the matching moves."""
    moves = games[0][:40]
    samples = time_calls(
        lambda: move_choices(board_from_moves(moves), "N"), repeat=30 if quick else 200
    )
    return ms_row(
        "chess: move suggestions (rebuild 40 plies + list)", samples, SUGGESTIONS_BUDGET_MS
    )


def _clock_round_trip_row(quick: bool) -> Row:
    """What each command pays to load, advance and store the clock."""
    start = datetime(2026, 11, 30, tzinfo=UTC)
    clock = ChessClock.start(parse_time_control("3d"), start).with_vacation(chess.BLACK, start, 3)
    stored = json.dumps(clock.to_dict())

    def step() -> None:
        loaded = ChessClock.from_dict(json.loads(stored))
        moved = loaded.after_move(start + timedelta(hours=5))
        json.dumps(moved.to_dict())
        moved.flag_time()

    return ms_row(
        "chess: clock load+move+flag time+store",
        time_calls(step, repeat=100 if quick else 1000),
        None,
    )
