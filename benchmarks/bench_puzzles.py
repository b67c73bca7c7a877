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
"""

from __future__ import annotations

import random

from benchmarks._core import Row, ms_row, time_calls
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
        )
    ]
