"""Scrabble engine speed: validating and scoring placements from real games.

Each recorded game in the conformance set is replayed; from its middle on,
the board before every play is kept with that play. The timed loop then
validates (notation, geometry, connection, rack) and scores each recorded
play against its own position, over and over. Nothing is changed on the
boards: evaluation leaves a board as it found it.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from benchmarks._core import Row, ms_row, rate_row, time_calls
from engines.scrabble.board import Board, Evaluation
from engines.scrabble.game import ScrabbleGame, ScrabbleOptions
from engines.scrabble.gcg import GcgEvent, read_gcg, recorded_rack

PLACEMENTS_PER_SECOND_BUDGET = 20_000


def _conformance_dir() -> Path | None:
    for parent in Path(__file__).resolve().parents:
        if (parent / "pyproject.toml").exists():
            candidate = parent.parent / "shared" / "conformance" / "scrabble" / "gcg"
            return candidate if candidate.is_dir() else None
    return None


def _mid_game_positions(folder: Path) -> list[tuple[Board, str, str, str | None]]:
    """(board just before the play, word, position, rack) for every play from mid-game on."""
    positions = []
    for path in sorted(folder.glob("**/*.gcg")):
        events = [e for e in read_gcg(path).events if e.kind in ("play", "withdraw")]
        board = Board()
        history: dict[str, Evaluation] = {}
        half = len(events) // 2
        for number, event in enumerate(events):
            if number >= half and event.kind == "play":
                positions.append(
                    (
                        board.copy(),
                        event.word or "",
                        event.position or "",
                        recorded_rack(event.rack),
                    )
                )
            _replay(board, event, history)
    return positions


def _replay(board: Board, event: GcgEvent, history: dict[str, Evaluation]) -> None:
    if event.kind == "play":
        evaluation = board.evaluate(event.word or "", event.position or "")
        board.apply(evaluation)
        history[event.nick] = evaluation
    else:
        board.remove(history.pop(event.nick).tiles)


def run(quick: bool) -> list[Row]:
    rows = [_state_round_trip_row(quick)]
    folder = _conformance_dir()
    if folder is not None:  # the real games live beside the repository
        rows.insert(0, _placement_rate_row(folder, quick))
    return rows


def _placement_rate_row(folder: Path, quick: bool) -> Row:
    positions = _mid_game_positions(folder)
    total = len(positions)
    repeats = 3 if quick else 7
    rounds = 2 if quick else 5
    rates = []
    checksum = 0
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(rounds):
            for board, word, position, rack in positions:
                checksum += board.evaluate(word, position, rack=rack).score
        elapsed = time.perf_counter() - start
        rates.append(total * rounds / elapsed)
    assert checksum > 0
    return rate_row(
        f"scrabble: validate+score real placements ({total} plays)",
        rates,
        PLACEMENTS_PER_SECOND_BUDGET,
    )


def _state_round_trip_row(quick: bool) -> Row:
    """What a service pays per command to load and save a game's state."""
    game = ScrabbleGame.new(ScrabbleOptions(turn_order="fixed"), 1)
    for _ in range(5):  # some history in the log (six would end the game)
        seat = game.current_seat
        game.exchange(seat, game.racks[seat][:3])
    game = ScrabbleGame.from_json(game.to_json())
    samples = time_calls(
        lambda: ScrabbleGame.from_json(json.loads(json.dumps(game.to_json()))),
        repeat=50 if quick else 300,
    )
    return ms_row("scrabble: state JSON save+load", samples, None)
