"""Puzzle extraction (issue #31): the work the puzzle job's worker does for one finished
Scrabble game, ``bot.compute.puzzles.puzzles_of`` on its saved state: the game is
rebuilt from its JSON and replayed once with the move generator (every play of every
turn's rack on the built-in list), and the turns whose best play beat the move made by
15 points or more become puzzles.

The game: two computers play it out on the built-in list (seeded), one at the
``casual`` level (a play at random among its ten best, so it leaves points on the
table as a club member might) and one at ``strong``; the word graph is built once
before (``bench_movegen`` times that build, which a worker pays once). Each sample is
one whole extraction; the budget is on the median (1.5 s: the job runs off the event
loop, once per finished game, so it need only be well under the job's lease).

Chess (``chess_rows``, with Stockfish): the chess puzzle job's search of one finished
40-ply game at ``engines.chess_puzzles.SEARCH_DEPTH`` with two lines per position, the
median and p95 of a few runs.
"""

from __future__ import annotations

import random

from benchmarks._core import Row, ms_row, percentile, time_calls
from bot.compute.puzzles import puzzles_of
from bot.compute.scrabble import AiOptions
from engines.lexicon import load_lexicon
from engines.scrabble.game import ACTIVE, ScrabbleGame, ScrabbleOptions
from engines.scrabble.movegen import MoveGenerator, apply_move
from engines.scrabble.puzzles import DEFAULT_MARGIN

EXTRACTION_BUDGET_MS = 1500.0
SEED = 2033  # a game with several puzzles (5 turns 20 points or more short)


def finished_game(generator: MoveGenerator, seed: int = SEED) -> ScrabbleGame:
    """A game played out by a casual (seat 0) and a strong (seat 1) computer."""
    game = ScrabbleGame.new(ScrabbleOptions(turn_order="fixed", challenge="void"), seed)
    rng = random.Random(seed)
    levels = ("casual", "strong")
    while game.status == ACTIVE:
        seat = game.current_seat
        move = generator.choose_play(game, seat, levels[seat], rng)
        apply_move(game, seat, move, generator.lexicon)
    return game


def run(quick: bool) -> list[Row]:
    lexicon = load_lexicon()
    generator = MoveGenerator(lexicon)  # builds the word graph once, as a worker keeps it
    game = finished_game(generator)
    state = game.to_json()
    options = AiOptions("default")
    found = puzzles_of(state, options, None, DEFAULT_MARGIN)
    turns = sum(1 for move in game.moves if move["type"] in ("play", "exchange", "pass"))
    samples = time_calls(
        lambda: puzzles_of(state, options, None, DEFAULT_MARGIN),
        repeat=3 if quick else 10,
        warmup=1,
    )
    return [
        ms_row(
            f"puzzle extraction: one finished game ({turns} turns, {len(found)} puzzles)",
            samples,
            EXTRACTION_BUDGET_MS,
        ),
        *chess_rows(quick),
    ]


# -- chess puzzles (Stockfish) -----------------------------------------------------------

# A 40-ply game Stockfish played against itself at level 1 (its weakest): its slips
# leave three positions with one clearly winning move missed, as a club game would.
CHESS_GAME = [
    "g1f3",
    "c7c5",
    "d2d4",
    "d8a5",
    "c1d2",
    "a5b6",
    "e2e3",
    "b8c6",
    "d4d5",
    "c6d8",
    "d2c3",
    "d7d6",
    "a2a4",
    "g8f6",
    "f1b5",
    "f6d7",
    "b1d2",
    "f7f6",
    "d2c4",
    "b6c7",
    "a4a5",
    "a8b8",
    "d1e2",
    "a7a6",
    "b5d7",
    "c7d7",
    "f3d2",
    "b7b5",
    "c4b6",
    "d7c7",
    "h2h3",
    "e7e6",
    "e3e4",
    "b5b4",
    "c3f6",
    "d8f7",
    "b6c8",
    "e6e5",
    "c8b6",
    "c7b7",
]
# Budget on the median: the job runs once per finished game, off the event loop (in
# Stockfish's own process), so it need only stay well inside the job's lease.
CHESS_EXTRACTION_BUDGET_MS = 30_000.0


def chess_rows(quick: bool) -> list[Row]:
    """Puzzle extraction for one finished chess game at ``SEARCH_DEPTH``: one Stockfish
    process searching every position with two lines (the puzzle job's prepare step);
    no row without Stockfish."""
    import asyncio
    import os

    from bot.services.chess.engine import StockfishEngine
    from bot.services.puzzles.chess import find_chess_puzzles
    from engines.chess_puzzles import SEARCH_DEPTH

    path = os.environ.get("STOCKFISH_PATH") or "/usr/games/stockfish"
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        return []
    engine = StockfishEngine(path, timeout=120)

    async def extract() -> int:
        async with engine.line_search(SEARCH_DEPTH) as search:
            return len(await find_chess_puzzles(search, CHESS_GAME))

    found = asyncio.run(extract())
    samples = time_calls(lambda: asyncio.run(extract()), repeat=3 if quick else 5, warmup=0)
    row = ms_row(
        f"chess puzzle extraction: one finished game ({len(CHESS_GAME)} plies, depth "
        f"{SEARCH_DEPTH}, MultiPV 2, {found} puzzles)",
        samples,
        CHESS_EXTRACTION_BUDGET_MS,
    )
    row.spread += f", p95 {percentile(samples, 95):.0f}"
    return [row]
