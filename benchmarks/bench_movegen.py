"""Scrabble move generation: every legal play for mid-game positions from real games.

Positions: the recorded games in ``<repo>/../shared/conformance/scrabble/gcg``
are replayed; from each, the boards nearest 40 tiles (between 30 and 50) are
taken in turn across the games until there are 100. The rack is the one the
player held there when the record gives it as 7 lettered tiles, else 7 tiles
drawn (seeded per position) from the tiles not on the board, blanks left
out. The one-blank rack is the same rack with its last tile turned into a
blank. Each position is timed as the median of a few calls after one
untimed call (which also warms the word graph's cross-check memo, as a
running bot's would be); the rows report the median, p99 and spread of those
per-position times over the 100 positions.

The word list is the built-in one; the graph build and its memory are
measured on a fresh build from the list's DAWG.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
import tracemalloc
from pathlib import Path

from benchmarks._core import Row, ms_row, time_calls
from engines.lexicon import load_lexicon
from engines.scrabble.board import Board, Evaluation
from engines.scrabble.gcg import read_gcg, recorded_rack
from engines.scrabble.layout import BLANK, TILE_COUNTS
from engines.scrabble.movegen import MoveGenerator
from engines.scrabble.wordgraph import WordGraph

POSITIONS = 100
TARGET_TILES = 40
TILE_WINDOW = (30, 50)
PLAIN_BUDGET_MS = 5.0
ONE_BLANK_BUDGET_MS = 40.0


def _conformance_dir() -> Path | None:
    for parent in Path(__file__).resolve().parents:
        if (parent / "pyproject.toml").exists():
            candidate = parent.parent / "shared" / "conformance" / "scrabble" / "gcg"
            return candidate if candidate.is_dir() else None
    return None


def mid_game_positions(folder: Path, count: int = POSITIONS) -> list[tuple[str, Board, str]]:
    """(label, board, 7-tile rack without blanks) for ``count`` positions near 40 tiles."""
    per_game: list[list[tuple[int, str, Board, str | None]]] = []
    for path in sorted(folder.glob("*.gcg")):
        board = Board()
        history: dict[str, Evaluation] = {}
        candidates = []
        for number, event in enumerate(read_gcg(path).events):
            if event.kind == "withdraw":
                board.remove(history.pop(event.nick).tiles)
            elif event.kind == "play":
                if TILE_WINDOW[0] <= board.count <= TILE_WINDOW[1]:
                    label = f"{path.stem}#{number}"
                    candidates.append(
                        (
                            abs(board.count - TARGET_TILES),
                            label,
                            board.copy(),
                            recorded_rack(event.rack),
                        )
                    )
                evaluation = board.evaluate(event.word or "", event.position or "")
                board.apply(evaluation)
                history[event.nick] = evaluation
        candidates.sort(key=lambda c: c[0])
        per_game.append(candidates)
    chosen: list[tuple[str, Board, str]] = []
    rank = 0
    while len(chosen) < count and any(rank < len(c) for c in per_game):
        for candidates in per_game:
            if rank < len(candidates) and len(chosen) < count:
                _, label, board, rack = candidates[rank]
                chosen.append((label, board, _plain_rack(board, rack, label)))
        rank += 1
    return chosen


def _plain_rack(board: Board, recorded: str | None, label: str) -> str:
    if recorded and len(recorded) == 7 and BLANK not in recorded:
        return recorded
    on_board = board.tile_counts()
    pool = [
        tile
        for tile, total in sorted(TILE_COUNTS.items())
        if tile != BLANK
        for _ in range(total - on_board.get(tile, 0))
    ]
    return "".join(random.Random(label).sample(pool, 7))


def _position_times(
    generator: MoveGenerator, positions: list[tuple[str, Board, str]], repeat: int
) -> tuple[list[float], list[int]]:
    times, counts = [], []
    for _, board, rack in positions:
        samples = time_calls(
            lambda b=board, r=rack: generator.generate(b, r), repeat=repeat, warmup=1
        )
        times.append(min(samples))
        counts.append(len(generator.generate(board, rack)))
    return times, counts


def _plays_note(counts: list[int]) -> str:
    return f"; plays per position median {statistics.median(counts):.0f}, max {max(counts)}"


def run(quick: bool) -> list[Row]:
    lexicon = load_lexicon()
    rows = _graph_rows(lexicon)
    folder = _conformance_dir()
    if folder is None:  # the real games live beside the repository
        return rows
    generator = MoveGenerator(lexicon)
    positions = mid_game_positions(folder)
    repeat = 1 if quick else 5
    tiles = [board.count for _, board, _ in positions]
    setting = f"{len(positions)} positions, {min(tiles)}-{max(tiles)} tiles"

    times, counts = _position_times(generator, positions, repeat)
    row = ms_row(f"movegen: all plays, 7-tile rack, no blank ({setting})", times, PLAIN_BUDGET_MS)
    row.spread += _plays_note(counts)
    rows.append(row)

    blanked = [(label, board, rack[:-1] + BLANK) for label, board, rack in positions]
    times, counts = _position_times(generator, blanked, repeat)
    row = ms_row(
        f"movegen: all plays, 7-tile rack, one blank ({setting})", times, ONE_BLANK_BUDGET_MS
    )
    row.spread += _plays_note(counts)
    rows.append(row)

    checks = [
        min(
            time_calls(
                lambda b=board, r=rack: generator.has_valid_play(b, r), repeat=repeat, warmup=1
            )
        )
        for _, board, rack in positions
    ]
    rows.append(ms_row("movegen: has_valid_play (same positions, no blank)", checks, None))
    return rows


def _graph_rows(lexicon) -> list[Row]:
    dawg = lexicon.dawg
    gc.collect()
    start = time.perf_counter()
    graph = WordGraph.from_dawg(dawg)
    build_s = time.perf_counter() - start
    del graph
    gc.collect()
    tracemalloc.start()
    graph = WordGraph.from_dawg(dawg)
    size_mib = tracemalloc.get_traced_memory()[0] / 2**20
    tracemalloc.stop()
    note = f"{graph.node_count:,} nodes, {graph.edge_count:,} edges, {len(lexicon):,} words"
    return [
        Row(
            "movegen: word graph build from the built-in list's DAWG",
            "s",
            None,
            build_s,
            spread=note,
        ),
        Row("movegen: word graph memory", "MiB", None, size_mib, spread=note),
    ]


__all__ = ["mid_game_positions", "run"]
